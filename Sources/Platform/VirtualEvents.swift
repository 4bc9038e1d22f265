import Geometry
import Syscalls

/// The frame loop's kernel on a virtual clock: what `replay` and the runtime tests run on.
/// Timers fire at their virtual deadlines; descriptors become readable when told to (now or
/// at a virtual time); the clock jumps straight to the next thing that happens, so an idle
/// gap costs nothing. When nothing can ever happen again, `epollWait` returns no tokens and
/// the `EventLoop` ends: that is "zero wakeups at rest", observable.
public final class VirtualEvents: EventCalls {
    public private(set) var now: Microseconds
    private var nextDescriptor: Int32 = 1_000
    private var watched: [Int32: UInt64] = [:]
    private var timers: [Int32: (due: Microseconds?, interval: Int64)] = [:]
    private var readable: Set<Int32> = []
    /// Descriptors that become readable at a time, earliest first.
    private var scheduled: [(time: Microseconds, fd: Int32)] = []
    private var signalFd: Int32?
    private var wallClockFds: Set<Int32> = []
    private var pendingSignals: [Int32] = []
    /// Times `epollWait` was called and returned something.
    public private(set) var waits = 0

    public init(start: Microseconds = 0) { now = start }

    /// A descriptor of a virtual device (a trace, a fake touchscreen, a fake flip queue).
    public func makeDescriptor() -> Int32 {
        nextDescriptor += 1
        return nextDescriptor
    }

    /// Makes `fd` readable now (until `consumed`).
    public func makeReadable(_ fd: Int32) { readable.insert(fd) }
    /// `fd` has nothing more to read.
    public func consumed(_ fd: Int32) { readable.remove(fd) }
    /// Makes `fd` readable at `time` (now if it has passed).
    public func makeReadable(_ fd: Int32, at time: Microseconds) {
        if time <= now { readable.insert(fd); return }
        let i = scheduled.firstIndex { $0.time > time } ?? scheduled.count
        scheduled.insert((time, fd), at: i)
    }
    /// A signal arrives (SIGTERM from systemd, say): the signal descriptor becomes readable.
    public func deliver(signal: Int32) {
        pendingSignals.append(signal)
        if let signalFd { readable.insert(signalFd) }
    }

    /// The wall clock is set (an NTP step) at `time`: every wall-clock watch becomes
    /// readable then.
    public func stepWallClock(at time: Microseconds) {
        for fd in wallClockFds { makeReadable(fd, at: time) }
    }

    /// While set, arming or disarming a timer fails with this errno (a fault to test with).
    public var timerSetErrno: Int32?

    /// Whether the loop watches `fd`.
    public func isWatched(_ fd: Int32) -> Bool { watched[fd] != nil }

    /// How many timers are armed (a loop at rest has none, or only far deadlines).
    public var armedTimers: Int { timers.values.filter { $0.due != nil }.count }

    // MARK: EventCalls

    public func epollCreate() throws(SystemError) -> Int32 { makeDescriptor() }
    public func epollAdd(_ epfd: Int32, fd: Int32, token: UInt64) throws(SystemError) { watched[fd] = token }
    public func epollRemove(_ epfd: Int32, fd: Int32) { watched[fd] = nil }

    public func epollWait(_ epfd: Int32, maxEvents: Int, timeoutMilliseconds: Int32) throws(SystemError) -> [UInt64] {
        while true {
            while let first = scheduled.first, first.time <= now {
                scheduled.removeFirst()
                readable.insert(first.fd)
            }
            var ready: [(fd: Int32, token: UInt64)] = []
            for (fd, token) in watched {
                if readable.contains(fd) { ready.append((fd, token)) }
                else if let due = timers[fd]?.due, due <= now { ready.append((fd, token)) }
            }
            if !ready.isEmpty {
                waits += 1
                // Registration order: the order a real epoll reports is unspecified, a
                // replay's must not be.
                ready.sort { $0.token < $1.token }
                return ready.prefix(maxEvents).map { $0.token }
            }
            var next: Microseconds?
            for (fd, _) in watched { if let due = timers[fd]?.due { next = min(next ?? due, due) } }
            if let s = scheduled.first(where: { watched[$0.fd] != nil }) { next = min(next ?? s.time, s.time) }
            guard let next else { return [] }
            now = max(now, next)
        }
    }

    public func timerCreate() throws(SystemError) -> Int32 {
        let fd = makeDescriptor()
        timers[fd] = (nil, 0)
        return fd
    }

    public func timerSet(_ fd: Int32, delay: Int64, interval: Int64) throws(SystemError) {
        if let timerSetErrno { throw SystemError(errno: timerSetErrno, attempt: "timerfd_settime") }
        timers[fd] = (delay > 0 ? now + delay : nil, delay > 0 ? interval : 0)
    }

    public func drainTimer(_ fd: Int32) -> UInt64 {
        guard let timer = timers[fd], let due = timer.due, due <= now else { return 0 }
        if timer.interval > 0 {
            let periods = (now - due) / timer.interval + 1
            timers[fd] = (due + periods * timer.interval, timer.interval)
            return UInt64(periods)
        }
        timers[fd] = (nil, 0)
        return 1
    }

    public func wallClockStepDescriptor() throws(SystemError) -> Int32 {
        let fd = makeDescriptor()
        wallClockFds.insert(fd)
        return fd
    }

    public func wallClockStepped(_ fd: Int32) -> Bool {
        let stepped = readable.contains(fd)
        readable.remove(fd)
        return stepped
    }

    public func signalDescriptor(for signals: [Int32]) throws(SystemError) -> Int32 {
        let fd = makeDescriptor()
        signalFd = fd
        return fd
    }

    public func readSignal(_ fd: Int32) -> Int32? {
        guard !pendingSignals.isEmpty else { readable.remove(fd); return nil }
        return pendingSignals.removeFirst()
    }

    public func monotonicMicroseconds() -> Int64 { now }
}
