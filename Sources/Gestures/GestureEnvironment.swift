import Geometry

/// Recognizers made per item: an exhibit's shapes get their own pan, pinch and rotation as
/// soon as a finger lands on one, so two shapes can be dragged by two people at once.
/// Made by `GestureEnvironment.attachToItems(hitTest:adoptionRadius:make:)`.
public final class ItemAttachment {
    /// The exhibit's answer to "which item is under this point?" (nil: none).
    public let hitTest: (Vec2) -> ItemTag?
    let make: (ItemTag) -> [GestureRecognizer]
    /// A finger landing on no item joins the item being touched nearest to it, if one of that
    /// item's fingers is within this many pixels (0: never, UIKit's behaviour). Helps pinching
    /// small shapes, where the second finger often lands just outside.
    public var adoptionRadius: Double
    /// Items with recognizers in use, in the order they were first touched.
    var live: [(item: ItemTag, recognizers: [GestureRecognizer])] = []

    init(hitTest: @escaping (Vec2) -> ItemTag?, adoptionRadius: Double, make: @escaping (ItemTag) -> [GestureRecognizer]) {
        self.hitTest = hitTest
        self.adoptionRadius = adoptionRadius
        self.make = make
    }

    /// The items whose recognizers are following touches or waiting (e.g. for a second tap).
    public var activeItems: [ItemTag] { live.map { $0.item } }
    /// The recognizers made for `item`, if it has any in use.
    public func recognizers(for item: ItemTag) -> [GestureRecognizer] {
        live.first { $0.item == item }?.recognizers ?? []
    }

    func nearestTouchedItem(to point: Vec2) -> ItemTag? {
        var best: (item: ItemTag, distance: Double)?
        for entry in live {
            for r in entry.recognizers {
                for t in r.tracked {
                    let d = t.position.distance(to: point)
                    if d <= adoptionRadius, best == nil || d < best!.distance { best = (entry.item, d) }
                }
            }
        }
        return best?.item
    }
}

/// Routes touch frames to recognizers and arbitrates between them as UIKit does:
/// - a touch goes, for its whole life, to the recognizers of the item under it (made on
///   demand) and to the screen-level recognizers whose region contains it;
/// - of two recognizers sharing a touch, the first to begin (or be recognized) makes the
///   other fail, unless they may recognize simultaneously;
/// - `requireToFail` makes a recognizer wait for another's failure;
/// - a cancelled touch cancels every gesture it is part of; `deviceRemoved` and `cancelAll`
///   cancel touches that will never see their "up".
///
/// Input hardening for cheap panels: a finger that lifts and lands again within
/// `liftDebounce` and `liftDebounceDistance` is the same finger continuing (its "up" is held
/// back until then, so pans don't end and taps aren't doubled); a move to the position a
/// touch already has is no event; a second "down" for a slot that is down is a move; "up",
/// "move" and "cancel" for unknown slots are ignored.
///
/// Time: recognizers that act without a touch event (long press, a tap waiting for its next
/// tap, a held-back lift) publish `nextDeadline`; the frame loop arms a timer for it and, on
/// every wake, first hands over the touch frames that arrived (`handle`), then calls
/// `advance(to:)` with the current time. `nextDeadline == nil` means nothing is pending:
/// block without a timeout.
///
/// An exhibit wires it in its `init`: screen-level recognizers with `add(_:)`, per-item ones
/// with `attachToItems`, here for rectangles the exhibit keys by its own tags:
///
///     var frames: [ItemTag: Rect] = [1: Rect(x: 40, y: 40, width: 100, height: 100)]
///     gestures.attachToItems(hitTest: { p in frames.first { $0.value.contains(p) }?.key }) { tag in
///         let drag = PanGestureRecognizer(name: "drag") { pan in
///             frames[tag]?.origin += pan.translation
///             pan.setTranslation(.zero)
///         }
///         return [drag]
///     }
public final class GestureEnvironment {
    public var liftDebounce: Microseconds
    public var liftDebounceDistance: Double
    /// The latest time seen (frames and `advance`).
    public private(set) var now: Microseconds = 0

    private var screenRecognizers: [GestureRecognizer] = []
    private var attachments: [ItemAttachment] = []
    private var activeTouches: [LiveTouch] = []
    private var liftedTouches: [(touch: LiveTouch, upTime: Microseconds)] = []
    private var nextTouchID: TouchID = 1
    private var nextItemRank = 0
    private var nextScreenRank = 1 << 40
    var needsResolve = false

    final class LiveTouch {
        let id: TouchID
        let device: Int
        var slot: Int
        var position: Vec2
        var time: Microseconds
        var receivers: [GestureRecognizer]
        init(id: TouchID, device: Int, slot: Int, position: Vec2, time: Microseconds, receivers: [GestureRecognizer]) {
            self.id = id; self.device = device; self.slot = slot; self.position = position; self.time = time
            self.receivers = receivers
        }
    }

    public init(liftDebounce: Microseconds = 45_000, liftDebounceDistance: Double = 80) {
        self.liftDebounce = liftDebounce
        self.liftDebounceDistance = liftDebounceDistance
    }

    // MARK: attaching

    /// A screen-level recognizer: gets touches that go down in its `region` (or anywhere),
    /// including those on items.
    public func add(_ recognizer: GestureRecognizer) {
        precondition(recognizer.environment == nil, "\(recognizer.name) is already attached")
        recognizer.environment = self
        recognizer.rank = nextScreenRank
        nextScreenRank += 1
        screenRecognizers.append(recognizer)
    }

    /// Detaches a screen-level recognizer silently (no action runs), e.g. when an exhibit closes.
    public func remove(_ recognizer: GestureRecognizer) {
        guard recognizer.environment === self else { return }
        screenRecognizers.removeAll { $0 === recognizer }
        recognizer.reset()
        recognizer.environment = nil
    }

    /// Recognizers per item: when a touch goes down where `hitTest` finds an item that has
    /// none in use, `make(item)` creates them (set their actions and relations there; the
    /// actions can capture the item's tag, also in `recognizer.item`). They are dropped once all
    /// of them are back to possible with no touch, nothing waiting and no timer.
    @discardableResult
    public func attachToItems(hitTest: @escaping (Vec2) -> ItemTag?, adoptionRadius: Double = 0,
                              make: @escaping (ItemTag) -> [GestureRecognizer]) -> ItemAttachment {
        let attachment = ItemAttachment(hitTest: hitTest, adoptionRadius: adoptionRadius, make: make)
        attachments.append(attachment)
        return attachment
    }

    public func detach(_ attachment: ItemAttachment) {
        for entry in attachment.live { for r in entry.recognizers { r.reset(); r.environment = nil } }
        attachment.live.removeAll()
        attachments.removeAll { $0 === attachment }
    }

    /// The exhibit deleted `item`: its gestures are cancelled (actions run with `.cancelled`)
    /// and its recognizers dropped; the fingers on it stay with the screen-level recognizers.
    public func removeItem(_ item: ItemTag) {
        for a in attachments {
            for r in a.recognizers(for: item) { r.abort() }
        }
        resolve()
        for a in attachments {
            guard let i = a.live.firstIndex(where: { $0.item == item }) else { continue }
            for r in a.live[i].recognizers { r.reset(); r.environment = nil }
            a.live.remove(at: i)
        }
        cleanUp()
    }

    // MARK: input

    /// Touches down now (a lifted finger still inside its debounce time counts).
    public var touchCount: Int { activeTouches.count + liftedTouches.count }
    /// No touch, nothing waiting: the main loop may block without a timeout.
    public var isAtRest: Bool { touchCount == 0 && nextDeadline == nil }

    /// One frame of touch events. Deadlines up to the frame's time are handled first.
    public func handle(_ frame: TouchFrame) {
        advance(to: frame.time)
        var deltas = FrameDeltas()
        for event in frame.events { apply(event, into: &deltas) }
        deliver(deltas, time: frame.time)
        now = max(now, frame.time)
        resolve()
        cleanUp()
        // Deadlines the frame itself made due (a long press of zero duration).
        advance(to: now)
    }

    /// Frames in order (a replayed trace, a test).
    public func handle<S: Sequence>(_ frames: S) where S.Element == TouchFrame {
        for frame in frames { handle(frame) }
    }

    /// The touch device went away (unplugged, driver reset): its touches are cancelled, and
    /// with them every gesture they were part of, including taps waiting for a next tap.
    public func deviceRemoved(_ device: Int, at time: Microseconds) {
        advance(to: time)
        // Fingers that had already lifted did lift: a tap made just before the unplug counts.
        // Only touches still down (no "up" will ever come) are cancelled.
        confirmLifts { $0.touch.device == device }
        cancelTouches(where: { $0.device == device }, time: max(time, now))
        for r in allRecognizers() where r.involvedDevices.contains(device) { r.abort() }
        resolve()
        cleanUp()
    }

    /// Cancels every touch and gesture (exhibit switch, screen blanking, input restart).
    public func cancelAll(at time: Microseconds) {
        advance(to: time)
        cancelTouches(where: { _ in true }, time: max(time, now))
        for r in allRecognizers() where !r.isIdle || !r.involved.isEmpty { r.abort() }
        resolve()
        cleanUp()
    }

    // MARK: time

    /// When the environment next needs `advance(to:)` without new input, or nil.
    public var nextDeadline: Microseconds? {
        var best: Microseconds? = liftedTouches.map { $0.upTime + liftDebounce + 1 }.min()
        for r in allRecognizers() {
            if let d = effectiveDeadline(of: r), best == nil || d < best! { best = d }
        }
        return best
    }

    /// Runs everything due up to `time`: confirmed lifts, long presses, taps that waited in
    /// vain for their next tap.
    public func advance(to time: Microseconds) {
        var rounds = 0
        while rounds < 10_000, let due = nextDeadline, due <= time {
            rounds += 1
            now = max(now, due)
            confirmLifts { $0.upTime + liftDebounce < now }
            for r in allRecognizers() {
                if let d = effectiveDeadline(of: r), d <= now {
                    r.inputTime = now
                    r.deadlineReached(at: now)
                }
            }
            resolve()
            cleanUp()
        }
        now = max(now, time)
    }

    /// A recognizer with a finger in its debounce time decides only once the lift is confirmed
    /// or undone (a long press must not fire for a finger that has in fact lifted).
    private func effectiveDeadline(of r: GestureRecognizer) -> Microseconds? {
        guard r.isEnabled, var d = r.deadline else { return nil }
        for lifted in liftedTouches where r.tracks(lifted.touch.id) {
            d = max(d, lifted.upTime + liftDebounce + 1)
        }
        return d
    }

    // MARK: routing

    struct FrameDeltas {
        var entries: [(recognizer: GestureRecognizer, added: [TouchID], ended: [TouchID], cancelled: [TouchID])] = []
    }

    private func apply(_ e: TouchEvent, into deltas: inout FrameDeltas) {
        let index = activeTouches.firstIndex { $0.device == e.device && $0.slot == e.slot }
        switch e.phase {
        case .down:
            if let i = index { return move(activeTouches[i], to: e, into: &deltas) }
            if let j = resumableLift(for: e) {
                let touch = liftedTouches.remove(at: j).touch
                touch.slot = e.slot
                activeTouches.append(touch)
                for r in touch.receivers where r.tracks(touch.id) {
                    r.lifting.remove(touch.id)
                    deltas.add(r)
                }
                return move(touch, to: e, into: &deltas)
            }
            guard e.position.isFinite else { return }
            let touch = LiveTouch(id: nextTouchID, device: e.device, slot: e.slot, position: e.position, time: e.time, receivers: [])
            nextTouchID += 1
            touch.receivers = receivers(at: e.position)
            for r in touch.receivers {
                r.begin(touch: touch.id, device: e.device, at: e.position, time: e.time)
                deltas.add(r, added: touch.id)
            }
            activeTouches.append(touch)
        case .move:
            guard let i = index else { return }
            move(activeTouches[i], to: e, into: &deltas)
        case .up:
            guard let i = index else { return }
            let touch = activeTouches.remove(at: i)
            move(touch, to: e, into: &deltas)
            if liftDebounce > 0 {
                liftedTouches.append((touch, e.time))
                for r in touch.receivers where r.tracks(touch.id) {
                    r.lifting.insert(touch.id)
                    deltas.add(r)
                }
            } else {
                for r in touch.receivers where r.tracks(touch.id) { deltas.add(r, ended: touch.id) }
            }
        case .cancel:
            guard let i = index else { return }
            let touch = activeTouches.remove(at: i)
            for r in touch.receivers where r.tracks(touch.id) { deltas.add(r, cancelled: touch.id) }
        }
    }

    private func resumableLift(for e: TouchEvent) -> Int? {
        var best: (index: Int, distance: Double)?
        for (i, lifted) in liftedTouches.enumerated() where lifted.touch.device == e.device {
            let gap = e.time - lifted.upTime
            let d = lifted.touch.position.distance(to: e.position)
            if gap >= 0, gap <= liftDebounce, d <= liftDebounceDistance, best == nil || d < best!.distance { best = (i, d) }
        }
        return best?.index
    }

    private func move(_ touch: LiveTouch, to e: TouchEvent, into deltas: inout FrameDeltas) {
        guard e.position.isFinite, e.position != touch.position else { return }
        touch.position = e.position
        touch.time = e.time
        for r in touch.receivers where r.tracks(touch.id) {
            r.move(touch: touch.id, to: e.position, time: e.time)
            deltas.add(r)
        }
    }

    /// Ends the lifted touches `matches` picks (their debounce is over, or their device is gone
    /// and can no longer land them again), as of their lift.
    private func confirmLifts(where matches: ((touch: LiveTouch, upTime: Microseconds)) -> Bool) {
        let confirmed = liftedTouches.filter(matches)
        guard !confirmed.isEmpty else { return }
        liftedTouches.removeAll { lifted in confirmed.contains { $0.touch === lifted.touch } }
        var deltas = FrameDeltas()
        var latest = confirmed[0].upTime
        for lifted in confirmed {
            latest = max(latest, lifted.upTime)
            for r in lifted.touch.receivers where r.tracks(lifted.touch.id) {
                deltas.add(r, ended: lifted.touch.id)
            }
        }
        deliver(deltas, time: latest)
        resolve()
    }

    private func cancelTouches(where matches: (LiveTouch) -> Bool, time: Microseconds) {
        var deltas = FrameDeltas()
        let victims = activeTouches.filter(matches) + liftedTouches.map { $0.touch }.filter(matches)
        activeTouches.removeAll(where: matches)
        liftedTouches.removeAll { matches($0.touch) }
        for touch in victims {
            for r in touch.receivers where r.tracks(touch.id) { deltas.add(r, cancelled: touch.id) }
        }
        deliver(deltas, time: time)
    }

    /// Who gets a touch going down at `point`: the item's recognizers first (made if needed),
    /// then the screen-level ones, each only if it can take another touch now.
    private func receivers(at point: Vec2) -> [GestureRecognizer] {
        var result: [GestureRecognizer] = []
        for a in attachments {
            guard let item = a.hitTest(point) ?? (a.adoptionRadius > 0 ? a.nearestTouchedItem(to: point) : nil) else { continue }
            let set: [GestureRecognizer]
            if let entry = a.live.first(where: { $0.item == item }) {
                set = entry.recognizers
            } else {
                set = a.make(item)
                for r in set {
                    precondition(r.environment == nil, "an item's recognizers must be new")
                    r.environment = self
                    r.item = item
                    r.rank = nextItemRank
                    nextItemRank += 1
                }
                a.live.append((item, set))
            }
            result += set.filter { accepts($0, at: point) }
        }
        for r in screenRecognizers where (r.region?.contains(point) ?? true) && accepts(r, at: point) {
            result.append(r)
        }
        return result
    }

    private func accepts(_ r: GestureRecognizer, at point: Vec2) -> Bool {
        r.isEnabled && r.environment === self && (r.state == .possible || r.state.isActive)
            && r.proposals.isEmpty && r.wantsAnotherTouch() && (r.shouldReceiveTouch?(point) ?? true)
    }

    private func deliver(_ deltas: FrameDeltas, time: Microseconds) {
        for entry in deltas.entries.sorted(by: { $0.recognizer.rank < $1.recognizer.rank }) {
            entry.recognizer.finishFrame(added: entry.added, ended: entry.ended, cancelled: entry.cancelled, time: time)
        }
    }

    // MARK: arbitration

    /// An attached recognizer by its serial; nil when it is gone or was never attached here.
    func recognizer(serial: RecognizerSerial) -> GestureRecognizer? {
        for r in screenRecognizers where r.serial === serial { return r }
        for a in attachments { for entry in a.live { for r in entry.recognizers where r.serial === serial { return r } } }
        return nil
    }

    // Recognizers outliving their environment (an exhibit's, after it closed) must not
    // point at it.
    deinit { for r in allRecognizers() where r.environment === self { r.environment = nil } }

    func allRecognizers() -> [GestureRecognizer] {
        var all: [GestureRecognizer] = []
        for a in attachments { for entry in a.live { all += entry.recognizers } }
        return all + screenRecognizers
    }

    func abort(_ r: GestureRecognizer) {
        r.abort()
        resolve()
        cleanUp()
    }

    private enum Gate { case go, wait, fail }

    /// Whether `r` may begin / be recognized now.
    private func gate(_ r: GestureRecognizer, among all: [GestureRecognizer]) -> Gate {
        for o in all where o !== r && (o.state.isActive || o.state == .ended)
            && !o.involved.isDisjoint(with: r.involved) && !r.canRecognizeSimultaneously(with: o) {
            return .fail
        }
        var wait = false
        for requirement in r.failureRequirements {
            guard let o = recognizer(serial: requirement) else { continue }
            if o.state.isActive || o.state == .ended { return .fail }
            if o.state == .possible && !o.involved.isEmpty { wait = true }
        }
        return wait ? .wait : .go
    }

    /// Applies proposed state changes until nothing moves: recognitions that may go go (and
    /// make conflicting recognizers fail), waiting ones wait, failures release waiters.
    func resolve() {
        var rounds = 0
        while needsResolve, rounds < 1000 {
            needsResolve = false
            rounds += 1
            let all = allRecognizers().sorted { $0.rank < $1.rank }
            for r in all where !r.proposals.isEmpty { step(r, among: all) }
        }
    }

    private func step(_ r: GestureRecognizer, among all: [GestureRecognizer]) {
        while let next = r.proposals.first {
            if r.state == .possible, next == .began || next == .ended {
                switch gate(r, among: all) {
                case .wait:
                    return
                case .fail:
                    r.dropProposals()
                    r.state = .failed
                    needsResolve = true
                    return
                case .go:
                    r.takeProposal()
                    r.state = next
                    needsResolve = true
                    for o in all where o !== r && o.state == .possible
                        && !o.involved.isDisjoint(with: r.involved) && !r.canRecognizeSimultaneously(with: o) {
                        o.dropProposals()
                        o.state = .failed
                    }
                    r.sendAction()
                }
                continue
            }
            r.takeProposal()
            switch next {
            case .failed:
                if r.state == .possible { r.state = .failed; needsResolve = true }
            case .cancelled:
                if r.state.isActive {
                    r.state = .cancelled
                    r.sendAction()
                } else if r.state == .possible {
                    r.state = .failed
                }
                needsResolve = true
            case .changed:
                if r.state.isActive { r.state = .changed; r.sendAction() }
            case .ended:
                if r.state.isActive { r.state = .ended; needsResolve = true; r.sendAction() }
            case .began, .possible:
                break
            }
        }
    }

    /// Recognizers done with their gesture go back to possible; idle item sets are dropped.
    private func cleanUp() {
        for r in allRecognizers() where r.proposals.isEmpty && r.tracked.isEmpty {
            if r.state.isTerminal || (r.state == .possible && r.deadline == nil && !r.involved.isEmpty) {
                r.reset()
            }
        }
        for a in attachments {
            a.live.removeAll { entry in
                guard entry.recognizers.allSatisfy({ $0.isIdle }) else { return false }
                for r in entry.recognizers { r.environment = nil }
                return true
            }
        }
    }
}

extension GestureEnvironment.FrameDeltas {
    mutating func add(_ r: GestureRecognizer, added: TouchID? = nil, ended: TouchID? = nil, cancelled: TouchID? = nil) {
        let i: Int
        if let found = entries.firstIndex(where: { $0.recognizer === r }) {
            i = found
        } else {
            entries.append((r, [], [], []))
            i = entries.count - 1
        }
        if let id = added { entries[i].added.append(id) }
        if let id = ended { entries[i].ended.append(id) }
        if let id = cancelled { entries[i].cancelled.append(id) }
    }
}
