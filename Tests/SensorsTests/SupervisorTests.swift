import Foundation
import Testing
import Geometry
import SystemFakes
import Syscalls
@testable import Sensors

@Suite struct BadDataTests {
    @Test func validatorDropsWhatNoSensorProduces() {
        var v = SampleValidator(stuckAfter: 1_000_000)
        #expect(v.check(sample(0, Vec3(.nan, 0, 0))) == .notFinite)
        #expect(v.check(sample(0, Vec3(0, .infinity, 0))) == .notFinite)
        #expect(v.check(sample(0, Vec3(0, 0, 21 * standardGravity))) == .outOfRange)
        #expect(v.check(sample(0, Vec3(150, 150, 0))) == .outOfRange)  // |v| > 20 g though no axis is
        #expect(v.check(sample(0, Vec3(0, 19 * standardGravity, 0))) == nil)
        // Identical readings: fine for a while, then stuck until they change.
        var dropped = 0
        for i in 0..<300 { if v.check(sample(Microseconds(i) * 10_000, Vec3(1, 2, 3))) == .stuck { dropped += 1 } }
        #expect(dropped == 200)
        #expect(v.check(sample(3_000_000, Vec3(1, 2, 3.01))) == nil)
        #expect(v.dropped[.notFinite] == 2 && v.dropped[.outOfRange] == 2 && v.dropped[.stuck] == 200)
        // Disabled stuck check.
        var never = SampleValidator(stuckAfter: nil)
        for i in 0..<1000 { #expect(never.check(sample(Microseconds(i) * 1_000_000, Vec3(1, 2, 3))) == nil) }
    }

    @Test func badSamplesAreDroppedCountedAndLoggedAtABoundedRate() {
        let tree = TempTree()
        var config = configuration(tree)
        config.stuckAfter = nil
        // Only good samples show movement: this stand would rest and poll slowly; counted
        // here at the full rate.
        config.restAfter = .max
        tree.addLIS3DH(raw: (0, 1000, 0))
        let clock = VirtualClock(start: 0)
        let lines = LogLines()
        let system = FakeI2CSystem()
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: lines.log(clock: clock))
        for _ in 0..<10 { sensors.service(); clock.advance(by: 20_000) }
        let upright = Vec2(0, 1000 * lis3dhKernelScale / standardGravity)
        #expect(near(sensors.worldGravity, upright, 1e-12))
        // Garbage, NaN and a 30 g spike for 10 s at 50 Hz.
        let x = "sys/iio:device0/in_accel_x_raw"
        for i in 0..<500 {
            switch i % 3 {
            case 0: tree.write(x, "nan\n")
            case 1: tree.write(x, "30000\n")
            default: tree.write(x, "banana\n")
            }
            sensors.service()
            clock.advance(by: 20_000)
        }
        #expect(sensors.validator.dropped[.notFinite] == 167)
        #expect(sensors.validator.dropped[.outOfRange] == 167)
        #expect(sensors.validator.dropped[.readError] == 166)
        // Gravity kept its last good value.
        #expect(near(sensors.worldGravity, upright, 1e-12))
        // Three kinds, 10 s, one line per kind per 5 s.
        #expect(lines.lines.count <= 6)
        #expect(lines.lines.contains { $0.contains("not a finite number") })
        #expect(lines.lines.contains { $0.contains("over 20 g") })
        #expect(lines.lines.contains { $0.contains("banana") })
        // EIO on the sysfs file: dropped, counted, not a disappearance.
        system.fail(.readSmallFile, of: tree.path(x), errno: EIO, times: .max)
        for _ in 0..<5 { sensors.service(); clock.advance(by: 20_000) }
        #expect(sensors.validator.dropped[.readError] == 171)
        #expect(!sensors.isFallingBack)
        system.stopFailing()
        tree.write(x, "0\n")
        #expect(sensors.service().samples.count == 1)
    }

    @Test func stuckSensorSamplesAreDropped() {
        let tree = TempTree()
        var config = configuration(tree)
        config.stuckAfter = 1_000_000
        tree.addLIS3DH(raw: (0, 1000, 0))
        let clock = VirtualClock(start: 0)
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: lines.log(clock: clock))
        var good = 0
        for _ in 0..<150 { good += sensors.service().samples.count; clock.advance(by: 20_000) }
        #expect(good == 50)  // 1 s of identical readings at 50 Hz, then dropped
        #expect(sensors.validator.dropped[.stuck] == 100)
        #expect(lines.lines.filter { $0.contains("stuck") }.count == 1)
    }

    @Test func rateLimitedLogSaysHowManyItHeldBack() {
        let clock = VirtualClock()
        let lines = LogLines()
        let log = lines.log(clock: clock, interval: 5_000_000)
        for _ in 0..<100 { log.log("a", "trouble"); clock.advance(by: 10_000) }
        log.log("b", "other trouble")
        #expect(lines.lines == ["trouble", "other trouble"])
        clock.advance(by: 5_000_000)
        log.log("a", "trouble")
        #expect(lines.lines.last == "trouble (99 more like this since the last report)")
        log.always("state change")
        #expect(lines.lines.last == "state change")
    }
}

@Suite struct HotPlugTests {
    @Test func sourceGoesAwayAndComesBack() {
        let tree = TempTree()
        var config = configuration(tree)
        config.retryInterval = 1_000_000
        config.maximumRetryInterval = 4_000_000
        tree.addLIS3DH(raw: (-1000, 0, 0))
        let clock = VirtualClock(start: 0)
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: lines.log(clock: clock))
        sensors.service()
        #expect(near(sensors.worldGravity, Vec2(1000 * lis3dhKernelScale / standardGravity, 0), 1e-12))

        // Unplugged: the sysfs directory vanishes.
        tree.remove("sys/iio:device0")
        clock.advance(by: 20_000)
        sensors.service()
        #expect(sensors.isFallingBack)
        #expect(sensors.accelerometer is FixedDownGravity)
        #expect(near(sensors.worldGravity, Vec2(0, 1), 1e-9))
        // Many services while gone: the loss is said once, retries back off (1, 2, 4, 4 s).
        var deadlines: [Microseconds] = []
        for _ in 0..<1200 {
            clock.advance(by: 10_000)
            sensors.service()
            if let d = sensors.nextDeadline, deadlines.last != d { deadlines.append(d) }
        }
        #expect(lines.lines.filter { $0.contains("went away") }.count == 1)
        let gaps = zip(deadlines.dropFirst(), deadlines).map { $0 - $1 }
        #expect(gaps.prefix(3) == [2_000_000, 4_000_000, 4_000_000])
        #expect(sensors.fileDescriptors.isEmpty)

        // Plugged back: the next rescan (a udev event) takes it at once.
        tree.addLIS3DH(raw: (0, -1000, 0))
        sensors.rescan()
        #expect(!sensors.isFallingBack)
        #expect(sensors.accelerometer is IIOPolledAccelerometer)
        #expect(lines.lines.contains { $0.contains("accelerometer back") })
        clock.advance(by: 20_000)
        sensors.service()
        clock.advance(by: 1_000_000)
        sensors.service()
        #expect(sensors.worldGravity.y < -0.95)  // upside down now
    }

    @Test func withoutUdevThePollingRetryFindsItToo() {
        let tree = TempTree()
        let config = configuration(tree)  // nothing plugged in at start
        let clock = VirtualClock(start: 0)
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: lines.log(clock: clock))
        #expect(sensors.isFallingBack)
        #expect(lines.lines.contains { $0.contains("no accelerometer found") })
        #expect(sensors.nextDeadline == 1_000_000)
        sensors.service()
        #expect(near(sensors.worldGravity, Vec2(0, 1)))
        tree.addLIS3DH(raw: (1000, 0, 0))
        clock.set(1_000_000)
        sensors.service()
        #expect(sensors.accelerometer is IIOPolledAccelerometer)
        clock.advance(by: 2_000_000)
        sensors.service()
        #expect(sensors.worldGravity.x < -0.95)
    }

    @Test func rescanIsRateBounded() {
        let tree = TempTree()
        let config = configuration(tree)
        let clock = VirtualClock(start: 10_000_000)
        let system = FakeI2CSystem()
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: LogLines().log(clock: clock))
        sensors.rescan()
        tree.addLIS3DH(raw: (0, 1000, 0))
        clock.advance(by: 100_000)
        sensors.rescan()  // too soon after the last one: deferred, not done
        #expect(sensors.isFallingBack)
        #expect(sensors.nextDeadline == 10_250_000)
        clock.set(10_250_000)
        sensors.service()
        #expect(!sensors.isFallingBack)
    }

    @Test func bufferedSourceGoneWithENODEV() {
        let tree = TempTree()
        let config = configuration(tree)
        tree.addLIS3DH(raw: (0, 0, 0), buffered: true)
        let clock = VirtualClock(start: 0)
        let system = FakeI2CSystem()
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: system, clock: clock, log: lines.log(clock: clock))
        #expect(sensors.fileDescriptors.count == 1)
        system.fail(.read, of: tree.path("dev/iio:device0"), errno: ENODEV, times: .max)
        system.fail(.open, of: tree.path("dev/iio:device0"), errno: ENODEV, times: .max)
        tree.remove("sys/iio:device0")
        sensors.service()
        #expect(sensors.isFallingBack)
        #expect(sensors.fileDescriptors.isEmpty)
        #expect(lines.lines.filter { $0.contains("went away") }.count == 1)
    }
}

@Suite struct SyntheticSourceTests {
    @Test func arrowKeysTilt() {
        let clock = VirtualClock()
        var config = MotionSensorConfiguration()
        config.accelerometer = .arrowKeys
        config.barometer = .none
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: LogLines().log(clock: clock))
        #expect(sensors.nextDeadline == nil)  // no wake-ups of its own
        sensors.service()
        #expect(near(sensors.worldGravity, Vec2(0, 1), 1e-12))
        sensors.arrowKeys!.press(.left)
        sensors.arrowKeys!.press(.left)
        let u = sensors.service()
        #expect(u.gravityChanged)
        // Each press moves "down" a quarter toward that edge, kept within the unit disc.
        let once = Vec2(-0.25, 1).normalized
        #expect(near(sensors.worldGravity, Vec2(once.x - 0.25, once.y).normalized, 1e-12))
        sensors.arrowKeys!.press(.level)
        sensors.arrowKeys!.press(.up)
        sensors.service()
        // Leaning back: less pull in the plane, the rest into the glass.
        #expect(near(sensors.worldGravity, Vec2(0, 0.75), 1e-12))
        #expect(abs(sensors.gravity.z - standardGravity * (1 - 0.75 * 0.75).squareRoot()) < 1e-9)
        sensors.arrowKeys!.press(.level)
        sensors.service()
        #expect(near(sensors.worldGravity, Vec2(0, 1), 1e-12))
        #expect(!sensors.service().gravityChanged)
    }

    @Test func replayFollowsTheClockAndDetectsTheShake() throws {
        var text = "# seconds ax ay az\n"
        for s in shaking(from: 0, to: 1, amplitude: 60) + still(from: 1, to: 2) {
            text += "\(Double(s.time) / 1e6) \(s.vector.x) \(s.vector.y) \(s.vector.z)\n"
        }
        let samples = try ReplayedAccelerometer.parse(text, source: "shake.txt")
        #expect(samples.count == 200)
        #expect(throws: SampleTextError.self) { _ = try ReplayedAccelerometer.parse("0 1 2\n", source: "bad.txt") }
        do {
            _ = try ReplayedAccelerometer.parse("0 1 2 3\nzero 1 2 3\n", source: "bad.txt")
        } catch {
            #expect(error.description == "bad.txt:2: expected 'seconds ax ay az', got 'zero 1 2 3'")
        }
        let clock = VirtualClock(start: 50_000_000)
        var config = MotionSensorConfiguration()
        config.accelerometer = .replay(samples, loops: false)
        config.barometer = .none
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: LogLines().log(clock: clock))
        var shakes = 0, count = 0
        for _ in 0..<300 {
            let u = sensors.service()
            shakes += u.shakes.count
            count += u.samples.count
            clock.advance(by: 10_000)
        }
        #expect(count == 200)
        #expect(shakes == 1)
        #expect(near(sensors.worldGravity, Vec2(0, 1), 1e-3))
    }
}
