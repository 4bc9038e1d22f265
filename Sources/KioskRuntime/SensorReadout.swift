#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Platform
import Sensors
import Syscalls

/// `motionkiosk sensors`: live readings from the accelerometer and barometer the kiosk would
/// use, a line at a time, until Ctrl-C, SIGTERM or the given seconds.
public struct SensorReadout {
    public let configuration: MotionSensorConfiguration
    public let seconds: Double?
    public let linesPerSecond: Double

    public init(configuration: MotionSensorConfiguration, seconds: Double?, linesPerSecond: Double) {
        self.configuration = configuration; self.seconds = seconds; self.linesPerSecond = linesPerSecond
    }

    public func run(system: any SystemCalls = LinuxSystem.shared, events: any EventCalls = LinuxEvents()) {
        let clock = MonotonicClock()
        // Ctrl-C and SIGTERM arrive as a readable descriptor, before the sensors start a reader
        // thread (which then inherits them blocked); without one they end the process as usual.
        let signals = try? events.signalDescriptor(for: [SIGINT, SIGTERM])
        defer { if let signals { system.close(signals) } }
        let sensors = MotionSensors(configuration: configuration, system: system, clock: clock)
        defer { sensors.close() }

        let start = clock.now
        let end = seconds.map { start + Microseconds.fromSeconds(min($0, 1e9)) }
        // At least one line a day: a tiny rate must not overflow the interval.
        let lineInterval = Microseconds(min(86_400_000_000, max(1, (1_000_000 / linesPerSecond).rounded())))
        var nextLine = start
        print("accelerometer: \(sensors.accelerometer.name)")
        print("barometer: \(sensors.barometer?.name ?? "none")")
        print("mapping: board \(sensors.mapping.board), panel rotation \(sensors.mapping.rotation)°; screen = \(sensors.mapping.matrix) × device")
        var lastSource = sensors.accelerometer.name

        while !(signals.map { events.readSignal($0) != nil } ?? false) {
            let now = clock.now
            if let end, now >= end { break }
            let update = sensors.service()
            for shake in update.shakes {
                print("SHAKE t=\(seconds3(shake.time - start)) s")
            }
            if sensors.accelerometer.name != lastSource {
                lastSource = sensors.accelerometer.name
                print("accelerometer now: \(lastSource)")
            }
            if now >= nextLine {
                nextLine = max(nextLine + lineInterval, now)
                printLine(sensors, t: now - start)
            }
            // Sleep until the sensors, the next line or the end need us, or an fd is readable.
            var deadline = nextLine
            if let d = sensors.nextDeadline { deadline = min(deadline, d) }
            if let end { deadline = min(deadline, end) }
            let timeout = max(0, min(1_000_000, deadline - clock.now))
            let fds = sensors.fileDescriptors + (signals.map { [$0] } ?? [])
            _ = try? system.waitReadable(anyOf: fds, microseconds: timeout)
        }
        let dropped = sensors.validator.dropped.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue): \($0.value)" }
        print("dropped samples: \(dropped.isEmpty ? "none" : dropped.joined(separator: ", "))")
    }

    private func printLine(_ s: MotionSensors, t: Microseconds) {
        let a = s.latest.map { "\($0.vector)" } ?? "(none yet)"
        let w = s.worldGravity
        var line = "t=\(seconds3(t)) s accel=\(a) gravity=\(s.gravity) world=(\(f3(w.x)), \(f3(w.y)))"
        if let alt = s.altitude {
            line += " altitude=\(f3(alt)) m"
            if let p = s.pressureKilopascals { line += " (\(f3(p)) kPa)" }
        }
        if s.isFallingBack { line += " [no sensor: fixed down]" }
        print(line)
    }
}
private func f3(_ v: Double) -> String {
    let r = (v * 1000).rounded() / 1000 + 0.0  // + 0.0: no "-0.0"
    return "\(r)"
}
private func seconds3(_ us: Microseconds) -> String { f3(Double(us) / 1_000_000) }
