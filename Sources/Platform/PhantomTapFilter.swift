import Geometry

/// Recognises a touch panel's phantom taps and keeps them from the kiosk: a touch that goes
/// down and up at once, without moving, at the same spot, repeating at a steady period (the
/// 10-inch Touch Display 2 taps one fixed point every 12.864 s; cheap panels do similar).
/// After its third repeat such a spot is known, and a quiet tap there on the period is
/// withheld: it makes no gesture, keeps no idle timer alive and wakes no closed stand. A real
/// touch at the same spot still works: off the period it passes at once; on the period it
/// passes as soon as it moves, or when it is held longer than a phantom ever is. A phantom
/// whose beat shifts (its controller reset) passes again until it has repeated three times
/// on the new beat, and is then known again.
public struct PhantomTapFilter: Sendable {
    /// How far apart (px) two taps may land and be the same spot: 2 mm on the glass.
    public var spotRadius: Double
    /// Phantom taps withheld so far (`motionkiosk_touch_phantom_total`).
    public private(set) var ignored = 0

    /// A phantom is down no longer than this (the known ones are zero-length).
    public static let longestPhantom: Microseconds = 150_000
    /// Intervals this close to each other are one steady period (a panel polled at 25 Hz
    /// jitters by 40 ms).
    public static let periodTolerance: Microseconds = 100_000
    /// Periods a phantom may have: a visitor tapping a button in rhythm is faster.
    public static let periods: ClosedRange<Microseconds> = 2_000_000...600_000_000
    /// Repeats of the first tap before the spot counts as a phantom.
    public static let repeatsToRecognise = 3
    /// Spots followed at once; the oldest is forgotten first.
    static let spotsFollowed = 8

    /// A place where quiet taps landed: the last few down times, and the period once known.
    struct Spot: Sendable {
        var position: Vec2
        var times: [Microseconds]
        var period: Microseconds?
        var lastPhantom: Microseconds
    }
    /// A finger down now: where and when it landed, whether it moved, and whether it is
    /// withheld as a possible phantom (its down not passed on yet).
    struct Finger: Sendable {
        var down: TouchEvent
        var moved: Bool
        var withheld: Bool
    }
    private var spots: [Spot] = []
    private var fingers: [Int: Finger] = [:]

    /// `millimetresPerPixel` from the display; nil assumes a 7-inch panel's 0.19 mm.
    public init(millimetresPerPixel: Double? = nil) {
        spotRadius = 2 / (millimetresPerPixel ?? 0.19)
    }

    /// Spots recognised as phantoms: position and period.
    public var recognised: [(position: Vec2, period: Microseconds)] {
        spots.compactMap { s in s.period.map { (s.position, $0) } }
    }

    /// The frame without the phantom taps' events (and with a withheld real touch's down
    /// put back before its first movement); nil when nothing is left.
    public mutating func filter(_ frame: TouchFrame) -> TouchFrame? {
        var out: [TouchEvent] = []
        for e in frame.events {
            switch e.phase {
            case .down:
                let withheld = isOnPhantomBeat(e)
                fingers[e.slot] = Finger(down: e, moved: false, withheld: withheld)
                if !withheld { out.append(e) }
            case .move:
                guard var f = fingers[e.slot] else { out.append(e); continue }
                if e.position.distance(to: f.down.position) > spotRadius { f.moved = true }
                if f.withheld {
                    // Still quiet and short: it may yet be a phantom.
                    guard f.moved || e.time - f.down.time > Self.longestPhantom else { fingers[e.slot] = f; continue }
                    f.withheld = false
                    out.append(f.down)
                }
                fingers[e.slot] = f
                out.append(e)
            case .up:
                guard let f = fingers.removeValue(forKey: e.slot) else { out.append(e); continue }
                let quiet = !f.moved && e.position.distance(to: f.down.position) <= spotRadius
                    && e.time - f.down.time <= Self.longestPhantom
                if f.withheld {
                    if quiet { phantom(f.down); continue }
                    out.append(f.down)
                } else if quiet {
                    learn(f.down)
                }
                out.append(e)
            case .cancel:
                guard let f = fingers.removeValue(forKey: e.slot) else { out.append(e); continue }
                if !f.withheld { out.append(e) }
            }
        }
        return out.isEmpty ? nil : TouchFrame(time: frame.time, events: out)
    }

    /// A down on a recognised spot, a whole number of periods after its last phantom.
    private func isOnPhantomBeat(_ e: TouchEvent) -> Bool {
        guard let s = spots.first(where: { $0.period != nil && $0.position.distance(to: e.position) <= spotRadius }),
              let period = s.period else { return false }
        let since = e.time - s.lastPhantom
        guard since > period / 2 else { return false }
        let beats = (since + period / 2) / period
        // Drift adds up over missed beats; a day's worth is never the same beat.
        guard beats <= 100 else { return false }
        let off = since - beats * period
        return abs(off) <= Self.periodTolerance * beats
    }

    /// The mean interval of `times` when they repeat at one steady period a phantom may have.
    private static func steadyPeriod(_ times: [Microseconds]) -> Microseconds? {
        var low = Microseconds.max, high = Microseconds.min
        for k in 1..<times.count {
            let interval = times[k] - times[k - 1]
            low = min(low, interval)
            high = max(high, interval)
        }
        let mean = (times[times.count - 1] - times[0]) / Microseconds(times.count - 1)
        guard high - low <= periodTolerance, periods.contains(mean) else { return nil }
        return mean
    }

    private mutating func phantom(_ down: TouchEvent) {
        ignored += 1
        if let i = spots.firstIndex(where: { $0.period != nil && $0.position.distance(to: down.position) <= spotRadius }) {
            spots[i].lastPhantom = down.time
        }
    }

    /// A quiet tap that was passed on: one more time for its spot, which becomes a phantom
    /// once its last taps repeat at one steady period.
    private mutating func learn(_ down: TouchEvent) {
        guard let i = spots.firstIndex(where: { $0.position.distance(to: down.position) <= spotRadius }) else {
            if spots.count >= Self.spotsFollowed { spots.removeFirst() }
            spots.append(Spot(position: down.position, times: [down.time], period: nil, lastPhantom: down.time))
            return
        }
        var s = spots[i]
        s.times.append(down.time)
        if s.times.count > Self.repeatsToRecognise + 1 { s.times.removeFirst(s.times.count - Self.repeatsToRecognise - 1) }
        // A known phantom's beat is kept by the phantoms alone: a visitor's quiet tap there
        // off the beat must not move it. Quiet taps off the beat that repeat at a steady
        // period of their own are the same phantom after its panel lost the beat (a
        // controller reset): the spot is recognised again on the new beat, as it was first.
        if s.period == nil { s.lastPhantom = down.time }
        if s.times.count == Self.repeatsToRecognise + 1, let period = Self.steadyPeriod(s.times) {
            s.period = period
            s.lastPhantom = down.time
            s.times.removeAll(keepingCapacity: true)
        }
        spots.remove(at: i)
        spots.append(s)
    }
}
