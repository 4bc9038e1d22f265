import Geometry

/// Why a sample was thrown away.
public enum BadSampleReason: String, CaseIterable, Sendable {
    /// NaN or infinite.
    case notFinite = "not a finite number"
    /// Longer than `SampleValidator.maximumMagnitude` (20 g): no hand-held kiosk does that.
    case outOfRange = "over 20 g"
    /// Bit-for-bit the same vector for longer than the stuck limit: the sensor has frozen.
    case stuck = "stuck (identical readings)"
    /// The read itself failed (EIO, short read, garbage text).
    case readError = "read error"
}

/// Drops samples no physical accelerometer produces and counts them by reason.
public struct SampleValidator: Sendable {
    public static let maximumMagnitude = 20 * standardGravity
    /// Identical readings for this long mean the sensor is stuck; nil never decides so
    /// (a stub or a very quiet sensor can legitimately repeat itself).
    public var stuckAfter: Microseconds?
    public private(set) var dropped: [BadSampleReason: Int] = [:]
    public var droppedTotal: Int { dropped.values.reduce(0, +) }

    /// The reading that keeps repeating, and since when: what a black-box trace carries so
    /// that its replay judges "stuck" as the stand did.
    public private(set) var lastVector: Vec3?
    public private(set) var sameSince: Microseconds = 0

    public init(stuckAfter: Microseconds? = 10_000_000) { self.stuckAfter = stuckAfter }

    /// nil when the sample is fine; otherwise the reason (and it has been counted).
    public mutating func check(_ s: AccelerationSample) -> BadSampleReason? {
        let v = s.vector
        if !v.isFinite { return count(.notFinite) }
        if v.lengthSquared > SampleValidator.maximumMagnitude * SampleValidator.maximumMagnitude { return count(.outOfRange) }
        if v == lastVector {
            if let limit = stuckAfter, s.time - sameSince >= limit { return count(.stuck) }
        } else {
            lastVector = v
            sameSince = s.time
        }
        return nil
    }

    public mutating func countReadErrors(_ failures: Int = 1) { dropped[.readError, default: 0] += max(1, failures) }

    /// Forgets the history (a new source: its first readings are not "the same as before").
    public mutating func restart() { lastVector = nil }

    /// Carries on from another validator's history (a replay starting mid-run).
    public mutating func resume(lastVector: Vec3?, sameSince: Microseconds) {
        self.lastVector = lastVector
        self.sameSince = sameSince
    }

    private mutating func count(_ r: BadSampleReason) -> BadSampleReason {
        dropped[r, default: 0] += 1
        return r
    }
}
