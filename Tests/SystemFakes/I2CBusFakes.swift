#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// A chip on a fake I2C bus: 256 byte registers, read and written through SMBus transfers.
public final class RegisterMapChip {
    public enum AutoIncrement {
        /// i2c-stub: a block read always walks consecutive registers from the command byte.
        case always
        /// ST parts (LIS3DH): the sub-address MSB asks for auto-increment; the register is
        /// the low 7 bits.
        case msbOfSubAddress
    }
    public var registers = [UInt8](repeating: 0, count: 256)
    public var autoIncrement: AutoIncrement
    public var writes: [(UInt8, UInt8)] = []

    public init(autoIncrement: AutoIncrement = .always) { self.autoIncrement = autoIncrement }

    public func register(for command: UInt8) -> Int {
        autoIncrement == .msbOfSubAddress ? Int(command & 0x7F) : Int(command)
    }

    public static func lis3dh(counts: (Int16, Int16, Int16), stub: Bool) -> RegisterMapChip {
        let c = RegisterMapChip(autoIncrement: stub ? .always : .msbOfSubAddress)
        // 12-bit values left-justified in 16 bits.
        let words = [counts.0, counts.1, counts.2].map { UInt16(bitPattern: $0 << 4) }
        // As the virtual board preloads i2c-stub for the kernel driver: reg|0x80.
        let base = stub ? 0xA8 : 0x28
        c.registers[stub ? 0x8F : 0x0F] = 0x33
        for (i, w) in words.enumerated() {
            c.registers[base + 2 * i] = UInt8(w & 0xFF)
            c.registers[base + 2 * i + 1] = UInt8(w >> 8)
        }
        return c
    }
    public static func adxl345(counts: (Int16, Int16, Int16)) -> RegisterMapChip {
        let c = RegisterMapChip()
        c.registers[0x00] = 0xE5
        for (i, v) in [counts.0, counts.1, counts.2].enumerated() {
            let w = UInt16(bitPattern: v)
            c.registers[0x32 + 2 * i] = UInt8(w & 0xFF)
            c.registers[0x33 + 2 * i] = UInt8(w >> 8)
        }
        return c
    }
    public static func mpu6050(counts: (Int16, Int16, Int16)) -> RegisterMapChip {
        let c = RegisterMapChip()
        c.registers[0x75] = 0x68
        c.registers[0x6B] = 0x40  // SLEEP set at power-on
        for (i, v) in [counts.0, counts.1, counts.2].enumerated() {
            let w = UInt16(bitPattern: v)
            c.registers[0x3B + 2 * i] = UInt8(w >> 8)
            c.registers[0x3C + 2 * i] = UInt8(w & 0xFF)
        }
        return c
    }
}

/// A SystemCalls that is the real kernel for files (fake sysfs trees in temp folders), plus
/// fake /dev/i2c-N buses answering I2C_SLAVE / I2C_SMBUS ioctls from register maps (the
/// LinuxI2CBus code runs unchanged above it). Every call is recorded in `log` and failed
/// through it: `fail(.ioctl, of: "I2C_SMBUS", errno: EIO, times: .max)` is a flaky wire,
/// `fail(.readSmallFile, of: path, errno: EIO)` a sysfs attribute that cannot be read.
public final class FakeI2CSystem: SystemCalls, RecordingFake, @unchecked Sendable {
    public let real = LinuxSystem()
    public let log = SystemCallLog()
    public init() {}
    /// bus path → address → chip
    public var buses: [String: [UInt8: RegisterMapChip]] = [:]
    /// bus path → addresses a kernel driver owns (I2C_SLAVE answers EBUSY)
    public var boundAddresses: [String: Set<UInt8>] = [:]
    public var smbusTransfers = 0

    private var fakeFDs: [Int32: (bus: String, address: UInt8?)] = [:]
    private var nextFakeFD: Int32 = 10_000
    private var fdPaths: [Int32: String] = [:]

    public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        try log.enter(.open, path)
        if buses[path] != nil {
            nextFakeFD += 1
            fakeFDs[nextFakeFD] = (path, nil)
            return nextFakeFD
        }
        let fd = try real.open(path, flags: flags, mode: mode)
        fdPaths[fd] = path
        return fd
    }
    public func close(_ fd: Int32) {
        log.record(.close, fakeFDs[fd]?.bus ?? fdPaths[fd] ?? "fd \(fd)")
        if fakeFDs.removeValue(forKey: fd) != nil { return }
        fdPaths[fd] = nil
        real.close(fd)
    }
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        let name = fdPaths[fd] ?? "fd \(fd)"
        try log.enter(.read, name, attempt: "read \(name)")
        return try real.read(fd, into: buffer)
    }
    public func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        let name = fdPaths[fd] ?? "fd \(fd)"
        try log.enter(.write, name, attempt: "write \(name)")
        return try real.write(fd, from: buffer)
    }
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32 {
        try log.enter(.ioctl, what, attempt: what)
        guard var state = fakeFDs[fd] else { return try real.ioctl(fd, request, arg, what: what) }
        switch request {
        case I2CDevNumbers.I2C_SLAVE:
            let address = UInt8(UInt(bitPattern: arg))
            if boundAddresses[state.bus]?.contains(address) == true { throw SystemError(errno: EBUSY, attempt: what) }
            state.address = address
            fakeFDs[fd] = state
            return 0
        case I2CDevNumbers.I2C_SMBUS:
            smbusTransfers += 1
            guard let address = state.address, let chip = buses[state.bus]?[address] else {
                throw SystemError(errno: ENXIO, attempt: what)
            }
            // Decode struct i2c_smbus_ioctl_data by the kernel's offsets, not by our struct.
            let raw = arg!
            let readWrite = raw.load(fromByteOffset: 0, as: UInt8.self)
            let command = raw.load(fromByteOffset: 1, as: UInt8.self)
            let size = raw.load(fromByteOffset: 4, as: UInt32.self)
            let data = raw.load(fromByteOffset: 8, as: UnsafeMutablePointer<UInt8>.self)
            switch (readWrite, size) {
            case (1, 2):
                data[0] = chip.registers[chip.register(for: command)]
            case (0, 2):
                chip.registers[chip.register(for: command)] = data[0]
                chip.writes.append((command, data[0]))
            case (1, 8):
                let count = Int(data[0])
                let start = chip.register(for: command)
                let walks = chip.autoIncrement == .always || command & 0x80 != 0
                for i in 0..<count { data[1 + i] = chip.registers[(walks ? start + i : start) & 0xFF] }
            default:
                throw SystemError(errno: EOPNOTSUPP, attempt: what)
            }
            return 0
        default:
            throw SystemError(errno: ENOTTY, attempt: what)
        }
    }
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        try real.mmap(length: length, protection: protection, flags: flags, fd: fd, offset: offset)
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { real.munmap(address, length: length) }
    public func readSmallFile(_ path: String) throws(SystemError) -> String? {
        try log.enter(.readSmallFile, path, attempt: "read \(path)")
        return try real.readSmallFile(path)
    }
    /// Truncates, unlike a sysfs write (which needs no truncation): regular files stand in here.
    public func writeSmallFile(_ path: String, _ text: String) throws(SystemError) {
        try log.enter(.writeSmallFile, path, attempt: "write '\(text)' to \(path)")
        guard real.fileExists(path), let file = fopen(path, "w") else { throw SystemError(errno: ENOENT, attempt: "open \(path) for writing") }
        defer { fclose(file) }
        if fputs(text, file) < 0 { throw SystemError(errno: EIO, attempt: "write \(path)") }
    }
    public func listDirectory(_ path: String) -> [String] { log.record(.listDirectory, path); return real.listDirectory(path) }
    /// A fake bus is a character device; anything else is the real file's.
    public func kindAndSize(of fd: Int32, named name: String) throws(SystemError) -> (kind: FileKind, size: Int64) {
        try log.enter(.status, fakeFDs[fd]?.bus ?? fdPaths[fd] ?? "fd \(fd)", attempt: "fstat \(name)")
        return fakeFDs[fd] != nil ? (.characterDevice, 0) : try real.kindAndSize(of: fd, named: name)
    }
    public func fileExists(_ path: String) -> Bool { real.fileExists(path) }
}

