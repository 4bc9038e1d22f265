import Diagnostics
import Geometry
import Platform
import Syscalls

/// The timer that wakes the frame loop for its next frame, flip timeout, content deadline or
/// opening-hours change. A timer that cannot be armed would let the stand sleep through that
/// moment (an opening, a closing, a frame), so a failed arm is said (once a minute at most,
/// with the count) and tried once more at once; every later wake-up arms it again.
final class WakeAlarm {
    private let timer: LoopTimer
    private let clock: any Clock
    private let log: Log
    /// Times arming failed since the start, and when the log last said so.
    private(set) var failures = 0
    private var failureToldAt: Microseconds?
    private var disarmFailureToldAt: Microseconds?
    static let tellEvery: Microseconds = 60_000_000

    init(loop: EventLoop, clock: any Clock, log: Log) throws(SystemError) {
        timer = try loop.addTimer {}
        self.clock = clock
        self.log = log
    }

    /// Wakes the loop `delay` µs from now (at least 1).
    func arm(after delay: Microseconds) {
        arm(at: clock.now + max(1, delay))
    }

    /// Wakes the loop at `time` (monotonic µs; at once if it has passed).
    func arm(at time: Microseconds) {
        let delay = max(1, time - clock.now)
        do throws(SystemError) {
            try timer.arm(after: delay)
        } catch {
            failures += 1
            tell(error)
            // One more try at once: a fault of the moment must not cost a deadline.
            do throws(SystemError) { try timer.arm(after: delay) } catch { failures += 1 }
        }
    }

    /// Nothing is due: the loop sleeps until something else wakes it.
    func disarm() {
        guard let error = timer.disarm() else { return }
        // Armed still, it wakes the loop once for nothing: said, not retried.
        let now = clock.now
        if let told = disarmFailureToldAt, now - told < WakeAlarm.tellEvery { return }
        disarmFailureToldAt = now
        log.warning("wake-up timer: cannot disarm it (\(error)); the loop may wake once for nothing")
    }

    private func tell(_ error: SystemError) {
        let now = clock.now
        if let told = failureToldAt, now - told < WakeAlarm.tellEvery { return }
        failureToldAt = now
        log.error("wake-up timer: \(error) (\(failures) failed since start); the next opening, closing or frame may be late")
    }
}
