import Diagnostics
import Geometry
import Platform
import Sensors
import Syscalls
import Trace

/// Tilt, shakes and altitude from the stand's sensors to the content: each sample at its
/// own time (the content reaches it first), recorded by the tap, and the sensors' own
/// descriptors and read timer kept in the event loop.
final class MotionDelivery {
    private let loop: EventLoop
    private let clock: any Clock
    private let content: any FrameContent
    private let tap: BlackBoxTap
    private let problems: RateLimitedLog
    /// The sensors, once attached (a stand without them still plays, with arrow keys).
    private(set) var sensors: MotionSensors?
    private var timer: LoopTimer?
    private var readers: [Int32: UInt64] = [:]
    private var monitor: (any UdevMonitoring)?
    /// Brings the content to a time, the opening hours' changes on the way applied at
    /// their instants (the frame loop's `advanceContent`).
    var advanceContent: (Microseconds) -> Void

    init(loop: EventLoop, clock: any Clock, log: Log, content: any FrameContent, tap: BlackBoxTap) {
        self.loop = loop; self.clock = clock; self.content = content; self.tap = tap
        problems = RateLimitedLog(log: log, clock: clock, interval: 60_000_000)
        advanceContent = { time in content.advance(to: time) }
    }

    /// Reads `sensors` from now on. With `udev`, a sensor plugged in (or back) is looked for
    /// at once instead of on the retry schedule.
    func attach(_ sensors: MotionSensors, hotplug udev: (any UdevCalls)?) {
        self.sensors = sensors
        tap.motion = sensors
        do throws(SystemError) { timer = try loop.addTimer {} } catch {
            problems.always("motion sensors: no read timer (\(error)); they are read only when something else wakes the kiosk")
        }
        if let udev { watchHotplug(udev, sensors) }
        service()
        content.motion(gravity: sensors.worldGravity, altitude: sensors.altitude)
    }

    private func watchHotplug(_ udev: any UdevCalls, _ sensors: MotionSensors) {
        let monitor: any UdevMonitoring
        do { monitor = try udev.monitor(subsystems: ["iio", "i2c-dev"]) } catch {
            problems.always("motion sensors: plugging one in is noticed on the retry schedule only (udev: \(error))")
            return
        }
        self.monitor = monitor
        do throws(SystemError) {
            try loop.addReader(monitor.fd) {
                var changed = false
                while monitor.receive() != nil { changed = true }
                if changed { sensors.rescan() }
            }
        } catch {
            problems.always("motion sensors: plugging one in is noticed on the retry schedule only (\(error))")
        }
    }

    /// Fingers on the glass: a resting stand polls its accelerometer slowly only while none is.
    var fingersDown = false {
        didSet { sensors?.fingersDown = fingersDown }
    }

    /// An arrow key tilts the board as the accelerometer would.
    func press(_ arrow: ArrowKeyTilt.Key) { sensors?.arrowKeys?.press(arrow) }

    /// Reads what the sensors have (once per wake-up), hands it on, and keeps their
    /// descriptors and next read in the loop.
    func service() {
        guard let sensors else { return }
        // Samples are timed no earlier than the content: what the pipeline filters is what
        // the trace records.
        apply(sensors.service(notBefore: content.now), sensors)
        // Readable descriptors change on hot-plug: keep the loop's set equal to the sensors'.
        let wanted = sensors.fileDescriptors
        for (fd, token) in readers where !wanted.contains(fd) { loop.removeReader(token); readers[fd] = nil }
        for fd in wanted where readers[fd] == nil {
            do throws(SystemError) { readers[fd] = try loop.addReader(fd) {} } catch {
                problems.log("sensor-reader", "motion sensors: cannot watch descriptor \(fd) (\(error)); its samples wait for the read timer")
            }
        }
        guard let timer else { return }
        guard let due = sensors.nextDeadline else {
            if let error = timer.disarm() { problems.log("sensor-timer", "motion sensors: cannot disarm the read timer (\(error))") }
            return
        }
        do throws(SystemError) { try timer.arm(after: max(1, due - clock.now)) } catch {
            problems.log("sensor-timer", "motion sensors: cannot arm the read timer (\(error)); tried again at the next wake-up")
        }
    }

    /// The samples of one sensor read, each at its own time, as a replay applies them.
    private func apply(_ update: MotionUpdate, _ sensors: MotionSensors) {
        for (i, reading) in update.read.enumerated() {
            let v = reading.sample.vector
            let at = max(reading.sample.time, content.now)
            // Deadlines up to this sample first: a restart point they reach comes after it in
            // the black box (the pipeline has already taken it), exactly only when the
            // pipeline took nothing later and it finished no shake.
            advanceContent(at)
            tap.note(update.direct ? .gravity(x: v.x, y: v.y, z: v.z) : .accel(x: v.x, y: v.y, z: v.z), at: at)
            var shook = false
            if case .accepted(let shake) = reading.outcome, shake != nil { shook = true }
            tap.followRestartPoint(exact: i == update.read.count - 1 && !shook)
            reach(reading, altitude: sensors.altitude)
        }
        for p in update.pressures {
            let at = max(p.time, content.now)
            advanceContent(at)
            tap.followRestartPoint(exact: true)
            tap.note(.pressure(kpa: p.kilopascals), at: at)
        }
        if update.altitudeChanged { content.motion(gravity: sensors.worldGravity, altitude: sensors.altitude) }
    }

    /// One accelerometer sample reaching the content: live and replay alike.
    func sample(_ reading: MotionReading, altitude: Double?, at time: Microseconds) {
        advanceContent(time)
        reach(reading, altitude: altitude)
    }

    /// An accepted sample moves the content; a shake shakes it.
    private func reach(_ reading: MotionReading, altitude: Double?) {
        guard case .accepted(let shake) = reading.outcome else { return }
        content.motion(gravity: reading.worldGravity, altitude: altitude)
        if shake != nil { content.shake() }
    }

    func close() { sensors?.close() }
}
