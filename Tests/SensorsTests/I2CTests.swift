import Foundation
import Testing
import Geometry
import SystemFakes
import Syscalls
@testable import Sensors

@Suite struct I2CAccelerometerTests {
    /// A bus file in the temp /dev and the fake chip behind it.
    func setUp(_ chips: [UInt8: RegisterMapChip], bound: Set<UInt8> = []) -> (TempTree, FakeI2CSystem, MotionSensorConfiguration) {
        let tree = TempTree()
        let config = configuration(tree)
        tree.write("dev/i2c-1", "")
        tree.write("dev/i2c-0", "")  // an empty bus first
        let system = FakeI2CSystem()
        system.buses[tree.path("dev/i2c-0")] = [:]
        system.buses[tree.path("dev/i2c-1")] = chips
        system.boundAddresses[tree.path("dev/i2c-1")] = bound
        return (tree, system, config)
    }

    func reading(_ chip: RegisterMapChip, at address: UInt8) throws -> (MotionSensors, Vec3) {
        let (tree, system, config) = setUp([address: chip])
        defer { withExtendedLifetime(tree) {} }
        let clock = VirtualClock(start: 0)
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock))
        let update = sensors.service()
        let sample = try #require(update.samples.first)
        return (sensors, sample.vector)
    }

    @Test func lis3dhOnARealChipModel() throws {
        let chip = RegisterMapChip.lis3dh(counts: (0, 1000, -500), stub: false)
        let (sensors, v) = try reading(chip, at: 0x19)
        #expect(sensors.accelerometer.name == "I2C \(sensors.configuration.i2cDevRoot)/i2c-1 0x19 LIS3DH (userspace)")
        #expect(near(v, Vec3(0, 9.80665, -4.903325), 1e-9))
        #expect(chip.writes.contains { $0 == (0x20, 0x57) })
        #expect(chip.writes.contains { $0.0 == 0x23 && $0.1 & 0x30 == 0 })  // ±2 g
    }

    @Test func lis3dhOnI2CStubPreloadedForTheKernelDriver() throws {
        // i2c-stub walks registers from the command byte and ignores bit 7: the userspace
        // driver must read WHO_AM_I at 0x8F and data at 0xA8…, exactly like st_accel.
        let chip = RegisterMapChip.lis3dh(counts: (-1000, 0, 1000), stub: true)
        let (_, v) = try reading(chip, at: 0x18)
        #expect(near(v, Vec3(-9.80665, 0, 9.80665), 1e-9))
    }

    @Test func adxl345() throws {
        let chip = RegisterMapChip.adxl345(counts: (256, -256, 0))
        let (sensors, v) = try reading(chip, at: 0x53)
        #expect(sensors.accelerometer.name.contains("ADXL345"))
        #expect(near(v, Vec3(256 * 0.0383, -256 * 0.0383, 0), 1e-9))
        #expect(chip.registers[0x2D] == 0x08 && chip.registers[0x31] == 0x08)
    }

    @Test func mpu6050WakesUp() throws {
        let chip = RegisterMapChip.mpu6050(counts: (16384, 0, -8192))
        let (sensors, v) = try reading(chip, at: 0x69)
        #expect(sensors.accelerometer.name.contains("MPU-6050"))
        #expect(near(v, Vec3(9.80665, 0, -4.903325), 1e-9))
        #expect(chip.registers[0x6B] & 0x40 == 0)
        #expect(chip.registers[0x1C] == 0)
    }

    @Test func probeSkipsKernelOwnedAddressesAndWrongIdentities() {
        let tree = TempTree()
        tree.write("dev/i2c-3", "")
        let system = FakeI2CSystem()
        let path = tree.path("dev/i2c-3")
        let impostor = RegisterMapChip()
        impostor.registers[0x75] = 0x12  // not an MPU
        system.buses[path] = [0x18: RegisterMapChip.lis3dh(counts: (0, 0, 0), stub: false), 0x53: RegisterMapChip.adxl345(counts: (0, 0, 0)),
                              0x68: impostor]
        system.boundAddresses[path] = [0x18]
        let bus = try! LinuxI2CBus(path: path, system: system)
        let scan = probeI2CAccelerometers(bus: bus)
        #expect(scan.found.map(\.chip) == [.adxl345])
        #expect(scan.found.map(\.address) == [0x53])
        #expect(scan.busy == [0x18])
    }

    @Test func configuredBusAndAddress() throws {
        let (tree, system, base) = setUp([0x18: RegisterMapChip.lis3dh(counts: (0, 0, 0), stub: false),
                                          0x68: RegisterMapChip.mpu6050(counts: (0, 16384, 0))])
        var config = base
        config.accelerometer = try #require(AccelerometerChoice(parsing: "i2c:1:0x68", devRoot: tree.path("dev")))
        let clock = VirtualClock()
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock))
        #expect(sensors.accelerometer.name.contains("0x68 MPU-6050"))
        sensors.service()
        #expect(near(sensors.worldGravity, Vec2(0, 1), 1e-9))
    }

    @Test func choiceParsing() {
        #expect(AccelerometerChoice(parsing: "auto") == .auto)
        #expect(AccelerometerChoice(parsing: "iio:device3") == .iio("iio:device3"))
        #expect(AccelerometerChoice(parsing: "iio:lis3dh") == .iio("lis3dh"))
        #expect(AccelerometerChoice(parsing: "i2c:/dev/i2c-1") == .i2c(bus: "/dev/i2c-1", chip: nil, address: nil))
        #expect(AccelerometerChoice(parsing: "i2c:0:0x19:lis3dh") == .i2c(bus: "/dev/i2c-0", chip: .lis3dh, address: 0x19))
        #expect(AccelerometerChoice(parsing: "i2c:1:mpu-6050") == .i2c(bus: "/dev/i2c-1", chip: .mpu6050, address: nil))
        #expect(AccelerometerChoice(parsing: "keys") == .arrowKeys)
        #expect(AccelerometerChoice(parsing: "fixed") == .fixedDown)
        #expect(AccelerometerChoice(parsing: "i2c:1:0x99") == nil)
        #expect(AccelerometerChoice(parsing: "bluetooth") == nil)
    }

    @Test func flakyWireIsCountedAndSurvived() throws {
        let chip = RegisterMapChip.adxl345(counts: (0, 256, 0))
        let (tree, system, config) = setUp([0x1D: chip])
        defer { withExtendedLifetime(tree) {} }
        let clock = VirtualClock()
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: lines.log(clock: clock))
        system.fail(.ioctl, of: "I2C_SMBUS", errno: EIO, times: .max)
        for _ in 0..<100 { sensors.service(); clock.advance(by: 10_000) }
        #expect(sensors.validator.dropped[.readError] == 100)
        #expect(!sensors.isFallingBack)
        // One second of errors at 100 Hz, logged once (5 s interval).
        #expect(lines.lines.filter { $0.contains("failed") }.count == 1)
        system.stopFailing()
        let update = sensors.service()
        #expect(update.samples.count == 1)
    }

    @Test func notAnI2CDeviceIsAClearError() throws {
        // The real kernel: /dev/null refuses I2C_SLAVE with ENOTTY.
        let bus = try LinuxI2CBus(path: "/dev/null", system: LinuxSystem())
        #expect {
            _ = try bus.readByte(address: 0x18, register: 0x0F)
        } throws: { error in
            (error as? SystemError) == SystemError(errno: ENOTTY, attempt: "I2C_SLAVE 0x18 on /dev/null")
        }
        bus.close()
        #expect(throws: SystemError.self) { _ = try LinuxI2CBus(path: "/dev/i2c-does-not-exist", system: LinuxSystem()) }
    }

    @Test func smbusIoctlGoesThroughTheSeam() throws {
        let tree = TempTree()
        tree.write("dev/i2c-7", "")
        let system = FakeI2CSystem()
        let path = tree.path("dev/i2c-7")
        let chip = RegisterMapChip()
        for i in 0..<32 { chip.registers[0x40 + i] = UInt8(i * 3) }
        system.buses[path] = [0x2A: chip]
        let bus = try LinuxI2CBus(path: path, system: system)
        #expect(try bus.readByte(address: 0x2A, register: 0x41) == 3)
        try bus.writeByte(address: 0x2A, register: 0x10, value: 0xAB)
        #expect(chip.registers[0x10] == 0xAB)
        #expect(try bus.readBlock(address: 0x2A, register: 0x40, count: 32) == (0..<32).map { UInt8($0 * 3) })
        #expect(throws: SystemError.self) { _ = try bus.readByte(address: 0x2B, register: 0) }
        #expect(system.smbusTransfers == 4)
    }
}
