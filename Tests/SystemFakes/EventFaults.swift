import Geometry
import Platform
import Syscalls

/// The virtual kernel of the frame loop (`VirtualEvents`) with a log of its timer calls and
/// faults on chosen ones: "fail the Nth timerfd_settime with errno E".
public final class FaultyEvents: EventCalls {
    public let base: VirtualEvents
    /// Every `timerSet` so far, in order (1-based numbers are positions in this log).
    public private(set) var timerSets: [(fd: Int32, delay: Int64, interval: Int64)] = []
    /// The `timerSet` calls (by number) that fail, with their errno.
    public var failingTimerSets: [Int: Int32] = [:]

    public init(_ base: VirtualEvents) { self.base = base }

    public func timerSet(_ fd: Int32, delay: Int64, interval: Int64) throws(SystemError) {
        timerSets.append((fd, delay, interval))
        if let errno = failingTimerSets[timerSets.count] { throw SystemError(errno: errno, attempt: "timerfd_settime") }
        try base.timerSet(fd, delay: delay, interval: interval)
    }

    public func epollCreate() throws(SystemError) -> Int32 { try base.epollCreate() }
    public func epollAdd(_ epfd: Int32, fd: Int32, token: UInt64) throws(SystemError) { try base.epollAdd(epfd, fd: fd, token: token) }
    public func epollRemove(_ epfd: Int32, fd: Int32) { base.epollRemove(epfd, fd: fd) }
    public func epollWait(_ epfd: Int32, maxEvents: Int, timeoutMilliseconds: Int32) throws(SystemError) -> [UInt64] {
        try base.epollWait(epfd, maxEvents: maxEvents, timeoutMilliseconds: timeoutMilliseconds)
    }
    public func timerCreate() throws(SystemError) -> Int32 { try base.timerCreate() }
    public func drainTimer(_ fd: Int32) -> UInt64 { base.drainTimer(fd) }
    public func wallClockStepDescriptor() throws(SystemError) -> Int32 { try base.wallClockStepDescriptor() }
    public func wallClockStepped(_ fd: Int32) -> Bool { base.wallClockStepped(fd) }
    public func signalDescriptor(for signals: [Int32]) throws(SystemError) -> Int32 { try base.signalDescriptor(for: signals) }
    public func readSignal(_ fd: Int32) -> Int32? { base.readSignal(fd) }
    public func monotonicMicroseconds() -> Int64 { base.monotonicMicroseconds() }
}
