#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import Platform
import Raster
import Sensors
import Syscalls
import SystemFakes
import Testing
import Trace

/// What `--record` writes, and what the black box dumps, replay to the state the stand
/// reached, bit for bit: a tilt-box stand tilted against a wall for several seconds (the stand
/// rests and polls slowly, the box rests pressed into the border and wakes again).
@Suite struct RecordReplayTests {
    static let configurationText = """
        [exhibits]
        locked = "tilt-box"
        [sensors]
        gravity_time_constant_ms = 300

        """

    /// How the stand's accelerometer hands over its samples.
    enum Sampling: CustomStringConvertible {
        /// Polled IIO read in the loop: each sample carries the time it was read.
        case polledIIO
        /// Samples stamped when measured and handed over at the next poll, as the kiosk's
        /// reader thread does (its reads can take tens of ms): some are older than the last
        /// frame the loop drew by then.
        case stampedBeforeTheyArrive
        var description: String { self == .polledIIO ? "polled IIO" : "stamped before they arrive" }
    }

    struct Run { var trace: String; var state: String; var dump: String? }

    /// The stand tilted in steps for `seconds`: its recording, its state, and a black-box
    /// dump written as it stopped.
    static func recordStand(seconds: Double, sampling: Sampling, tree: TempTree) throws -> Run {
        tree.mkdir("sys"); tree.mkdir("dev")
        tree.addLIS3DH(raw: (0, 1000, 0))
        // A stand does not start at 0 on the monotonic clock.
        let events = VirtualEvents(start: 73_456_789)
        let clock = MonotonicClock(events: events)
        let configuration = try KioskConfiguration.parse(configurationText, file: "stand.toml")
        let stand = try RecordingStand(configuration: configuration, text: configurationText, seed: 7,
                                       blackBoxFolder: tree.path("blackbox"), events: events, clock: clock)
        let (scene, frames, sink) = (stand.scene, stand.frames, stand.sink)
        try frames.leaveOnSignals(orAfter: seconds)
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: clock))
        var c = configuration.motionSensors
        c.iioPaths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        c.i2cDevRoot = tree.path("dev")
        c.barometer = .none
        switch sampling {
        case .polledIIO:
            for step in tiltAgainstAWall {
                let timer = try frames.loop.addTimer {
                    tree.write("sys/iio:device0/in_accel_x_raw", "\(step.x)\n")
                    tree.write("sys/iio:device0/in_accel_y_raw", "\(step.y)\n")
                }
                try timer.arm(after: step.at)
            }
        case .stampedBeforeTheyArrive:
            // 400 samples a second, handed over every 10 ms, with a little sensor noise.
            var samples: [AccelerationSample] = []
            var step = 0, noise = SeededGenerator(seed: 5)
            for k in 0..<Int(seconds * 400) {
                let t = Microseconds(k) * 2_500
                while step + 1 < tiltAgainstAWall.count, tiltAgainstAWall[step + 1].at <= t { step += 1 }
                let raw = t < tiltAgainstAWall[0].at ? (x: 0, y: 1000) : (x: tiltAgainstAWall[step].x, y: tiltAgainstAWall[step].y)
                func value(_ r: Int) -> Double { Double(r) * 0.009806 + (noise.unit() - 0.5) * 0.05 }
                samples.append(AccelerationSample(time: t, vector: Vec3(value(raw.x), value(raw.y), 0.2)))
            }
            c.accelerometer = .replay(samples, loops: false)
        }
        frames.attachMotion(MotionSensors(configuration: c, clock: clock, log: RateLimitedLog(clock: clock, sink: { _ in })))
        var dump: String?
        let stop = try frames.loop.addTimer {
            dump = frames.dumpBlackBox(reason: "test")?.folder
            frames.loop.stop()
        }
        try stop.arm(after: Microseconds(seconds * 1_000_000) - 1)
        try frames.run()
        return Run(trace: sink.text, state: scene.app.state().serialized(), dump: dump)
    }

    /// The trace replayed as `motionkiosk replay TRACE --config stand.toml` does; the state at
    /// `checkpoint`.
    static func replay(_ trace: String, checkpoint name: String) throws -> String {
        let (header, records) = try TraceReader.trace(in: trace)
        // The header's exhibit, or the launcher (nil) as `motionkiosk replay` reads it.
        let exhibit = header.exhibit.flatMap { $0 == "launcher" ? nil : ExhibitType(stringLiteral: $0) }
        var settings = header.replaySettings(exhibit: exhibit, width: header.width ?? 480, height: header.height ?? 800)
        var motion = header.motionSettings
        let configuration = try KioskConfiguration.parse(configurationText, file: "stand.toml")
        configuration.applyStand(to: &settings, exhibit: exhibit)
        configuration.applyStand(to: &motion)
        let runner = try ReplayRunner(settings: settings, display: VirtualPanel(width: 480, height: 800),
                                      fonts: try FontSet(), log: quietLog(), motion: motion, resuming: header.resuming)
        var end = ""
        runner.run(records) { checkpoint in if checkpoint.name == name { end = checkpoint.state.serialized() } }
        return end
    }

    /// Tilted right against the wall, rocked a little there (the box rests pressed into the
    /// border, the stand rests and polls slowly), then up into the corner and back down.
    static let tiltAgainstAWall: [(at: Microseconds, x: Int, y: Int)] = [
        (300_000, -600, 800), (1_400_000, -620, 790), (2_600_000, -610, 800), (3_900_000, -605, 805),
        (4_700_000, -400, -300), (5_300_000, -410, -310), (6_100_000, 300, 900),
    ]

    static let cases: [(Double, Sampling)] = [(2, .polledIIO), (7, .polledIIO), (2, .stampedBeforeTheyArrive),
                                              (4.5, .stampedBeforeTheyArrive), (7, .stampedBeforeTheyArrive)]

    @Test(arguments: cases)
    func aRecordingAndADumpReplayToTheStandsStateBitForBit(seconds: Double, sampling: Sampling) throws {
        let tree = TempTree()
        let run = try Self.recordStand(seconds: seconds, sampling: sampling, tree: tree)
        #expect(!run.state.contains("\"touching\":null"), "the box reached a wall: \(run.state)")
        let replayed = try Self.replay(run.trace, checkpoint: "end")
        #expect(!replayed.isEmpty && replayed == run.state, "\(sampling), \(seconds) s: live \(run.state)\nreplayed \(replayed)")
        let dump = try #require(run.dump)
        let dumped = try readTextFile(dump + "/trace.jsonl", limit: TextFileLimit.trace)
        var stand = try readTextFile(dump + "/state.json")
        if stand.hasSuffix("\n") { stand.removeLast() }
        let fromDump = try Self.replay(dumped, checkpoint: "blackbox")
        #expect(!fromDump.isEmpty && fromDump == stand, "\(sampling), \(seconds) s: the dump replays to \(fromDump)\nthe stand was \(stand)")
    }
}
