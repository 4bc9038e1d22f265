import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Raster
import Sensors
import Syscalls
import SystemFakes
import Testing

/// A polled accelerometer on a stand at rest is read a few times a second, not a hundred;
/// the first movement or touch brings the full rate back.
@Suite struct RestingPollTests {

    @Test func aStandAtRestPollsSlowlyAndSpeedsUpOnTheFirstChangeOrTouch() throws {
        let tree = TempTree()
        tree.mkdir("sys"); tree.mkdir("dev")
        tree.addLIS3DH(raw: (0, 1000, 0))
        let events = VirtualEvents()
        let clock = MonotonicClock(events: events)
        var c = MotionSensorConfiguration()
        c.iioPaths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        c.i2cDevRoot = tree.path("dev")
        c.barometer = .none
        c.stuckAfter = nil
        let sensors = MotionSensors(configuration: c, clock: clock, log: RateLimitedLog(clock: clock, sink: { _ in }))
        let content = MotionLog()
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: clock, log: quietLog(), content: content, settings: quietSettings())
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: clock))
        frames.attachMotion(sensors)
        let screen = ScriptedTouchscreen(events: events)
        try frames.attachInput(screen)
        var wakeupsAtRest = (0, 0)
        func at(_ t: Microseconds, _ body: @escaping () -> Void) throws {
            let timer = try frames.loop.addTimer(body)
            try timer.arm(after: t)
        }
        try at(5_000_000) { wakeupsAtRest.0 = frames.loop.wakeups }
        try at(10_000_000) { wakeupsAtRest.1 = frames.loop.wakeups }
        // At 10 s the visitor tilts the stand; at 16 s a finger lands and stays.
        try at(10_000_000) { tree.write("sys/iio:device0/in_accel_x_raw", "-400\n") }
        screen.touch(.down, Vec2(240, 400), at: 16_000_000)
        screen.touch(.up, Vec2(240, 400), at: 19_000_000)
        try at(20_000_000) { frames.loop.stop() }
        try frames.run()

        #expect(sensors.isResting, "at rest again by the end")
        // Rest: 4 reads a second (plus the loop's own), against ~100 at the full rate.
        let restWakeups = wakeupsAtRest.1 - wakeupsAtRest.0
        #expect(restWakeups <= 25, "\(restWakeups) wake-ups in 5 s at rest")
        #expect(content.samples(from: 5_000_000, to: 10_000_000) <= 21)
        // The full rate within the first resting interval after the tilt.
        let base = content.samples(from: 1_000_000, to: 2_000_000)
        #expect(base >= 50, "full rate before resting: \(base) samples in 1 s")
        #expect(content.samples(from: 10_300_000, to: 11_300_000) >= base - 2)
        // A finger down: full rate although nothing moves, for as long as it stays.
        #expect(content.samples(from: 17_000_000, to: 19_000_000) >= 2 * base - 4)
    }
}
