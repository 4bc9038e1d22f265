import Testing
import Geometry
import SystemFakes
@testable import Sensors

@Suite struct BarometerTests {
    @Test func standardAtmosphere() {
        #expect(AltitudeEstimator.altitude(kilopascals: 101.325, reference: 101.325) == 0)
        // 1000 m in the standard atmosphere is 89.875 kPa.
        #expect(abs(AltitudeEstimator.altitude(kilopascals: 89.875, reference: 101.325) - 1000) < 5)
        // One floor (3 m) up is about 36 Pa less.
        #expect(abs(AltitudeEstimator.altitude(kilopascals: 101.325 - 0.036, reference: 101.325) - 3) < 0.1)
    }

    @Test func altitudeRelativeToStartSmoothedAndRobust() {
        var e = AltitudeEstimator(timeConstant: 1)
        #expect(e.add(PressureSample(time: 0, kilopascals: 100.0)) == 0)
        e.add(PressureSample(time: 100_000, kilopascals: .nan))
        e.add(PressureSample(time: 100_000, kilopascals: 0))
        #expect(e.dropped == 2)
        let target = AltitudeEstimator.altitude(kilopascals: 99.88, reference: 100)
        var t: Microseconds = 0
        var firstStep = 0.0
        for i in 0..<100 {
            t += 100_000
            // ±5 Pa of noise around the new level.
            let noise = i % 2 == 0 ? 0.005 : -0.005
            let a = e.add(PressureSample(time: t, kilopascals: 99.88 + noise))!
            if i == 0 { firstStep = a }
        }
        #expect(firstStep < target * 0.2)  // smoothed: no jump
        #expect(abs(e.altitude! - target) < 0.3)
        #expect(e.referenceKilopascals == 100)
    }

    @Test func iioPressureThroughTheSupervisor() {
        let tree = TempTree()
        var config = configuration(tree)
        config.accelerometer = .fixedDown
        tree.write("sys/iio:device1/name", "bmp280\n")
        tree.write("sys/iio:device1/in_pressure_input", "101.325000\n")
        let clock = VirtualClock(start: 0)
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: LogLines().log(clock: clock))
        #expect(sensors.barometer?.device.name == "bmp280")
        #expect(sensors.service().altitudeChanged)
        #expect(sensors.altitude == 0)
        tree.write("sys/iio:device1/in_pressure_input", "101.289\n")  // ~3 m up
        for _ in 0..<100 { clock.advance(by: 100_000); sensors.service() }
        #expect(abs(sensors.altitude! - 3.0) < 0.1)
        #expect(sensors.pressureKilopascals == 101.289)
        #expect(sensors.nextDeadline == clock.now + 100_000)
    }

    @Test func barometerGoesAwayAndComesBack() {
        let tree = TempTree()
        var config = configuration(tree)
        config.accelerometer = .fixedDown
        tree.write("sys/iio:device1/name", "bmp280\n")
        tree.write("sys/iio:device1/in_pressure_input", "100.0\n")
        let clock = VirtualClock(start: 0)
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: lines.log(clock: clock))
        sensors.service()
        tree.remove("sys/iio:device1")
        clock.advance(by: 100_000)
        sensors.service()
        #expect(sensors.barometer == nil)
        #expect(lines.lines.filter { $0.contains("barometer") && $0.contains("went away") }.count == 1)
        #expect(sensors.altitude == 0)  // the last altitude stays
        #expect(sensors.nextDeadline == clock.now + 1_000_000)
        tree.write("sys/iio:device1/name", "bmp280\n")
        tree.write("sys/iio:device1/in_pressure_input", "100.0\n")
        clock.advance(by: 1_000_000)
        sensors.service()
        #expect(sensors.barometer != nil)
        #expect(lines.lines.contains { $0.contains("barometer back") })
        #expect(sensors.nextDeadline == clock.now + 100_000)  // no more retries, reads at 10 Hz
    }

    @Test func rawPressureWithScale() throws {
        let tree = TempTree()
        tree.write("sys/iio:device0/name", "odd\n")
        tree.write("sys/iio:device0/in_pressure_raw", "1000\n")
        tree.write("sys/iio:device0/in_pressure_scale", "0.1\n")
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device0", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        let b = try IIOBarometer(device: d, system: system)
        #expect(try b.read(now: 0).kilopascals == 100)
    }

    @Test func pressuresThatAreNoNumbersAreFailedReadsNotValues() throws {
        let tree = TempTree()
        tree.write("sys/iio:device0/name", "odd\n")
        tree.write("sys/iio:device0/in_pressure_raw", "1e300\n")
        tree.write("sys/iio:device0/in_pressure_scale", "1e300\n")
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device0", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        let b = try IIOBarometer(device: d, system: system)
        // 1e300 × 1e300 is no pressure: a failed read the supervisor counts, never inf.
        #expect(throws: SensorReadError.self) { _ = try b.read(now: 0) }
        for bad in ["inf", "nan", "-inf"] {
            tree.write("sys/iio:device0/in_pressure_raw", bad + "\n")
            #expect(throws: SensorReadError.self) { _ = try b.read(now: 0) }
        }
    }
}

@Suite struct InventoryTests {
    @Test func devicesLinesNameWhatIsFoundAndUsed() {
        let tree = TempTree()
        var config = configuration(tree)
        config.rotation = .r90
        tree.addLIS3DH(raw: (0, 0, 0))
        tree.write("sys/iio:device1/name", "bmp280\n")
        tree.write("sys/iio:device1/in_pressure_input", "101.3\n")
        tree.write("dev/i2c-1", "")
        let system = FakeI2CSystem()
        system.buses[tree.path("dev/i2c-1")] = [0x53: RegisterMapChip.adxl345(counts: (0, 0, 0))]
        system.boundAddresses[tree.path("dev/i2c-1")] = [0x18]
        let clock = VirtualClock()
        let lines = MotionSensors.deviceLines(configuration: config, system: system, clock: clock)
        #expect(lines.contains("accelerometer iio:device0 lis3dh [IIO, polled] — in use"))
        #expect(lines.contains("accelerometer ADXL345 at 0x53 on \(tree.path("dev/i2c-1")) [userspace I2C]"))
        #expect(lines.contains("i2c \(tree.path("dev/i2c-1")) 0x18: bound to a kernel driver"))
        #expect(lines.contains("barometer iio:device1 bmp280 [IIO] — in use"))
        #expect(lines.contains { $0.contains("panel rotation 90") })

        let empty = TempTree()
        let none = MotionSensors.deviceLines(configuration: configuration(empty), system: FakeI2CSystem(), clock: clock)
        #expect(none.contains("accelerometer: none usable — fixed down gravity in use"))
        #expect(none.contains("barometer: none"))
    }
}
