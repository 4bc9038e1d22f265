import Testing
import Geometry
import SystemFakes
@testable import Sensors

/// `[sensors] barometer = "<device>"`: the named pressure sensor is the one opened, by name
/// or sysfs folder, never the first one found; a name nobody has is said once and plainly.
@Suite struct NamedBarometerTests {
    func twoPressureSensors() -> TempTree {
        let tree = TempTree()
        tree.write("sys/iio:device1/name", "bmp280\n")
        tree.write("sys/iio:device1/in_pressure_input", "101.3\n")
        tree.write("sys/iio:device2/name", "lps22hb\n")
        tree.write("sys/iio:device2/in_pressure_input", "99.0\n")
        return tree
    }

    func sensors(_ tree: TempTree, _ choice: BarometerChoice, log: LogLines, clock: VirtualClock) -> MotionSensors {
        var config = configuration(tree)
        config.accelerometer = .fixedDown
        config.barometer = choice
        return MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: log.log(clock: clock))
    }

    @Test func theNamedBarometerIsTheOneOpened() {
        let tree = twoPressureSensors()
        let clock = VirtualClock(start: 0)
        // Not the first found (bmp280): the one the stand names.
        #expect(sensors(tree, .named("lps22hb"), log: LogLines(), clock: clock).barometer?.device.name == "lps22hb")
        #expect(sensors(tree, .named("iio:device2"), log: LogLines(), clock: clock).barometer?.device.id == "iio:device2")
        #expect(sensors(tree, .first, log: LogLines(), clock: clock).barometer?.device.name == "bmp280")
        #expect(sensors(tree, .none, log: LogLines(), clock: clock).barometer == nil)
        let named = sensors(tree, .named("lps22hb"), log: LogLines(), clock: clock)
        named.service()
        #expect(named.pressureKilopascals == 99.0)
    }

    @Test func anUnknownNameIsAClearWarningOnceAndNoOtherBarometer() {
        let tree = twoPressureSensors()
        let clock = VirtualClock(start: 0)
        let log = LogLines()
        let s = sensors(tree, .named("bmp388"), log: log, clock: clock)
        #expect(s.barometer == nil, "another barometer was opened in place of the named one")
        #expect(s.altitude == nil)
        let warnings = log.lines.filter { $0.contains("bmp388") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("no IIO pressure sensor named 'bmp388' ([sensors] barometer); found: iio:device1 bmp280, iio:device2 lps22hb") == true,
                "\(log.lines)")
        // Looking again (a rescan) does not say it again.
        clock.advance(by: 1_000_000)
        s.rescan()
        #expect(log.lines.filter { $0.contains("bmp388") }.count == 1)
        #expect(s.barometer == nil)
    }
}
