import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// One pressure reading in kPa.
public struct PressureSample: Equatable, Sendable {
    public var time: Microseconds
    public var kilopascals: Double
    public init(time: Microseconds, kilopascals: Double) { self.time = time; self.kilopascals = kilopascals }
}

/// An IIO pressure sensor (BMP280, BME280, …): `in_pressure_input` in kPa, or
/// (`in_pressure_raw` + offset) × scale when the driver gives raw counts.
public final class IIOBarometer {
    public let device: IIODeviceInfo
    public let pollInterval: Microseconds
    private let system: SystemCalls
    private let inputFile: String?
    private let rawFile: String?
    private let scale: Double
    private let offset: Double

    public var name: String { "IIO \(device.id) \(device.name) (pressure)" }

    public init(device: IIODeviceInfo, system: SystemCalls, pollInterval: Microseconds = 100_000) throws(IIOSetupError) {
        self.device = device
        self.system = system
        self.pollInterval = pollInterval
        let dir = device.directory
        func existing(_ names: [String]) -> String? { names.map { dir + "/" + $0 }.first { system.fileExists($0) } }
        inputFile = existing(["in_pressure_input", "in_pressure0_input"])
        rawFile = inputFile == nil ? existing(["in_pressure_raw", "in_pressure0_raw"]) : nil
        guard inputFile != nil || rawFile != nil else { throw .unsupported("\(dir): no in_pressure_input or in_pressure_raw") }
        func number(_ names: [String]) -> Double? {
            for n in names {
                if let t = (try? system.readSmallFile(dir + "/" + n)) ?? nil, let v = Double(t.trimmingASCIIWhitespace()),
                   v.isFinite { return v }
            }
            return nil
        }
        scale = number(["in_pressure_scale", "in_pressure0_scale"]) ?? 1
        offset = number(["in_pressure_offset", "in_pressure0_offset"]) ?? 0
    }

    public func read(now: Microseconds) throws(SensorReadError) -> PressureSample {
        let file = inputFile ?? rawFile!
        let text: String?
        do { text = try system.readSmallFile(file) } catch { throw SensorReadError.from(error) }
        guard let t = text else { throw .gone("\(file) vanished") }
        guard let v = Double(t.trimmingASCIIWhitespace()), v.isFinite else {
            throw .failed("\(file): '\(t.trimmingASCIIWhitespace())' is not a number")
        }
        let kPa = inputFile != nil ? v : (v + offset) * scale
        guard kPa.isFinite else { throw .failed("\(file): \(v) with scale \(scale) and offset \(offset) is no pressure") }
        return PressureSample(time: now, kilopascals: kPa)
    }
}

/// Altitude relative to where the kiosk started: 44330 × (1 − (P/P0)^0.1903) m with P0 the
/// first good reading, low-passed with time constant τ (pressure sensors are noisy at the
/// 0.1 m scale). Readings that are not finite or outside 30…120 kPa are dropped.
public struct AltitudeEstimator: Sendable {
    public var timeConstant: Double
    public private(set) var referenceKilopascals: Double?
    public private(set) var altitude: Double?
    public private(set) var dropped = 0
    private var lastTime: Microseconds?

    public init(timeConstant: Double = 1.0, referenceKilopascals: Double? = nil) {
        self.timeConstant = timeConstant
        self.referenceKilopascals = referenceKilopascals
    }

    public static func altitude(kilopascals p: Double, reference p0: Double) -> Double {
        44330 * (1 - pow(p / p0, 0.1903))
    }

    /// Feeds a reading; returns the smoothed altitude in metres (nil when dropped before
    /// any good reading).
    @discardableResult
    public mutating func add(_ s: PressureSample) -> Double? {
        guard s.kilopascals.isFinite, s.kilopascals >= 30, s.kilopascals <= 120 else {
            dropped += 1
            return altitude
        }
        let p0 = referenceKilopascals ?? s.kilopascals
        referenceKilopascals = p0
        let h = AltitudeEstimator.altitude(kilopascals: s.kilopascals, reference: p0)
        if let a = altitude, let t0 = lastTime, s.time >= t0 {
            let alpha = lowPassWeight(timeConstant: timeConstant, from: t0, to: s.time)
            altitude = alpha * a + (1 - alpha) * h
        } else {
            altitude = h
        }
        lastTime = s.time
        return altitude
    }
}
