#if canImport(Glibc)
import Glibc
#endif

/// SMBus transfers on one I2C bus: what a userspace sensor driver needs, and all that the
/// kernel's i2c-stub answers (it has no plain I2C_RDWR). Tests hand in a register-map fake;
/// production uses `LinuxI2CBus`, which goes through `SystemCalls.ioctl` on /dev/i2c-N.
public protocol I2CBus: AnyObject {
    /// "/dev/i2c-1": for messages.
    var path: String { get }
    /// SMBus "read byte data": one register of the chip at `address`.
    func readByte(address: UInt8, register: UInt8) throws(SystemError) -> UInt8
    /// SMBus "write byte data".
    func writeByte(address: UInt8, register: UInt8, value: UInt8) throws(SystemError)
    /// SMBus "I2C block data" read: `count` (1…32) consecutive bytes starting at `register`.
    func readBlock(address: UInt8, register: UInt8, count: Int) throws(SystemError) -> [UInt8]
    func close()
}

/// Numbers from <linux/i2c-dev.h> and <linux/i2c.h>, which Swift cannot import as macros.
public enum I2CDevNumbers {
    public static let I2C_SLAVE: UInt = 0x0703
    public static let I2C_SLAVE_FORCE: UInt = 0x0706
    public static let I2C_FUNCS: UInt = 0x0705
    public static let I2C_SMBUS: UInt = 0x0720
    public static let I2C_SMBUS_READ: UInt8 = 1
    public static let I2C_SMBUS_WRITE: UInt8 = 0
    public static let I2C_SMBUS_BYTE_DATA: UInt32 = 2
    public static let I2C_SMBUS_I2C_BLOCK_DATA: UInt32 = 8
    public static let I2C_SMBUS_BLOCK_MAX = 32
    /// union i2c_smbus_data: a byte, a word, or block[I2C_SMBUS_BLOCK_MAX + 2].
    public static let smbusDataSize = 34
}

/// Lays out `struct i2c_smbus_ioctl_data` byte by byte, as the kernel reads it on 64-bit
/// and 32-bit Linux alike: u8 read_write at 0, u8 command at 1, u32 size at 4, then the
/// pointer to the data union at 8. (A Swift struct's layout is not promised to match C's.)
public enum I2CSMBusIoctlData {
    public static let byteCount = 8 + MemoryLayout<UnsafeMutableRawPointer>.size

    public static func withRequest<R>(readWrite: UInt8, command: UInt8, size: UInt32, data: UnsafeMutablePointer<UInt8>,
                                      _ body: (UnsafeMutableRawPointer) throws(SystemError) -> R) throws(SystemError) -> R {
        let request = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: MemoryLayout<UnsafeMutableRawPointer>.alignment)
        defer { request.deallocate() }
        request.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        request.storeBytes(of: readWrite, toByteOffset: 0, as: UInt8.self)
        request.storeBytes(of: command, toByteOffset: 1, as: UInt8.self)
        request.storeBytes(of: size, toByteOffset: 4, as: UInt32.self)
        request.storeBytes(of: UnsafeMutableRawPointer(data), toByteOffset: 8, as: UnsafeMutableRawPointer.self)
        return try body(request)
    }
}

/// /dev/i2c-N through the I2C_SMBUS ioctl. The target address is selected with I2C_SLAVE
/// before each transfer when it changes; an address owned by a kernel driver answers EBUSY
/// and is left alone (the IIO path reads that chip instead).
public final class LinuxI2CBus: I2CBus {
    public let path: String
    private let system: SystemCalls
    private var fd: Int32
    private var selectedAddress: UInt8?

    public init(path: String, system: SystemCalls) throws(SystemError) {
        self.path = path
        self.system = system
        fd = try system.open(path, flags: O_RDWR)
    }
    deinit { if fd >= 0 { system.close(fd) } }

    public func close() {
        if fd >= 0 { system.close(fd); fd = -1 }
    }

    private func select(_ address: UInt8) throws(SystemError) {
        if selectedAddress == address { return }
        guard fd >= 0 else { throw SystemError(errno: EBADF, attempt: "I2C_SLAVE 0x\(hexByte(address)) on closed \(path)") }
        _ = try system.ioctl(fd, I2CDevNumbers.I2C_SLAVE, UnsafeMutableRawPointer(bitPattern: UInt(address)),
                             what: "I2C_SLAVE 0x\(hexByte(address)) on \(path)")
        selectedAddress = address
    }

    private func transfer(address: UInt8, readWrite: UInt8, register: UInt8, size: UInt32,
                          data: UnsafeMutablePointer<UInt8>, what: String) throws(SystemError) {
        try select(address)
        let attempt = "I2C_SMBUS \(what) 0x\(hexByte(address)) reg 0x\(hexByte(register)) on \(path)"
        let fd = self.fd, system = self.system
        _ = try I2CSMBusIoctlData.withRequest(readWrite: readWrite, command: register, size: size, data: data) {
            (request) throws(SystemError) -> Int32 in
            try system.ioctl(fd, I2CDevNumbers.I2C_SMBUS, request, what: attempt)
        }
    }

    public func readByte(address: UInt8, register: UInt8) throws(SystemError) -> UInt8 {
        var union = [UInt8](repeating: 0, count: I2CDevNumbers.smbusDataSize)
        try union.withUnsafeMutableBufferPointer { (b) throws(SystemError) in
            try transfer(address: address, readWrite: I2CDevNumbers.I2C_SMBUS_READ, register: register,
                         size: I2CDevNumbers.I2C_SMBUS_BYTE_DATA, data: b.baseAddress!, what: "read byte")
        }
        return union[0]
    }

    public func writeByte(address: UInt8, register: UInt8, value: UInt8) throws(SystemError) {
        var union = [UInt8](repeating: 0, count: I2CDevNumbers.smbusDataSize)
        union[0] = value
        try union.withUnsafeMutableBufferPointer { (b) throws(SystemError) in
            try transfer(address: address, readWrite: I2CDevNumbers.I2C_SMBUS_WRITE, register: register,
                         size: I2CDevNumbers.I2C_SMBUS_BYTE_DATA, data: b.baseAddress!, what: "write byte")
        }
    }

    public func readBlock(address: UInt8, register: UInt8, count: Int) throws(SystemError) -> [UInt8] {
        precondition(count >= 1 && count <= I2CDevNumbers.I2C_SMBUS_BLOCK_MAX, "SMBus block of 1…32 bytes")
        var union = [UInt8](repeating: 0, count: I2CDevNumbers.smbusDataSize)
        union[0] = UInt8(count)  // block[0]: how many bytes we want; the kernel writes back how many came
        try union.withUnsafeMutableBufferPointer { (b) throws(SystemError) in
            try transfer(address: address, readWrite: I2CDevNumbers.I2C_SMBUS_READ, register: register,
                         size: I2CDevNumbers.I2C_SMBUS_I2C_BLOCK_DATA, data: b.baseAddress!, what: "read block")
        }
        let got = Int(union[0])
        if got < count {
            throw SystemError(errno: EIO, attempt: "I2C_SMBUS read block 0x\(hexByte(address)) reg 0x\(hexByte(register)) on \(path): \(got) of \(count) bytes")
        }
        return Array(union[1...count])
    }
}

/// Two upper-case hex digits: register and address numbers in messages ("0x0F").
public func hexByte(_ v: UInt8) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
}
