import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// One accelerometer reading: specific force in m/s² and when it was taken (monotonic µs).
/// Sources deliver it in their device frame with the IIO mount matrix already applied;
/// `AxisMapping` takes it on to the screen frame.
public struct AccelerationSample: Hashable, Sendable {
    public var time: Microseconds
    public var vector: Vec3
    public init(time: Microseconds, vector: Vec3) { self.time = time; self.vector = vector }
}

/// How the main loop should service a source.
public enum SampleCadence: Equatable, Sendable {
    /// Readable fd (buffered IIO): watch it in epoll, read when it wakes.
    case fileDescriptor(Int32)
    /// Read every so many µs (polled sysfs, userspace I2C, replay).
    case poll(Microseconds)
    /// Changes only when told (arrow keys, fixed gravity): no wake-ups of its own.
    case onChange
}

/// Why a read produced no sample.
public enum SensorReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device went away (ENODEV, ENOENT, ENXIO): the supervisor falls back and rescans.
    case gone(String)
    /// A transient failure (EIO, EAGAIN storms, garbage text): the sample is dropped.
    case failed(String)

    public var description: String {
        switch self {
        case .gone(let s): return "gone: \(s)"
        case .failed(let s): return s
        }
    }

    /// Sorts a syscall failure: errors that mean "the device is no more" versus the rest.
    static func from(_ e: SystemError) -> SensorReadError {
        switch e.errno {
        case ENODEV, ENOENT, ENXIO, ESHUTDOWN: return .gone(e.description)
        default: return .failed(e.description)
        }
    }
}

/// Something that yields accelerometer samples: IIO (polled or buffered), userspace I2C,
/// replay, arrow keys, fixed gravity.
public protocol AccelerationSource: AnyObject {
    /// "IIO iio:device0 lis3dh (buffered)", "I2C /dev/i2c-1 0x18 LIS3DH", …
    var name: String { get }
    var cadence: SampleCadence { get }
    /// Appends whatever samples are ready at `now`. Throws when a read fails; what was
    /// appended before the failure stays.
    func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError)
    /// Releases fds and stops buffered capture. Idempotent.
    func close()
    /// Device frame for real sensors; screen frame for synthetic sources.
    var frame: SampleFrame { get }
    /// What it is, for the inventory and the supervisor (no dynamic casts: Embedded Swift
    /// has none).
    var kind: AccelerationSourceKind { get }
    /// How many failed reads the last `.failed` thrown stands for: one, but for a reader
    /// thread's drain, which reports all those since the previous drain at once.
    var failuresInLastError: Int { get }
}

public extension AccelerationSource {
    var failuresInLastError: Int { 1 }
}

/// The kinds of `AccelerationSource`.
public enum AccelerationSourceKind: Equatable, Sendable {
    case iioPolled, iioBuffered
    case userspaceI2C(I2CAccelProbe)
    case fixedDown, arrowKeys, replay

    /// A sensor on the board (not a stand-in).
    public var isDevice: Bool {
        switch self {
        case .iioPolled, .iioBuffered, .userspaceI2C: return true
        case .fixedDown, .arrowKeys, .replay: return false
        }
    }
}

/// Which frame a source's vectors are in.
public enum SampleFrame: Sendable {
    /// The sensor's device frame (IIO mount matrix applied): `AxisMapping` still applies.
    case device
    /// Already the portrait screen frame (replay, arrow keys, fixed gravity).
    case screen
}

public extension AccelerationSource {
    var frame: SampleFrame { .device }
}
