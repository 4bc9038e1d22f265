/// When the next frame may go out: never while a flip is in flight, never sooner than one
/// refresh period after the previous one (some drivers, virtio-gpu, complete flips at once
/// and would otherwise let a busy scene spin thousands of frames a second), and, once a flip
/// has completed, as late before the next refresh as drawing allows: a touch that arrives
/// during the frame is then drawn into the very next one (touch to photon within a period).
public struct FramePacing: Sendable {
    public enum Decision: Equatable, Sendable {
        case submitNow
        /// A flip is pending: its event will call again, or, should it not come by
        /// `giveUpAt`, a call then finds it overdue (`flipOverdue`).
        case waitForFlip(giveUpAt: Int64)
        /// Too soon: arm a timer for this monotonic time (µs).
        case waitUntil(Int64)
    }

    /// One refresh period of the mode, µs.
    public let minimumInterval: Int64
    public private(set) var flipPending = false
    public private(set) var lastSubmit: Int64?
    /// When the last flip completed (its vblank), and how long before the next one drawing
    /// starts: the slowest recent frame (decaying) plus a margin, at most a period.
    public private(set) var lastFlip: Int64?
    public private(set) var lead: Int64
    private var slowestRecent: Double = 0
    private var decidedAt: Int64?
    public static let leadMargin: Int64 = 2_000
    /// A flip whose event has not come this long after it was submitted is taken as lost
    /// (60 periods at 60 Hz; the kernel's own wait for a flip gives up after 10 s with
    /// "flip_done timed out", which Raspberry Pi panels and HDMI monitors turned off and on
    /// are known for). Waiting on would freeze the picture for good.
    public static let flipTimeout: Int64 = 1_000_000

    public init(refreshMilliHertz: Int) {
        minimumInterval = refreshMilliHertz > 0 ? 1_000_000_000 / Int64(refreshMilliHertz) : 16_667
        lead = minimumInterval
    }

    public mutating func decide(now: Int64) -> Decision {
        if let giveUpAt = flipGiveUpAt { return .waitForFlip(giveUpAt: giveUpAt) }
        if let last = lastSubmit, now - last < minimumInterval, lastFlip == nil { return .waitUntil(last + minimumInterval) }
        if let flip = lastFlip {
            let start = flip + minimumInterval - lead
            if now < start { return .waitUntil(start) }
        }
        decidedAt = now
        return .submitNow
    }

    public mutating func submitted(at now: Int64, awaitingFlip: Bool = true) {
        if let decided = decidedAt {
            // Drawing and handing over took this long: a decaying maximum keeps one slow
            // frame in mind for a while without holding on to it for ever.
            slowestRecent = max(Double(now - decided), slowestRecent * 0.97)
            lead = min(minimumInterval, Int64(slowestRecent) + FramePacing.leadMargin)
            decidedAt = nil
        }
        lastSubmit = now
        flipPending = awaitingFlip
        if !awaitingFlip { lastFlip = nil }
    }

    /// When the pending flip is given up if its event has not come (nil: none pending).
    public var flipGiveUpAt: Int64? {
        guard flipPending, let submitted = lastSubmit else { return nil }
        return submitted + FramePacing.flipTimeout
    }

    /// Whether the pending flip's event is later than `flipTimeout`.
    public func flipOverdue(now: Int64) -> Bool { flipGiveUpAt.map { now >= $0 } ?? false }

    /// The pending flip will not be waited for any longer: the next frame may go out at once.
    public mutating func flipLost() {
        flipPending = false
        lastFlip = nil
        lastSubmit = nil
    }

    /// The flip completed at `time` (its vblank); nil: the time is not known.
    public mutating func flipCompleted(at time: Int64? = nil) {
        flipPending = false
        lastFlip = time
    }
}
