import Diagnostics
import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// Everything the kiosk's configuration says about motion sensors.
public struct MotionSensorConfiguration: Sendable {
    public var accelerometer: AccelerometerChoice = .auto
    public var iioMode: IIOReadMode = .auto
    /// A trigger name for buffered mode (e.g. an hrtimer trigger made in configfs).
    public var iioTrigger: String?
    public var board: BoardMount = .normal
    public var rotation: PanelRotation = .r0
    public var iioPaths = IIOPaths()
    /// Where /dev/i2c-N live.
    public var i2cDevRoot = "/dev"
    /// Whether `.auto` probes I2C buses for the userspace-driven chips.
    public var probeI2CInAuto = true
    /// Sampling frequency to ask of buffered IIO devices (at least; the next offered rate).
    public var minimumRate = 50.0
    /// Sampling frequency to ask of polled IIO devices: higher, because st_sensors sleep
    /// 2/ODR in every sysfs read (see `IIOPolledAccelerometer`).
    public var polledDeviceRate = 200.0
    /// When set, polled IIO reads run on a reader thread stamped by this clock (it must be
    /// thread-safe: CLOCK_MONOTONIC µs), so drivers that sleep in sysfs reads (st_sensors:
    /// 2/ODR per axis) cannot stall the frame loop. The kiosk sets it; tests on a virtual
    /// clock leave it nil and read synchronously.
    public var backgroundPollingClock: (@Sendable () -> Microseconds)?
    /// Gravity low-pass time constant, seconds.
    public var gravityTimeConstant = 0.1
    public var shakeThreshold = 13.0
    public var shakeCoolDown: Microseconds = 1_000_000
    /// Identical samples for this long count as a stuck sensor; nil disables the check.
    public var stuckAfter: Microseconds? = 10_000_000
    /// Which IIO barometer to use, if any.
    public var barometer = BarometerChoice.first
    public var altitudeTimeConstant = 1.0

    /// The part that shapes tilt, shakes and altitude (what a trace header records).
    public var motion: MotionSettings {
        var m = MotionSettings()
        m.gravityTimeConstant = gravityTimeConstant
        m.shakeThreshold = shakeThreshold
        m.shakeCoolDown = shakeCoolDown
        m.stuckAfter = stuckAfter
        m.altitudeTimeConstant = altitudeTimeConstant
        return m
    }
    /// A polled accelerometer is read this often while the stand rests (no reading moved by
    /// more than `restThreshold` for `restAfter` and no finger is down): a kiosk at rest
    /// wakes a few times a second instead of a hundred. The first movement or touch
    /// brings the full rate back.
    public var restingPollInterval: Microseconds = 250_000
    public var restAfter: Microseconds = 3_000_000
    /// m/s²: above a still sensor's noise, below a visitor's smallest tilt (0.06 g).
    public var restThreshold = 0.3
    /// Rescan after a loss: first after this long, then doubling up to `maximumRetryInterval`.
    public var retryInterval: Microseconds = 1_000_000
    public var maximumRetryInterval: Microseconds = 30_000_000
    /// How many lines per kind of trouble the log may say, at most one per this interval.
    public var logInterval: Microseconds = 5_000_000

    public init() {}
}

/// What one `service` call produced.
public struct MotionUpdate: Sendable {
    /// Good samples this call, screen frame.
    public var samples: [AccelerationSample] = []
    /// Every sample read this call in order, screen frame, with what the pipeline made of
    /// it (a trace records them all; a replay applies them one by one the same way).
    public var read: [MotionReading] = []
    /// Whether `read` came from a source that sets gravity directly (keys, fixed).
    public var direct = false
    /// Shakes recognised this call (each shake once).
    public var shakes: [ShakeEvent] = []
    /// Whether the gravity vector changed (redraw/step the world).
    public var gravityChanged = false
    public var altitudeChanged = false
    /// Pressure readings this call (what a trace records).
    public var pressures: [PressureSample] = []
}

/// Which IIO pressure sensor gives altitude ([sensors] barometer).
public enum BarometerChoice: Equatable, Sendable {
    /// No barometer: no altitude.
    case none
    /// The first pressure sensor found.
    case first
    /// This one only, by name ("bmp280") or sysfs folder ("iio:device1").
    case named(String)
}
