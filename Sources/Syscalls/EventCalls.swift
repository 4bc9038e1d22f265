#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// epoll, timerfd and signalfd: what the main loop waits with.
public protocol EventCalls: AnyObject {
    func epollCreate() throws(SystemError) -> Int32
    /// Watches `fd` for input; `token` comes back from `epollWait`.
    func epollAdd(_ epfd: Int32, fd: Int32, token: UInt64) throws(SystemError)
    func epollRemove(_ epfd: Int32, fd: Int32)
    /// Blocks until something is ready (timeoutMilliseconds -1: forever); returns the tokens.
    func epollWait(_ epfd: Int32, maxEvents: Int, timeoutMilliseconds: Int32) throws(SystemError) -> [UInt64]
    /// A monotonic, non-blocking timerfd.
    func timerCreate() throws(SystemError) -> Int32
    /// Arms a timer to fire after `delay` µs, then every `interval` µs (0: once); delay 0 disarms.
    func timerSet(_ fd: Int32, delay: Int64, interval: Int64) throws(SystemError)
    /// Clears a timerfd's readiness; returns how many expirations it counted.
    func drainTimer(_ fd: Int32) -> UInt64
    /// A descriptor that becomes readable when the wall clock (CLOCK_REALTIME) is set or
    /// stepped (settimeofday, an NTP step on a Pi without a real-time clock).
    func wallClockStepDescriptor() throws(SystemError) -> Int32
    /// Whether the wall clock was set since the last look; clears the readiness and keeps
    /// watching.
    func wallClockStepped(_ fd: Int32) -> Bool
    /// Blocks these signals for the process and returns a signalfd delivering them.
    func signalDescriptor(for signals: [Int32]) throws(SystemError) -> Int32
    /// Reads one pending signal from a signalfd, nil when none.
    func readSignal(_ fd: Int32) -> Int32?
    /// Monotonic clock in µs.
    func monotonicMicroseconds() -> Int64
}

public final class LinuxEvents: EventCalls {
    public init() {}

    public func epollCreate() throws(SystemError) -> Int32 {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        if fd < 0 { throw SystemError(errno: errno, attempt: "epoll_create1") }
        return fd
    }
    public func epollAdd(_ epfd: Int32, fd: Int32, token: UInt64) throws(SystemError) {
        var ev = epoll_event()
        ev.events = EPOLLIN.rawValue
        ev.data.u64 = token
        if epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 { throw SystemError(errno: errno, attempt: "epoll_ctl ADD fd \(fd)") }
    }
    public func epollRemove(_ epfd: Int32, fd: Int32) {
        var ev = epoll_event()
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev)
    }
    public func epollWait(_ epfd: Int32, maxEvents: Int, timeoutMilliseconds: Int32) throws(SystemError) -> [UInt64] {
        var events = [epoll_event](repeating: epoll_event(), count: maxEvents)
        while true {
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epfd, $0.baseAddress, Int32(maxEvents), timeoutMilliseconds) }
            if n >= 0 { return (0..<Int(n)).map { events[$0].data.u64 } }
            if errno == EINTR { continue }
            throw SystemError(errno: errno, attempt: "epoll_wait")
        }
    }
    public func timerCreate() throws(SystemError) -> Int32 {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        if fd < 0 { throw SystemError(errno: errno, attempt: "timerfd_create") }
        return fd
    }
    public func timerSet(_ fd: Int32, delay: Int64, interval: Int64) throws(SystemError) {
        func ts(_ us: Int64) -> timespec { timespec(tv_sec: Int(us / 1_000_000), tv_nsec: Int(us % 1_000_000) * 1000) }
        var spec = itimerspec(it_interval: ts(interval), it_value: ts(max(0, delay)))
        if timerfd_settime(fd, 0, &spec, nil) < 0 { throw SystemError(errno: errno, attempt: "timerfd_settime") }
    }
    public func drainTimer(_ fd: Int32) -> UInt64 {
        var count: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &count) { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n == 8 ? count : 0
    }
    public func wallClockStepDescriptor() throws(SystemError) -> Int32 {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        if fd < 0 { throw SystemError(errno: errno, attempt: "timerfd_create CLOCK_REALTIME") }
        do throws(SystemError) { try armWallClockWatch(fd) } catch { close(fd); throw error }
        return fd
    }
    /// A realtime timer a year ahead with TFD_TIMER_CANCEL_ON_SET: reading it fails with
    /// ECANCELED once the clock is set. Only the cancellation matters; should the year pass,
    /// the expiry is read and the watch armed again.
    private func armWallClockWatch(_ fd: Int32) throws(SystemError) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec()
        spec.it_value.tv_sec = now.tv_sec + 366 * 86_400
        let flags = Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
        if timerfd_settime(fd, flags, &spec, nil) < 0 { throw SystemError(errno: errno, attempt: "timerfd_settime TFD_TIMER_CANCEL_ON_SET") }
    }
    public func wallClockStepped(_ fd: Int32) -> Bool {
        var count: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &count) { Glibc.read(fd, $0.baseAddress, $0.count) }
        let stepped = n < 0 && errno == ECANCELED
        if stepped || n == 8 { try? armWallClockWatch(fd) }
        return stepped
    }
    public func signalDescriptor(for signals: [Int32]) throws(SystemError) -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        if sigprocmask(SIG_BLOCK, &set, nil) < 0 { throw SystemError(errno: errno, attempt: "sigprocmask") }
        let fd = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        if fd < 0 { throw SystemError(errno: errno, attempt: "signalfd") }
        return fd
    }
    public func readSignal(_ fd: Int32) -> Int32? {
        var info = signalfd_siginfo()
        let n = withUnsafeMutableBytes(of: &info) { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }
    public func monotonicMicroseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000
    }
}
