import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// The accelerometers the kiosk drives from userspace over SMBus (no Pi overlay binds them;
/// see facts/sensors.md). Each knows its addresses, identity register, power-up writes,
/// data registers and scale.
public enum I2CAccelChip: String, CaseIterable, Sendable {
    case lis3dh, adxl345, mpu6050

    public var displayName: String {
        switch self {
        case .lis3dh: return "LIS3DH"
        case .adxl345: return "ADXL345"
        case .mpu6050: return "MPU-6050"
        }
    }
    /// Usual 7-bit addresses, the strap-default first.
    public var addresses: [UInt8] {
        switch self {
        case .lis3dh: return [0x18, 0x19]
        case .adxl345: return [0x53, 0x1D]
        case .mpu6050: return [0x68, 0x69]
        }
    }
    /// The register as sent on the wire. LIS3DH reads set bit 7 (auto-increment) on every
    /// register, as the kernel's st_accel driver does: harmless for one byte, needed for a
    /// block, and it means a test stub preloaded for the kernel driver serves us too.
    var readRegisterFlag: UInt8 { self == .lis3dh ? 0x80 : 0 }
    var idRegister: UInt8 {
        switch self {
        case .lis3dh: return 0x0F
        case .adxl345: return 0x00
        case .mpu6050: return 0x75
        }
    }
    /// WHO_AM_I values accepted (MPU-6500/9250 keep the 6050's accel registers).
    var idValues: [UInt8] {
        switch self {
        case .lis3dh: return [0x33]
        case .adxl345: return [0xE5]
        case .mpu6050: return [0x68, 0x70, 0x71]
        }
    }
    var dataRegister: UInt8 {
        switch self {
        case .lis3dh: return 0x28
        case .adxl345: return 0x32
        case .mpu6050: return 0x3B
        }
    }
    /// m/s² per count after `decode`'s alignment.
    var scale: Double {
        switch self {
        case .lis3dh: return standardGravity / 1000      // ±2 g high resolution: 1 mg per 12-bit count
        case .adxl345: return 0.0383                     // full resolution ≈ 3.9 mg/LSB, the kernel's figure
        case .mpu6050: return standardGravity / 16384    // ±2 g: 16384 LSB/g
        }
    }

    /// Six data bytes → counts per axis.
    func decode(_ b: [UInt8]) -> (Double, Double, Double) {
        func le(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(b[i]) | UInt16(b[i + 1]) << 8) }
        func be(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(b[i]) << 8 | UInt16(b[i + 1])) }
        switch self {
        case .lis3dh: return (Double(le(0) >> 4), Double(le(2) >> 4), Double(le(4) >> 4))  // 12 bits, left-justified
        case .adxl345: return (Double(le(0)), Double(le(2)), Double(le(4)))                // right-justified, sign-extended
        case .mpu6050: return (Double(be(0)), Double(be(2)), Double(be(4)))
        }
    }

    func readID(bus: I2CBus, address: UInt8) throws(SystemError) -> UInt8 {
        try bus.readByte(address: address, register: idRegister | readRegisterFlag)
    }

    /// Puts the chip in measuring mode at ±2 g, ≥ 50 Hz.
    func powerUp(bus: I2CBus, address: UInt8) throws(SystemError) {
        switch self {
        case .lis3dh:
            try bus.writeByte(address: address, register: 0x20, value: 0x57)  // 100 Hz, x/y/z on
            try bus.writeByte(address: address, register: 0x23, value: 0x88)  // BDU, ±2 g, high resolution
        case .adxl345:
            try bus.writeByte(address: address, register: 0x31, value: 0x08)  // FULL_RES, ±2 g
            try bus.writeByte(address: address, register: 0x2C, value: 0x0A)  // 100 Hz
            try bus.writeByte(address: address, register: 0x2D, value: 0x08)  // measure
        case .mpu6050:
            let power = try bus.readByte(address: address, register: 0x6B)
            try bus.writeByte(address: address, register: 0x6B, value: power & ~0x40)  // clear SLEEP
            try bus.writeByte(address: address, register: 0x1C, value: 0x00)          // ±2 g
        }
    }

    func readCounts(bus: I2CBus, address: UInt8) throws(SystemError) -> (Double, Double, Double) {
        decode(try bus.readBlock(address: address, register: dataRegister | readRegisterFlag, count: 6))
    }
}

/// A chip found on a bus by its identity register.
public struct I2CAccelProbe: Equatable, Sendable {
    public var busPath: String
    public var address: UInt8
    public var chip: I2CAccelChip
    public var description: String { "\(chip.displayName) at 0x\(hexByte(address)) on \(busPath)" }
}

/// What probing one bus found: chips that answered with their identity, and addresses a
/// kernel driver owns (EBUSY on I2C_SLAVE: the IIO path reads those).
public struct I2CBusScan: Equatable, Sendable {
    public var busPath: String
    public var found: [I2CAccelProbe] = []
    public var busy: [UInt8] = []
}

/// Looks for the known chips on one bus by their identity registers. Restrict with
/// `chips` and/or `address`.
public func probeI2CAccelerometers(bus: I2CBus, chips: [I2CAccelChip] = I2CAccelChip.allCases,
                                   address only: UInt8? = nil) -> I2CBusScan {
    var scan = I2CBusScan(busPath: bus.path)
    for chip in chips {
        for address in (only.map { [$0] } ?? chip.addresses)
        where !scan.found.contains(where: { $0.address == address }) && !scan.busy.contains(address) {
            do {
                let id = try chip.readID(bus: bus, address: address)
                if chip.idValues.contains(id) { scan.found.append(I2CAccelProbe(busPath: bus.path, address: address, chip: chip)) }
            } catch {
                if error.errno == EBUSY { scan.busy.append(address) }
            }
        }
    }
    return scan
}

/// A userspace-driven accelerometer: SMBus block reads of the six data bytes each poll.
public final class I2CAccelerometer: AccelerationSource {
    public var kind: AccelerationSourceKind { .userspaceI2C(probe) }
    public let probe: I2CAccelProbe
    public let cadence: SampleCadence
    private let bus: I2CBus
    private var closed = false

    public var name: String { "I2C \(probe.busPath) 0x\(hexByte(probe.address)) \(probe.chip.displayName) (userspace)" }

    /// Takes ownership of `bus`. Verifies the identity register and powers the chip up.
    public init(bus: I2CBus, chip: I2CAccelChip, address: UInt8, pollRate: Double = 100) throws(SensorReadError) {
        self.bus = bus
        probe = I2CAccelProbe(busPath: bus.path, address: address, chip: chip)
        cadence = .poll(Microseconds((1_000_000 / pollRate).rounded()))
        let id: UInt8
        do { id = try chip.readID(bus: bus, address: address) } catch { throw SensorReadError.from(error) }
        guard chip.idValues.contains(id) else {
            throw .failed("\(bus.path) 0x\(hexByte(address)): identity register 0x\(hexByte(chip.idRegister)) reads 0x\(hexByte(id)), not \(chip.displayName)")
        }
        do { try chip.powerUp(bus: bus, address: address) } catch { throw SensorReadError.from(error) }
    }

    public func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        if closed { throw .gone("\(name) closed") }
        let c: (Double, Double, Double)
        do { c = try probe.chip.readCounts(bus: bus, address: probe.address) } catch { throw SensorReadError.from(error) }
        let s = probe.chip.scale
        samples.append(AccelerationSample(time: now, vector: Vec3(c.0 * s, c.1 * s, c.2 * s)))
    }

    public func close() {
        if closed { return }
        closed = true
        bus.close()
    }
}
