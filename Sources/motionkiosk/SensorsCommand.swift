// `motionkiosk sensors`: live readings from the accelerometer and barometer the kiosk would
// use, for installers checking a stand's mounting ("tilt it left: does x go negative?").
import ArgumentParser
import Geometry
import Platform
import Sensors
import KioskRuntime
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

struct SensorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensors",
        abstract: "Print live tilt, gravity, shake and altitude readings until Ctrl-C.",
        discussion: """
        Lines show the screen-frame acceleration (m/s²; x → screen right, y → screen top, z out \
        of the glass), the low-passed gravity, the dynamics world's gravity (UIKit units, y \
        down) and the altitude relative to the start. Shakes print as they happen.
        """)

    @Option(help: "auto, iio:deviceN, iio:NAME, i2c:BUS[:ADDR][:CHIP] (chip lis3dh, adxl345, mpu6050), keys, fixed.")
    var accelerometer = "auto"
    @Option(help: "Replay 'seconds ax ay az' lines (screen frame) instead of a sensor.")
    var replay: String?
    @Option(help: "IIO read mode: auto, buffered, polled.")
    var iioMode = "auto"
    @Option(help: "IIO trigger for buffered mode (e.g. an hrtimer trigger).")
    var trigger: String?
    @Option(help: "Board mount: \(BoardMount.names.joined(separator: ", ")), or a matrix 'a, b, c; d, e, f; g, h, i'.")
    var mount = "normal"
    @Option(help: "Panel rotation in degrees (0, 90, 180, 270): how the portrait picture is turned onto the panel.")
    var rotation = 0
    @Option(help: "IIO sysfs root.")
    var sysfsRoot = "/sys/bus/iio/devices"
    @Option(help: "Where iio:deviceN and i2c-N device nodes are.")
    var devRoot = "/dev"
    @Option(help: "Lowest sampling rate to ask the sensor for, Hz.")
    var rate = 50.0
    @Option(help: "Gravity low-pass time constant, seconds.")
    var timeConstant = 0.1
    @Option(help: "Identical readings for this many seconds count as a stuck sensor (0: never).")
    var stuckSeconds = 10.0
    @Option(help: "Stop after this many seconds (default: run until Ctrl-C).")
    var seconds: Double?
    @Option(help: "Reading lines per second.")
    var linesPerSecond = 10.0
    @Flag(help: "Do not look for a barometer.")
    var noBarometer = false

    func validate() throws {
        guard PanelRotation(rawValue: rotation) != nil else { throw ValidationError("--rotation must be 0, 90, 180 or 270") }
        guard BoardMount(mount) != nil else { throw ValidationError("--mount '\(mount)': not a known orientation or an invertible 3×3 matrix") }
        guard IIOReadMode(rawValue: iioMode) != nil else { throw ValidationError("--iio-mode must be auto, buffered or polled") }
        guard replay != nil || AccelerometerChoice(parsing: accelerometer, devRoot: devRoot) != nil else {
            throw ValidationError("--accelerometer '\(accelerometer)': expected auto, iio:…, i2c:…, keys or fixed")
        }
        guard linesPerSecond > 0, rate > 0, timeConstant >= 0, stuckSeconds >= 0 else {
            throw ValidationError("--lines-per-second and --rate must be > 0, --time-constant and --stuck-seconds ≥ 0")
        }
    }

    func motionConfiguration() throws -> MotionSensorConfiguration {
        var c = MotionSensorConfiguration()
        if let file = replay {
            let text: String?
            do { text = try LinuxSystem.shared.readSmallFile(file) } catch { throw ValidationError("\(error)") }
            guard let t = text else { throw ValidationError("--replay \(file): no such file") }
            do { c.accelerometer = .replay(try ReplayedAccelerometer.parse(t, source: file), loops: false) } catch {
                throw ValidationError("\(error)")
            }
        } else {
            c.accelerometer = AccelerometerChoice(parsing: accelerometer, devRoot: devRoot)!
        }
        c.iioMode = IIOReadMode(rawValue: iioMode)!
        c.iioTrigger = trigger
        c.board = BoardMount(mount)!
        c.rotation = PanelRotation(rawValue: rotation)!
        c.iioPaths = IIOPaths(sysfsRoot: sysfsRoot, devRoot: devRoot)
        c.i2cDevRoot = devRoot
        c.minimumRate = rate
        c.gravityTimeConstant = timeConstant
        c.stuckAfter = stuckSeconds > 0 ? Microseconds.fromSeconds(stuckSeconds) : nil
        c.barometer = !noBarometer
        return c
    }

    func run() throws {
        var config = try motionConfiguration()
        config.backgroundPollingClock = { monotonicMicroseconds() }
        SensorReadout(configuration: config, seconds: seconds, linesPerSecond: linesPerSecond).run()
    }
}
