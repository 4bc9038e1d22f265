// `motionkiosk sensors`: live readings from the accelerometer and barometer the kiosk would
// use, for installers checking a stand's mounting ("tilt it left: does x go negative?").
import CommandLineParser
import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Sensors
import Syscalls

func sensors(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    var config = MotionSensorConfiguration()
    let seconds: Double?, linesPerSecond: Double
    do throws(CommandLineError) {
        let devRoot = try c.nonEmpty("dev-root") ?? "/dev"
        if let file = try c.nonEmpty("replay") {
            let text: String?
            do { text = try LinuxSystem.shared.readSmallFile(file) } catch { throw CommandLineError("--replay \(file): \(error)") }
            guard let t = text else { throw CommandLineError("--replay \(file): no such file") }
            do { config.accelerometer = .replay(try ReplayedAccelerometer.parse(t, source: file), loops: false) } catch {
                throw CommandLineError("\(error)")
            }
        } else {
            let text = c.string("accelerometer") ?? "auto"
            guard let choice = AccelerometerChoice(parsing: text, devRoot: devRoot) else {
                throw CommandLineError("--accelerometer \(echoed(text)): expected auto, iio:…, i2c:…, keys or fixed")
            }
            config.accelerometer = choice
        }
        let mode = try c.choice("iio-mode", ["auto", "buffered", "polled"]) ?? "auto"
        config.iioMode = mode == "buffered" ? .buffered : mode == "polled" ? .polled : .auto
        config.iioTrigger = try c.nonEmpty("trigger")
        let mount = c.string("mount") ?? "normal"
        guard let board = BoardMount(mount) else { throw CommandLineError("--mount \(echoed(mount)): not a known orientation or an invertible 3×3 matrix") }
        config.board = board
        let degrees = try c.integer("rotation", in: 0...270) ?? 0
        guard let rotation = PanelRotation(rawValue: degrees) else { throw CommandLineError("--rotation must be 0, 90, 180 or 270") }
        config.rotation = rotation
        config.iioPaths = IIOPaths(sysfsRoot: try c.nonEmpty("sysfs-root") ?? "/sys/bus/iio/devices", devRoot: devRoot)
        config.i2cDevRoot = devRoot
        config.minimumRate = try c.number("rate", in: 0.1...100_000) ?? 50
        config.gravityTimeConstant = try c.number("time-constant", in: 0...3600) ?? 0.1
        let stuck = try c.number("stuck-seconds", in: 0...86_400) ?? 10
        config.stuckAfter = stuck > 0 ? Microseconds.fromSeconds(stuck) : nil
        config.barometer = c.flag("no-barometer") ? .none : .first
        seconds = try c.number("seconds", in: 0...31_536_000)
        linesPerSecond = try c.number("lines-per-second", in: 0.001...1000) ?? 10
    } catch { throw KioskError(error.message) }
    config.backgroundPollingClock = { monotonicMicroseconds() }
    SensorReadout(configuration: config, seconds: seconds, linesPerSecond: linesPerSecond).run()
    return 0
}
