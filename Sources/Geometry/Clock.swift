/// Monotonic microseconds. Logic never reads the wall clock: it is handed a `Clock`, so that
/// replay and tests run on virtual time.
public typealias Microseconds = Int64

public protocol Clock: AnyObject {
    /// Monotonic time in microseconds since an arbitrary start.
    var now: Microseconds { get }
}

/// A clock that only moves when told to: replay and tests.
public final class VirtualClock: Clock, @unchecked Sendable {
    public private(set) var now: Microseconds
    public init(start: Microseconds = 0) { now = start }
    public func advance(by us: Microseconds) { precondition(us >= 0); now += us }
    public func set(_ t: Microseconds) { precondition(t >= now, "virtual time never goes back"); now = t }
}

public extension Microseconds {
    var seconds: Double { Double(self) / 1_000_000 }
    static func fromSeconds(_ s: Double) -> Microseconds { Microseconds((s * 1_000_000).rounded()) }
}
