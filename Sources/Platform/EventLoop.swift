import Geometry
import Syscalls

/// The kiosk's one loop: a single epoll over every descriptor (DRM, libinput, udev
/// monitor, sensors, timers, signals). It blocks in epoll_wait until something is ready,
/// so at rest the process does not wake at all.
public final class EventLoop {
    public let events: any EventCalls
    private let epoll: Int32
    private var handlers: [UInt64: () -> Void] = [:]
    private var descriptors: [UInt64: Int32] = [:]
    private var nextToken: UInt64 = 1
    private var running = false
    /// Times epoll_wait returned: the wakeup count for "zero wakeups at rest".
    public private(set) var wakeups = 0

    public init(events: any EventCalls = LinuxEvents()) throws(SystemError) {
        self.events = events
        epoll = try events.epollCreate()
    }

    /// Calls `handler` whenever `fd` is readable. The handler must consume what is there.
    @discardableResult
    public func addReader(_ fd: Int32, _ handler: @escaping () -> Void) throws(SystemError) -> UInt64 {
        let token = nextToken
        nextToken += 1
        try events.epollAdd(epoll, fd: fd, token: token)
        handlers[token] = handler
        descriptors[token] = fd
        return token
    }

    public func removeReader(_ token: UInt64) {
        guard let fd = descriptors.removeValue(forKey: token) else { return }
        events.epollRemove(epoll, fd: fd)
        handlers[token] = nil
    }

    /// A timer backed by its own timerfd; disarmed until `arm` is called.
    public func addTimer(_ handler: @escaping () -> Void) throws(SystemError) -> LoopTimer {
        let fd = try events.timerCreate()
        let timer = LoopTimer(events: events, fd: fd)
        let events = self.events
        timer.token = try addReader(fd) {
            if events.drainTimer(fd) > 0 { handler() }
        }
        return timer
    }

    /// Blocks these signals now and queues them in a signalfd until `onSignals` takes them:
    /// a signal that arrives while the kiosk is still starting (fonts, the scene) waits for
    /// the loop instead of ending the process by its default action.
    public func holdSignals(_ signals: [Int32]) throws(SystemError) {
        held = (signals, try events.signalDescriptor(for: signals))
    }
    private var held: (signals: [Int32], fd: Int32)?

    /// Delivers these signals (SIGTERM, SIGINT, …) through the loop instead of interrupting it;
    /// those held since `holdSignals` are delivered too.
    public func onSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(SystemError) {
        let fd: Int32
        if let held, held.signals == signals { fd = held.fd } else { fd = try events.signalDescriptor(for: signals) }
        held = nil
        let events = self.events
        try addReader(fd) {
            while let s = events.readSignal(fd) { handler(s) }
        }
    }

    /// Calls `handler` when the wall clock is set or stepped (the monotonic clock, which
    /// times everything else, does not move then).
    public func onWallClockStep(_ handler: @escaping () -> Void) throws(SystemError) {
        let fd = try events.wallClockStepDescriptor()
        let events = self.events
        try addReader(fd) {
            if events.wallClockStepped(fd) { handler() }
        }
    }

    /// Called after the handlers of each wake-up (the frame loop draws once per wake-up).
    public var afterWake: (() -> Void)?

    /// Runs until `stop()`, or until nothing can ever wake it (a virtual kernel with no
    /// timer armed and nothing scheduled: a real epoll would sleep forever).
    public func run() throws(SystemError) {
        running = true
        while running {
            let ready = try events.epollWait(epoll, maxEvents: 16, timeoutMilliseconds: -1)
            if ready.isEmpty { break }
            wakeups += 1
            for token in ready {
                // A handler may have removed a later one in the same batch.
                if let h = handlers[token] { h() }
                if !running { break }
            }
            if running { afterWake?() }
        }
    }

    public func stop() { running = false }
}

/// A one-shot or repeating timer of an `EventLoop`.
public final class LoopTimer {
    let events: any EventCalls
    let fd: Int32
    var token: UInt64 = 0
    public private(set) var isArmed = false

    init(events: any EventCalls, fd: Int32) { self.events = events; self.fd = fd }

    /// Fires after `delay` µs (at least 1), then every `interval` µs if non-zero.
    public func arm(after delay: Int64, every interval: Int64 = 0) throws(SystemError) {
        try events.timerSet(fd, delay: max(1, delay), interval: interval)
        isArmed = true
    }
    /// Stops it firing; a failure (nil: none) leaves it armed, which costs at most a wake-up
    /// that finds nothing to do.
    @discardableResult
    public func disarm() -> SystemError? {
        do { try events.timerSet(fd, delay: 0, interval: 0) } catch { return error }
        isArmed = false
        return nil
    }
}

/// CLOCK_MONOTONIC as a `Clock`.
public final class MonotonicClock: Clock {
    let events: any EventCalls
    public init(events: any EventCalls = LinuxEvents()) { self.events = events }
    public var now: Microseconds { events.monotonicMicroseconds() }
}
