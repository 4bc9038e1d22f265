import Diagnostics
import Geometry
import Syscalls

/// Where IIO lives; injectable so tests build fake trees in a temporary folder.
public struct IIOPaths: Sendable, Equatable {
    /// "/sys/bus/iio/devices"
    public var sysfsRoot: String
    /// "/dev": where iio:deviceN character devices are.
    public var devRoot: String
    public init(sysfsRoot: String = "/sys/bus/iio/devices", devRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot; self.devRoot = devRoot
    }
}

/// A sampling-frequency menu from `sampling_frequency_available`: either a list
/// ("1 10 25 50 100 200 400") or a range "[min step max]".
public enum FrequencyChoices: Equatable, Sendable {
    case list([Double])
    case range(min: Double, step: Double, max: Double)

    /// Nil unless every number is a sampling frequency (see `samplingFrequency(_:)`): a
    /// driver that offers "inf" or "1e300" offers nothing the kiosk can use.
    public init?(_ text: String) {
        let t = text.trimmingASCIIWhitespace()
        if t.hasPrefix("[") && t.hasSuffix("]") {
            let fields = t.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 3, let lo = samplingFrequency(fields[0]), let hi = samplingFrequency(fields[2]),
                  let step = Double(fields[1]), step >= 0, step <= hi, lo <= hi else { return nil }
            self = .range(min: lo, step: step, max: hi)
        } else {
            let parts = t.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            let values = parts.compactMap { samplingFrequency($0) }
            guard !values.isEmpty, values.count == parts.count else { return nil }
            self = .list(values.sorted())
        }
    }

    /// The lowest offered rate ≥ `target`, or the highest offered when none reaches it.
    public func choose(atLeast target: Double) -> Double {
        switch self {
        case .list(let values):
            return values.first { $0 >= target - 1e-9 } ?? values.last!
        case .range(let lo, let step, let hi):
            if target <= lo { return lo }
            if target >= hi { return hi }
            if step <= 0 { return target }
            let steps = ((target - lo) / step - 1e-9).rounded(.up)
            return min(hi, lo + steps * step)
        }
    }
}

/// One IIO device as sysfs describes it: which accel/pressure channels it has, how to turn
/// raw counts into SI units, its mount matrix and sampling frequency.
public struct IIODeviceInfo: Sendable, Equatable {
    /// "iio:device0"
    public var id: String
    /// Content of `name`: "lis3dh", "bmp280", …
    public var name: String
    /// Full sysfs directory.
    public var directory: String
    public var hasAccel: Bool
    public var hasPressure: Bool
    public var hasBuffer: Bool

    public var description: String { "\(id) \(name)" }

    /// Reads what discovery needs; nil when `directory` is not an IIO device.
    public static func read(id: String, paths: IIOPaths, system: SystemCalls) -> IIODeviceInfo? {
        let dir = paths.sysfsRoot + "/" + id
        let files = system.listDirectory(dir)
        if files.isEmpty { return nil }
        let set = Set(files)
        let name = ((try? system.readSmallFile(dir + "/name")) ?? nil)?.trimmingASCIIWhitespace() ?? id
        let accel = ["x", "y", "z"].allSatisfy { set.contains("in_accel_\($0)_raw") || set.contains("in_accel_\($0)_input") }
        let pressure = set.contains("in_pressure_input") || set.contains("in_pressure_raw")
            || set.contains("in_pressure0_input") || set.contains("in_pressure0_raw")
        let buffer = set.contains("scan_elements") && set.contains("buffer")
        return IIODeviceInfo(id: id, name: name, directory: dir, hasAccel: accel, hasPressure: pressure, hasBuffer: buffer)
    }

    /// Every iio:deviceN under the root, in number order.
    public static func enumerate(paths: IIOPaths, system: SystemCalls) -> [IIODeviceInfo] {
        system.listDirectory(paths.sysfsRoot)
            .filter { $0.hasPrefix("iio:device") }
            .sorted { (Int($0.dropFirst(10)) ?? 0) < (Int($1.dropFirst(10)) ?? 0) }
            .compactMap { read(id: $0, paths: paths, system: system) }
    }
}

/// Turns raw counts of the three accel axes into m/s² in the device frame: per axis
/// (raw + offset) × scale, then the IIO mount matrix.
public struct IIOAccelCalibration: Sendable, Equatable {
    public var scale: Vec3
    public var offset: Vec3
    public var mountMatrix: Matrix3

    public init(scale: Vec3, offset: Vec3 = .zero, mountMatrix: Matrix3 = .identity) {
        self.scale = scale; self.offset = offset; self.mountMatrix = mountMatrix
    }

    /// What a technician should hear about, though the sensor still works: a scale of 0,
    /// a mount matrix that is not a turn or mirror.
    public var doubts: [String] = []

    @inlinable public func apply(rawX: Double, rawY: Double, rawZ: Double) -> Vec3 {
        mountMatrix * Vec3((rawX + offset.x) * scale.x, (rawY + offset.y) * scale.y, (rawZ + offset.z) * scale.z)
    }

    /// Reads scale (per axis, else shared `in_accel_scale`, else 1 for `_input` channels),
    /// offset (absent = 0) and mount matrix: `in_accel_mount_matrix` (shared by type),
    /// `in_mount_matrix` (by direction: bmc150, inv_mpu6050) or `mount_matrix` (by all:
    /// st_accel), the most specific first.
    static func read(directory dir: String, system: SystemCalls) throws(IIOSetupError) -> IIOAccelCalibration {
        func number(_ file: String) throws(IIOSetupError) -> Double? {
            let text: String?
            do { text = try system.readSmallFile(dir + "/" + file) } catch { throw .read(error.description) }
            guard let t = text else { return nil }
            guard let v = Double(t.trimmingASCIIWhitespace()), v.isFinite else {
                throw .malformed("\(dir)/\(file): '\(t.trimmingASCIIWhitespace())' is not a number")
            }
            return v
        }
        let sharedScale = try number("in_accel_scale")
        let sharedOffset = try number("in_accel_offset") ?? 0
        var scale = [Double](), offset = [Double]()
        for axis in ["x", "y", "z"] {
            let hasRaw = system.fileExists(dir + "/in_accel_\(axis)_raw")
            guard let s = try number("in_accel_\(axis)_scale") ?? sharedScale ?? (hasRaw ? nil : 1) else {
                throw .malformed("\(dir): in_accel_\(axis)_raw without in_accel_scale or in_accel_\(axis)_scale")
            }
            scale.append(s)
            offset.append(try number("in_accel_\(axis)_offset") ?? sharedOffset)
        }
        var mount = Matrix3.identity
        for file in ["in_accel_mount_matrix", "in_mount_matrix", "mount_matrix"] {
            let text: String?
            do { text = try system.readSmallFile(dir + "/" + file) } catch { throw .read(error.description) }
            if let t = text {
                guard let m = Matrix3(iioText: t) else {
                    throw .malformed("\(dir)/\(file): '\(t.trimmingASCIIWhitespace())' is not 'a, b, c; d, e, f; g, h, i'")
                }
                mount = m
                break
            }
        }
        var calibration = IIOAccelCalibration(scale: Vec3(scale[0], scale[1], scale[2]), offset: Vec3(offset[0], offset[1], offset[2]),
                                              mountMatrix: mount)
        for (i, axis) in ["x", "y", "z"].enumerated() where scale[i] == 0 {
            let file = system.fileExists(dir + "/in_accel_\(axis)_scale") ? "in_accel_\(axis)_scale" : "in_accel_scale"
            calibration.doubts.append("\(dir)/\(file) is 0: the \(axis) axis will always read 0 (no tilt along it)")
        }
        if !mount.isRotationOrMirror {
            calibration.doubts.append("\(dir): the mount matrix \(mount) is not a turn or mirror (it scales or shears): tilt will be distorted")
        }
        return calibration
    }
}

/// Why an IIO device could not be set up (the supervisor logs it and tries the next way).
public enum IIOSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    case read(String)
    case malformed(String)
    case unsupported(String)
    public var description: String {
        switch self {
        case .read(let s), .malformed(let s), .unsupported(let s): return s
        }
    }
}

/// The sampling frequencies the kiosk believes of a sensor, in Hz: no accelerometer or
/// barometer samples at a megahertz or once in a hundred seconds, and numbers beyond
/// would overflow the periods and counts they feed.
let samplingFrequencies = 0.01...1_000_000.0

/// A sampling frequency read from sysfs, within `samplingFrequencies`; nil for anything
/// else ("inf", "nan", "1e300", "1e-300", "-5", text).
func samplingFrequency<S: StringProtocol>(_ text: S) -> Double? {
    guard let v = Double(String(text).trimmingASCIIWhitespace()), samplingFrequencies.contains(v) else { return nil }
    return v
}

/// Raises the device's sampling frequency to at least `target` Hz where the driver offers
/// it; returns the frequency in effect (nil when the device has no such attribute).
@discardableResult
func raiseSamplingFrequency(directory dir: String, target: Double, system: SystemCalls,
                            log: RateLimitedLog?) -> Double? {
    for prefix in ["", "in_accel_"] {
        let file = dir + "/" + prefix + "sampling_frequency"
        guard let text = (try? system.readSmallFile(file)) ?? nil else { continue }
        guard let current = samplingFrequency(text) else {
            log?.log("\(dir) sampling_frequency", "\(file) reads '\(text.trimmingASCIIWhitespace())', not a sampling frequency; leaving it alone")
            return nil
        }
        if current >= target - 1e-9 { return current }
        let availableText = ((try? system.readSmallFile(file + "_available")) ?? nil)
            ?? ((try? system.readSmallFile(dir + "/sampling_frequency_available")) ?? nil)
        let wanted: Double
        if let t = availableText, let choices = FrequencyChoices(t) {
            wanted = choices.choose(atLeast: target)
        } else {
            wanted = target
        }
        if wanted <= current { return current }
        do {
            try system.writeSmallFile(file, formatFrequency(wanted))
        } catch {
            log?.log("\(dir) sampling_frequency", "\(error); staying at \(formatFrequency(current)) Hz")
            return current
        }
        let after = ((try? system.readSmallFile(file)) ?? nil).flatMap { samplingFrequency($0) }
        return after ?? wanted
    }
    return nil
}

func formatFrequency(_ f: Double) -> String {
    f == f.rounded() && abs(f) <= samplingFrequencies.upperBound ? String(Int64(f)) : fixed(f, 6)
}
