import Foundation
import Testing
import Geometry
import SystemFakes
import Syscalls
@testable import Sensors

/// The accelerometer's sysfs attributes, its IIO buffer and its I2C bus, each call failed
/// through SystemFakes' one mechanism: the note names the device and the attribute (or bus
/// and register), the kiosk falls back or polls instead, and nothing crashes.
@Suite struct IIOFaultTests {
    func sensors(_ tree: TempTree, _ system: FakeI2CSystem, buffered: Bool) -> (MotionSensors, VirtualClock) {
        var config = configuration(tree)
        config.probeI2CInAuto = false
        tree.addLIS3DH(raw: (0, 1000, 0), buffered: buffered)
        let clock = VirtualClock(start: 0)
        return (MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock)), clock)
    }

    @Test func anUnreadableScaleAttributeNamesTheDeviceAndTheFileAndFallsBack() {
        let tree = TempTree(), system = FakeI2CSystem()
        system.fail(.readSmallFile, of: "in_accel_y_scale", errno: EIO, times: .max)
        let (sensors, _) = sensors(tree, system, buffered: false)
        #expect(sensors.isFallingBack)
        let attribute = tree.path("sys/iio:device0/in_accel_y_scale")
        #expect(sensors.notes == ["iio:device0 lis3dh unusable: read \(attribute): Input/output error"])
    }

    @Test func aBufferThatCannotBeEnabledIsPolledInsteadAndSaysWhy() {
        let tree = TempTree(), system = FakeI2CSystem()
        system.fail(.writeSmallFile, of: "buffer/enable", errno: EACCES)
        let (sensors, _) = sensors(tree, system, buffered: true)
        #expect(!sensors.isFallingBack && sensors.fileDescriptors.isEmpty, "polled, not buffered")
        let attribute = tree.path("sys/iio:device0/buffer/enable")
        #expect(sensors.notes.first == "buffered capture on iio:device0 lis3dh failed (write '1' to \(attribute): Permission denied); polling sysfs instead")
        #expect(sensors.service().samples.count == 1)
    }

    @Test func aBufferNodeThatCannotBeOpenedIsPolledInsteadAndTheBufferSwitchedOff() {
        let tree = TempTree(), system = FakeI2CSystem()
        let node = tree.path("dev/iio:device0")
        system.fail(.open, of: node, errno: EACCES)
        let (sensors, _) = sensors(tree, system, buffered: true)
        #expect(!sensors.isFallingBack && sensors.fileDescriptors.isEmpty)
        #expect(sensors.notes.first?.contains("(open \(node): Permission denied); polling sysfs instead") == true, "\(sensors.notes)")
        #expect(tree.read("sys/iio:device0/buffer/enable") == "0", "the buffer is not left running for nobody")
    }

    @Test func aBufferReadErrorIsCountedAndTheBufferKept() {
        let tree = TempTree(), system = FakeI2CSystem()
        let (sensors, clock) = sensors(tree, system, buffered: true)
        #expect(sensors.fileDescriptors.count == 1)
        system.fail(.read, of: tree.path("dev/iio:device0"), errno: EIO)
        sensors.service()
        #expect(sensors.validator.dropped[.readError] == 1)
        #expect(!sensors.isFallingBack && sensors.fileDescriptors.count == 1, "one EIO is not the device going away")
        tree.append("dev/iio:device0", lis3dhScan(0, 1000, 0, timestampNanoseconds: 1_000_000))
        clock.advance(by: 10_000)
        #expect(sensors.service().samples.count == 1)
    }

    @Test func anUnreadableRawValueWhilePollingIsDroppedAndNamed() {
        let tree = TempTree(), system = FakeI2CSystem()
        let (sensors, clock) = sensors(tree, system, buffered: false)
        #expect(sensors.service().samples.count == 1)
        system.fail(.readSmallFile, of: "in_accel_z_raw", errno: EIO)
        clock.advance(by: 100_000)
        sensors.service()
        #expect(sensors.validator.dropped[.readError] == 1 && !sensors.isFallingBack)
        clock.advance(by: 100_000)
        #expect(sensors.service().samples.count == 1)
    }
}

@Suite struct I2CFaultTests {
    func setUp(_ chip: RegisterMapChip, at address: UInt8) -> (TempTree, FakeI2CSystem, MotionSensorConfiguration) {
        let tree = TempTree()
        let config = configuration(tree)
        tree.write("dev/i2c-1", "")
        let system = FakeI2CSystem()
        system.buses[tree.path("dev/i2c-1")] = [address: chip]
        return (tree, system, config)
    }

    @Test func aBusTheKioskMayNotOpenIsNamedAndTheStandFallsBack() {
        let (tree, system, config) = setUp(.adxl345(counts: (0, 256, 0)), at: 0x53)
        let bus = tree.path("dev/i2c-1")
        system.fail(.open, of: bus, errno: EACCES, times: .max)
        let clock = VirtualClock(start: 0)
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock))
        #expect(sensors.isFallingBack)
        #expect(sensors.notes == ["open \(bus): Permission denied"])
        // Mended (the udev rule fixed): the next look finds the chip.
        system.stopFailing()
        clock.advance(by: 60_000_000)
        sensors.service()
        #expect(!sensors.isFallingBack && sensors.accelerometer.name.contains("ADXL345"))
    }

    @Test func aChipThatCannotBePoweredUpNamesTheBusAddressAndRegister() {
        let chip = RegisterMapChip.adxl345(counts: (0, 256, 0))
        let (tree, system, config) = setUp(chip, at: 0x53)
        // The probe reads the ID (a read byte); the power-up's first write fails.
        system.fail(.ioctl, of: "I2C_SMBUS write byte", errno: EIO)
        let clock = VirtualClock(start: 0)
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock))
        #expect(sensors.isFallingBack)
        let note = sensors.notes.first ?? ""
        #expect(note.contains("I2C_SMBUS write byte 0x53 reg 0x") && note.contains("on \(tree.path("dev/i2c-1")): Input/output error"), "\(sensors.notes)")
    }

    @Test func anAddressThatCannotBeSelectedIsSkippedWithoutACrash() {
        let (tree, system, config) = setUp(.adxl345(counts: (0, 256, 0)), at: 0x53)
        defer { withExtendedLifetime(tree) {} }
        system.fail(.ioctl, of: "I2C_SLAVE", errno: EIO, times: .max)
        let clock = VirtualClock(start: 0)
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock))
        #expect(sensors.isFallingBack)
        #expect(system.failures.count >= 1 && system.failures.allSatisfy { $0.subject.hasPrefix("I2C_SLAVE 0x") })
        #expect(system.subjects(of: .close) == [tree.path("dev/i2c-1")], "the bus is closed again")
        #expect(sensors.notes.isEmpty, "nothing answering at an address is no news: \(sensors.notes)")
    }
}
