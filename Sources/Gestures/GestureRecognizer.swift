import Geometry

/// UIKit's recognizer states. Discrete recognizers (tap, swipe) go possible → recognized
/// (= ended) or failed; continuous ones (long press, pan, pinch, rotation) go possible →
/// began → changed… → ended or cancelled, or fail before beginning. After a terminal state
/// the recognizer returns to possible once its fingers are up.
public enum GestureState: String, Sendable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed

    /// UIKit's `.recognized` is `.ended`.
    public static var recognized: GestureState { .ended }
    public var isActive: Bool { self == .began || self == .changed }
    public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }
    public var description: String { rawValue }
}

/// The common part of every recognizer: the touches it follows, its state, its relations to
/// other recognizers. Not subclassable outside this module; exhibits use the six concrete
/// recognizers. A recognizer's action runs on began, changed, ended (recognized) and
/// cancelled, never on failed, as in UIKit; read `state` inside it.
public class GestureRecognizer {
    public internal(set) var state: GestureState = .possible
    /// When the gesture reached `state`: the time of the touch event that made it so (a
    /// tap: the lift that completed it, even when the lift is confirmed only after the
    /// debounce) or of the deadline (a long press: when it had been held long enough).
    /// Content acts on this time, not on when the action happens to run.
    public internal(set) var time: Microseconds = 0
    /// A disabled recognizer receives no new touches; disabling one in progress cancels it.
    public var isEnabled = true {
        didSet { if !isEnabled, oldValue { environment?.abort(self) } }
    }
    /// Screen-level recognizers only get touches that go down inside this rectangle (nil =
    /// the whole screen). Item recognizers get the touches of their item.
    public let region: Rect?
    /// The item this recognizer was made for by an `ItemAttachment`; nil for screen-level ones.
    public internal(set) var item: ItemTag?
    /// UIKit's `gestureRecognizer(_:shouldReceive:)`: asked at touch down; false keeps the
    /// touch away from this recognizer (e.g. a background tap that ignores shapes).
    public var shouldReceiveTouch: ((Vec2) -> Bool)?
    /// UIKit's `shouldRecognizeSimultaneouslyWith`: consulted in addition to the pairs set
    /// with `recognizeSimultaneously(with:)`; either side saying yes is enough.
    public var shouldRecognizeSimultaneously: ((GestureRecognizer) -> Bool)?
    /// For logs and state dumps.
    public var name: String

    init(region: Rect?, name: String) {
        self.region = region
        self.name = name
    }

    /// Names this recognizer in other recognizers' relations: a relation holds this token,
    /// not the recognizer, so two recognizers that refer to each other are still freed
    /// (Embedded Swift has no weak references), and one that is gone simply is not found.
    /// A token is its own identity: no counter shared between recognizers (or threads), and
    /// never reused while a relation still holds it.
    let serial = RecognizerSerial()

    // MARK: relations

    private var simultaneousPartners: [RecognizerSerial] = []
    /// Serials of the recognizers that must fail first; the environment finds them.
    private(set) var failureRequirements: [RecognizerSerial] = []

    /// Lets this recognizer and `other` be recognized together (symmetric), e.g. pan + pinch
    /// + rotation on one shape. Otherwise the first of two recognizers sharing a touch to
    /// begin makes the other fail.
    public func recognizeSimultaneously(with other: GestureRecognizer) {
        guard other !== self else { return }
        if !simultaneousPartners.contains(where: { $0 === other.serial }) { simultaneousPartners.append(other.serial) }
        if !other.simultaneousPartners.contains(where: { $0 === serial }) { other.simultaneousPartners.append(serial) }
    }

    /// UIKit's `require(toFail:)`: this recognizer waits, once it would recognize, until
    /// `other` fails, and fails itself if `other` is recognized (a single tap waiting for a
    /// double tap). A requirement that has no part in the current touches counts as failed.
    public func requireToFail(_ other: GestureRecognizer) {
        guard other !== self else { return }
        if !failureRequirements.contains(where: { $0 === other.serial }) { failureRequirements.append(other.serial) }
    }

    public func canRecognizeSimultaneously(with other: GestureRecognizer) -> Bool {
        simultaneousPartners.contains { $0 === other.serial }
            || shouldRecognizeSimultaneously?(other) == true
            || other.shouldRecognizeSimultaneously?(self) == true
    }

    // MARK: touches

    struct TrackedTouch {
        let id: TouchID
        let device: Int
        let start: Vec2
        let startTime: Microseconds
        var position: Vec2
        var time: Microseconds
    }

    /// Touches this recognizer follows, in the order they went down. During a frame they
    /// include touches lifting in it (at their last position).
    var tracked: [TrackedTouch] = []
    /// Touches whose "up" is held back by the lift debounce: still down for the recognizer's
    /// state, but frozen where they were, so geometry (centroids, finger pairs) leaves them out.
    var lifting: Set<TouchID> = []
    /// Every touch delivered since the last reset: recognizers sharing one conflict.
    var involved: Set<TouchID> = []
    var involvedDevices: Set<Int> = []
    private var lastLocation = Vec2.zero

    /// Touches currently down on this recognizer.
    public var numberOfTouches: Int { tracked.count }
    /// The centroid of the touches (after they lift: where they were last). A tap reports
    /// where its fingers were when it was recognized.
    public var location: Vec2 {
        if let fixed = fixedLocation { return fixed }
        return tracked.isEmpty ? lastLocation : centroid(of: tracked)
    }
    var fixedLocation: Vec2?

    /// The touches that define positions now: down, not lifting, not lifting in this frame.
    func geometryTouches(excluding ended: [TouchID] = []) -> [TrackedTouch] {
        tracked.filter { !lifting.contains($0.id) && !ended.contains($0.id) }
    }
    /// Position of the `index`-th touch, in the order they went down (nil past the last).
    public func location(ofTouch index: Int) -> Vec2? { tracked.indices.contains(index) ? tracked[index].position : nil }

    func centroid(of touches: [TrackedTouch]) -> Vec2 {
        guard !touches.isEmpty else { return lastLocation }
        var sum = Vec2.zero
        for t in touches { sum += t.position }
        return sum / Double(touches.count)
    }

    func tracks(_ id: TouchID) -> Bool { tracked.contains { $0.id == id } }

    // MARK: engine

    /// The environment this recognizer is attached to. Unretained: the environment holds
    /// its recognizers and sets this to nil when it lets one go or is freed itself.
    unowned(unsafe) var environment: GestureEnvironment?
    /// State changes asked for and not yet applied; a recognition waiting on a failure
    /// requirement stays here (with later changes coalesced behind it).
    private(set) var proposals: [GestureState] = []
    /// The time of each of `proposals`: the input's when it was proposed.
    private var proposalTimes: [Microseconds] = []
    /// The time of the touch frame, deadline or cancellation being handled now.
    var inputTime: Microseconds = 0
    /// Arbitration order: item recognizers before screen ones (deepest first, as UIKit walks
    /// the view hierarchy), then in creation order.
    var rank = 0

    /// Waiting for a failure requirement before beginning or being recognized.
    public var isWaitingForFailure: Bool { state == .possible && !proposals.isEmpty && proposals[0] != .failed }

    /// True while this recognizer is, or is about to be, in a gesture.
    var isRecognizing: Bool { state.isActive || (state == .possible && proposals.first == .began) }

    /// Whether a new touch may join (after `accepts` rules of the environment).
    func wantsAnotherTouch() -> Bool { true }

    /// Called once per frame with the touches' new positions already applied.
    func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {}
    /// When this recognizer needs to be woken without a touch event.
    var deadline: Microseconds? { nil }
    func deadlineReached(at time: Microseconds) {}
    /// Back to possible: forget the gesture.
    func resetGesture() {}
    func sendAction() {}

    func propose(_ next: GestureState) {
        switch next {
        case .changed:
            guard isRecognizing else { return }
            if let last = proposals.last, last == .changed || last == .began {
                // Coalesced: a pending change reports the latest movement's time.
                if last == .changed { proposalTimes[proposalTimes.count - 1] = inputTime }
                return
            }
            proposals.append(.changed)
            proposalTimes.append(inputTime)
        case .failed:
            proposals = [.failed]
            proposalTimes = [inputTime]
        case .cancelled:
            proposals = state.isActive ? [.cancelled] : [.failed]
            proposalTimes = [inputTime]
        case .possible:
            return
        case .began, .ended:
            proposals.append(next)
            proposalTimes.append(inputTime)
        }
        environment?.needsResolve = true
    }

    /// The first proposal is applied: the gesture's time becomes the time it was proposed at.
    func takeProposal() {
        proposals.removeFirst()
        time = proposalTimes.removeFirst()
    }

    func dropProposals() {
        proposals.removeAll()
        proposalTimes.removeAll()
    }

    // Called by the environment.

    func begin(touch id: TouchID, device: Int, at position: Vec2, time: Microseconds) {
        tracked.append(TrackedTouch(id: id, device: device, start: position, startTime: time, position: position, time: time))
        involved.insert(id)
        involvedDevices.insert(device)
    }

    func move(touch id: TouchID, to position: Vec2, time: Microseconds) {
        guard let i = tracked.firstIndex(where: { $0.id == id }) else { return }
        tracked[i].position = position
        tracked[i].time = time
        touchesMovedThisFrame = true
    }

    /// Whether a touch moved in the frame being handled (frames may also just add, lift or
    /// debounce touches).
    var touchesMovedThisFrame = false

    /// After the frame's touches are applied: run the recognizer's logic (unless it is done
    /// with this gesture), then drop the touches that lifted.
    func finishFrame(added: [TouchID], ended: [TouchID], cancelled: [TouchID], time: Microseconds) {
        inputTime = time
        let live = !state.isTerminal && !(proposals.first == .failed)
        for id in ended { lifting.remove(id) }
        for id in cancelled { lifting.remove(id) }
        if !cancelled.isEmpty {
            touchesMovedThisFrame = false
            // UIKit: a cancelled touch cancels the whole gesture it is part of.
            tracked.removeAll { cancelled.contains($0.id) || ended.contains($0.id) }
            if live { propose(.cancelled) }
            return
        }
        if !tracked.isEmpty { lastLocation = centroid(of: tracked) }
        if live { touchesChanged(added: added, ended: ended, time: time) }
        if !ended.isEmpty {
            tracked.removeAll { ended.contains($0.id) }
        }
        touchesMovedThisFrame = false
    }

    /// Cancel (if in a gesture) or fail, and let go of every touch.
    func abort() {
        if let environment { inputTime = max(inputTime, environment.now) }
        tracked.removeAll()
        lifting.removeAll()
        if !state.isTerminal { propose(.cancelled) }
    }

    func reset() {
        state = .possible
        dropProposals()
        tracked.removeAll()
        lifting.removeAll()
        involved.removeAll()
        involvedDevices.removeAll()
        resetGesture()
    }

    /// Nothing going on: no touches, nothing waiting, no timer.
    var isIdle: Bool { state == .possible && tracked.isEmpty && proposals.isEmpty && deadline == nil }
}

/// A recognizer's identity in relations (`GestureRecognizer.serial`): compared with `===`.
final class RecognizerSerial {}
