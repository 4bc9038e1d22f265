/// When the next frame may go out: never while a flip is in flight, and never sooner than
/// one refresh period after the previous one, because some drivers (virtio-gpu) complete
/// flips at once and would otherwise let a busy scene spin thousands of frames a second.
public struct FramePacing: Sendable {
    public enum Decision: Equatable, Sendable {
        case submitNow
        /// A flip is pending: its event will call again.
        case waitForFlip
        /// Too soon after the previous frame: arm a timer for this monotonic time (µs).
        case waitUntil(Int64)
    }

    /// One refresh period of the mode, µs.
    public let minimumInterval: Int64
    public private(set) var flipPending = false
    public private(set) var lastSubmit: Int64?

    public init(refreshMilliHertz: Int) {
        minimumInterval = refreshMilliHertz > 0 ? 1_000_000_000 / Int64(refreshMilliHertz) : 16_667
    }

    public func decide(now: Int64) -> Decision {
        if flipPending { return .waitForFlip }
        if let last = lastSubmit, now - last < minimumInterval { return .waitUntil(last + minimumInterval) }
        return .submitNow
    }
    public mutating func submitted(at now: Int64, awaitingFlip: Bool = true) {
        lastSubmit = now
        flipPending = awaitingFlip
    }
    public mutating func flipCompleted() { flipPending = false }
}
