import Diagnostics
import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// Which accelerometer to use.
public enum AccelerometerChoice: Equatable, Sendable, CustomStringConvertible {
    /// IIO (buffered, else polled), then userspace I2C on every bus, then fixed down gravity.
    case auto
    /// One IIO device, by id ("iio:device1") or by `name` ("lis3dh").
    case iio(String)
    /// Userspace SMBus on one bus; chip and address probed when not given.
    case i2c(bus: String, chip: I2CAccelChip?, address: UInt8?)
    case arrowKeys
    case fixedDown
    /// Samples in the screen frame, replayed against the clock.
    case replay([AccelerationSample], loops: Bool)

    /// Parses "auto", "iio:device0", "iio:lis3dh", "i2c:/dev/i2c-1", "i2c:1", "i2c:1:0x18",
    /// "i2c:/dev/i2c-1:0x18:lis3dh", "keys", "fixed". (Replay needs the samples: the caller
    /// reads the file.)
    public init?(parsing text: String, devRoot: String = "/dev") {
        let t = text.trimmingASCIIWhitespace()
        switch t.lowercased() {
        case "auto": self = .auto; return
        case "keys", "arrow-keys", "arrows": self = .arrowKeys; return
        case "fixed", "fixed-down", "none": self = .fixedDown; return
        default: break
        }
        if t.hasPrefix("iio:") {
            let rest = String(t.dropFirst(4))
            guard !rest.isEmpty else { return nil }
            self = .iio(rest.hasPrefix("device") ? "iio:" + rest : rest)
            return
        }
        if t.hasPrefix("i2c:") {
            let parts = t.dropFirst(4).split(separator: ":").map(String.init)
            guard (1...3).contains(parts.count) else { return nil }
            let bus = parts[0].hasPrefix("/") ? parts[0] : (Int(parts[0]) != nil ? "\(devRoot)/i2c-\(parts[0])" : "\(devRoot)/\(parts[0])")
            var address: UInt8?
            var chip: I2CAccelChip?
            for p in parts.dropFirst() {
                if let c = I2CAccelChip(rawValue: p.lowercased().replacingDash()) { chip = c; continue }
                let digits = p.lowercased().hasPrefix("0x") ? String(p.dropFirst(2)) : p
                guard let a = UInt8(digits, radix: 16), a < 0x80 else { return nil }
                address = a
            }
            self = .i2c(bus: bus, chip: chip, address: address)
            return
        }
        return nil
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .iio(let n): return n.hasPrefix("iio:") ? n : "iio:\(n)"
        case .i2c(let bus, let chip, let address):
            return "i2c:\(bus)" + (address.map { ":0x\(hexByte($0))" } ?? "") + (chip.map { ":\($0.rawValue)" } ?? "")
        case .arrowKeys: return "keys"
        case .fixedDown: return "fixed"
        case .replay(let s, _): return "replay (\(s.count) samples)"
        }
    }
}

public enum IIOReadMode: String, Sendable, CaseIterable {
    /// Buffered when the device has a buffer and a trigger, else polled.
    case auto, buffered, polled
}

extension String {
    func replacingDash() -> String { String(self.filter { $0 != "-" }) }
}
