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

/// The black box: the last minutes in RAM, dumps that replay to the stand's state.
@Suite struct BlackBoxTests {
    /// A stand from its launcher with a polled accelerometer, a visitor, an idle reset, the
    /// attract loop and a second visitor; `dumpAt` are the moments SIGUSR1 arrives.
    final class Stand {
        let tree = TempTree()
        let events = VirtualEvents()
        let clock: MonotonicClock
        let scene: KioskScene
        let frames: FrameLoop
        let folder: String
        let panel: VirtualPanel

        /// The stand's file: the attract loop opens with tilt-box (its box follows gravity),
        /// and a slow gravity filter (2 s) is still on its way at a restart point, so a replay
        /// that started it afresh would tilt the box differently.
        static let configurationText = """
            [exhibits]
            order = ["tilt-box", "motion-cube", "newtons-cradle"]
            idle_seconds = 5
            attract_after_seconds = 10
            [sensors]
            gravity_time_constant_ms = 2000

            """
        let configuration: KioskConfiguration

        init(system: any SystemCalls = LinuxSystem.shared, box: (inout BlackBoxSettings) -> Void = { _ in }) throws {
            tree.mkdir("sys"); tree.mkdir("dev")
            tree.addLIS3DH(raw: (0, 1000, 0))
            self.clock = MonotonicClock(events: events)
            configuration = try KioskConfiguration.parse(Stand.configurationText, file: "stand.toml")
            var settings = configuration.kioskSettings
            settings.seed = 99
            scene = KioskScene(settings: settings, fonts: try FontSet(), log: quietLog())
            folder = tree.path("blackbox")
            var loopSettings = quietSettings()
            loopSettings.system = system
            var b = try #require(configuration.blackBoxSettings(kiosk: settings, text: Stand.configurationText))
            b.folder = folder
            b.window = 4_000_000
            b.wallClock = { 1_790_000_000 }
            // These stands are asked for dumps a second or more apart.
            b.askedQuiet = 1_000_000
            box(&b)
            loopSettings.blackBox = b
            panel = VirtualPanel(width: 480, height: 800, clock: clock)
            frames = FrameLoop(loop: try EventLoop(events: events), clock: clock, log: quietLog(), content: scene, settings: loopSettings)
            try frames.leaveOnSignals()
            try frames.start(display: panel)
        }

        func attachSensors() {
            var c = configuration.motionSensors
            c.iioPaths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
            c.i2cDevRoot = tree.path("dev")
            c.barometer = .none
            frames.attachMotion(MotionSensors(configuration: c, clock: clock, log: RateLimitedLog(clock: clock, sink: { _ in })))
        }

        func at(_ time: Microseconds, _ body: @escaping () -> Void) throws {
            let timer = try frames.loop.addTimer(body)
            try timer.arm(after: time)
        }

        /// Dump folders, oldest first.
        var dumps: [String] { LinuxSystem.shared.listDirectory(folder).filter { !$0.hasPrefix(".") }.map { folder + "/" + $0 } }
    }

    /// The dump's trace, replayed as `motionkiosk replay FOLDER` does, against its state.json.
    static func replayState(_ dump: String) throws -> (replayed: String, stand: String, header: TraceHeader) {
        let text = try readTextFile(dump + "/trace.jsonl", limit: TextFileLimit.trace)
        let (header, records) = try TraceReader.trace(in: text)
        // The header's exhibit, or the launcher (nil) as `motionkiosk replay` reads it.
        let exhibit = header.exhibit.flatMap { $0 == "launcher" ? nil : ExhibitType(stringLiteral: $0) }
        var settings = header.replaySettings(exhibit: exhibit, width: header.width ?? 480, height: header.height ?? 800)
        var motion = header.motionSettings
        let configuration = try KioskConfiguration.parse(try readTextFile(dump + "/config.toml"), file: dump + "/config.toml")
        configuration.applyStand(to: &settings, exhibit: exhibit)
        configuration.applyStand(to: &motion)
        let runner = try ReplayRunner(settings: settings, display: VirtualPanel(width: settings.width, height: settings.height),
                                      fonts: try FontSet(), log: quietLog(), motion: motion, resuming: header.resuming)
        var replayed = ""
        runner.run(records) { checkpoint in if checkpoint.name == "blackbox" { replayed = checkpoint.state.serialized() } }
        var stand = try readTextFile(dump + "/state.json")
        if stand.hasSuffix("\n") { stand.removeLast() }
        return (replayed, stand, header)
    }

    @Test func dumpsFromTheVisitTheIdleResetAndTheAttractLoopReplayToTheStandsState() throws {
        let stand = try Stand()
        stand.attachSensors()
        let screen = ScriptedTouchscreen(events: stand.events)
        try stand.frames.attachInput(screen)
        let tile = try #require(firstTileCentre(stand.scene))
        // A visitor opens the first exhibit and drags across it while tilting the stand.
        screen.touch(.down, tile, at: 500_000)
        screen.touch(.up, tile, at: 580_000)
        for k in 0...40 { screen.touch(k == 0 ? .down : .move, Vec2(200 + Double(k) * 4, 420 + Double(k) * 2), at: 1_000_000 + Int64(k) * 16_000) }
        screen.touch(.up, Vec2(360, 500), at: 1_700_000)
        try stand.at(1_200_000) { stand.tree.write("sys/iio:device0/in_accel_x_raw", "-500\n") }
        try stand.at(2_100_000) { stand.tree.write("sys/iio:device0/in_accel_x_raw", "-20\n") }
        try stand.at(3_000_000) { stand.events.deliver(signal: SIGUSR1) }   // mid-visit: from the start
        // The slow filter reaches the last tilt late: idle reset about 9.8 s, attract from
        // about 19.8 s, while the stand sits gently rocking.
        for k in 0..<27 { try stand.at(8_000_000 + Int64(k) * 600_000) { stand.tree.write("sys/iio:device0/in_accel_x_raw", k % 2 == 0 ? "25\n" : "-45\n") } }
        try stand.at(22_000_000) { stand.events.deliver(signal: SIGUSR1) }  // in the attract loop
        // A second visitor stops the demo and plays.
        screen.touch(.down, Vec2(240, 600), at: 24_000_000)
        screen.touch(.up, Vec2(240, 600), at: 24_080_000)
        screen.touch(.down, tile, at: 24_500_000)
        screen.touch(.up, tile, at: 24_580_000)
        for k in 0...30 { screen.touch(k == 0 ? .down : .move, Vec2(300 - Double(k) * 3, 500 + Double(k) * 3), at: 25_000_000 + Int64(k) * 16_000) }
        screen.touch(.up, Vec2(210, 590), at: 25_600_000)
        try stand.at(26_000_000) { stand.events.deliver(signal: SIGUSR1) }   // from the attract demo
        try stand.at(26_500_000) { stand.frames.loop.stop() }
        try stand.frames.run()

        let dumps = stand.dumps
        #expect(dumps.count == 3, "\(dumps)")
        var starts: [TraceResumePoint] = []
        for dump in dumps {
            let (replayed, state, header) = try Self.replayState(dump)
            #expect(!state.isEmpty && replayed == state, "\(dump): the replay reaches the stand's state; they part at: \(firstDifference(state, replayed))")
            let resuming = try #require(header.resuming, "\(dump) starts at a restart point")
            starts.append(resuming)
            #expect(readTextFileOrNil(dump + "/config.toml") == Stand.configurationText)
            let png = try readPNG(path: dump + "/screen.png")
            #expect(png.width == 480 && png.height == 800)
        }
        // From the start; from the idle reset (the window is 4 s); from the attract loop's first demo.
        #expect(starts.count == 3)
        if starts.count == 3 {
            #expect(starts[0].elapsed == 0 && starts[0].attract == nil)
            #expect(starts[1].elapsed > 5_000_000 && starts[1].attract == nil && starts[1].idleFor == 0)
            #expect(starts[2].attract == "tilt-box" && starts[2].idleFor >= 10_000_000)
            #expect(starts[1].filteredGravity != nil && starts[1].filteredGravityTime != nil)
        }
        // The stand really moved on between them: not three copies of one state.
        let states = try dumps.map { try readTextFile($0 + "/state.json") }
        #expect(Set(states).count == 3)
    }

    @Test func aLongVisitOverflowsIntoAPartialDumpAndTheRingStaysBounded() throws {
        let stand = try Stand { $0.capacity = 64 }
        let screen = ScriptedTouchscreen(events: stand.events)
        try stand.frames.attachInput(screen)
        let tile = try #require(firstTileCentre(stand.scene))
        screen.touch(.down, tile, at: 300_000)
        screen.touch(.up, tile, at: 380_000)
        for k in 0...200 { screen.touch(k == 0 ? .down : .move, Vec2(200 + Double(k % 40) * 4, 420), at: 1_000_000 + Int64(k) * 10_000) }
        screen.touch(.up, Vec2(240, 420), at: 3_100_000)
        try stand.at(3_200_000) { stand.events.deliver(signal: SIGUSR1) }
        try stand.at(3_300_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        let dump = try #require(stand.dumps.first)
        let text = try readTextFile(dump + "/trace.jsonl", limit: TextFileLimit.trace)
        let (header, records) = try TraceReader.trace(in: text)
        #expect(header.resuming == nil, "its start was dropped")
        #expect(text.contains("# partial"))
        #expect(records.count <= 65 && records.count >= 48, "at most the capacity (and the checkpoint)")
        #expect(records.last?.payload == .checkpoint(name: "blackbox"))
    }

    @Test func onlyTheNewestDumpsAreKept() throws {
        var clockSeconds = 1_790_000_000.0
        let stand = try Stand { box in
            box.keep = 2
            box.wallClock = { clockSeconds }
        }
        for k in 1...4 { try stand.at(Int64(k) * 1_000_000) { clockSeconds += 1; stand.events.deliver(signal: SIGUSR1) } }
        try stand.at(4_500_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        let names = stand.dumps.map { String($0.split(separator: "/").last!) }
        #expect(names.count == 2)
        #expect(names.allSatisfy { $0.hasSuffix("-sigusr1") })
        // 1_790_000_003 and _004 s: the last two, whatever the time zone's minutes.
        let t3 = WallClock.local(1_790_000_003), t4 = WallClock.local(1_790_000_004)
        #expect(names.first?.contains("-\(t3.second < 10 ? "0" : "")\(t3.second)-sigusr1") == true)
        #expect(names.last?.contains("-\(t4.second < 10 ? "0" : "")\(t4.second)-sigusr1") == true)
    }

    /// The local time of `seconds` as dump names carry it.
    static func stamp(_ seconds: Int64) -> String {
        let t = WallClock.local(seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour))-\(two(t.minute))-\(two(t.second))"
    }

    /// A folder shared with other data: pruning removes only the kiosk's own dumps, and of
    /// an old dump folder only the files a dump holds.
    @Test func pruningRemovesOnlyTheKiosksOwnDumps() throws {
        let stand = try Stand { $0.keep = 2 }
        let tree = stand.tree
        tree.write("blackbox/photos/visitor.jpg", "jpeg")
        tree.write("blackbox/0000-archive/readme.txt", "keep me")
        tree.write("blackbox/2026-notes.txt", "notes")
        tree.write("blackbox/2026-11-20T10-00-00-sigusr1/trace.jsonl", "{}\n")
        tree.write("blackbox/2026-11-20T10-00-00-sigusr1/notes.txt", "a technician's notes")
        tree.write("blackbox/2026-11-21T10-00-00-stall/trace.jsonl", "{}\n")
        var written: [String] = []
        try stand.at(1_000_000) { for _ in 0..<4 { if let d = stand.frames.dumpBlackBox(reason: "sigusr1") { written.append(d.folder) } } }
        try stand.at(1_500_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        #expect(written.count == 4)
        #expect(tree.read("blackbox/photos/visitor.jpg") == "jpeg")
        #expect(tree.read("blackbox/0000-archive/readme.txt") == "keep me")
        #expect(tree.read("blackbox/2026-notes.txt") == "notes")
        // The older dumps went first; what someone added to one stays, with its folder.
        #expect(tree.read("blackbox/2026-11-20T10-00-00-sigusr1/notes.txt") == "a technician's notes")
        #expect(tree.read("blackbox/2026-11-20T10-00-00-sigusr1/trace.jsonl") == nil)
        #expect(tree.read("blackbox/2026-11-21T10-00-00-stall/trace.jsonl") == nil)
        let left = Set(LinuxSystem.shared.listDirectory(stand.folder))
        #expect(left == Set(["photos", "0000-archive", "2026-notes.txt", "2026-11-20T10-00-00-sigusr1"])
                .union(written.suffix(2).map { String($0.split(separator: "/").last!) }), "\(left)")
    }

    /// Twelve dumps in one second: the newest ten stay (not those whose names sort last as
    /// text), and no name is ever given twice.
    @Test func manyDumpsInOneSecondKeepTheNewestAndNeverReuseAName() throws {
        let stand = try Stand()
        var written: [String] = []
        try stand.at(1_000_000) { for _ in 0..<12 { if let d = stand.frames.dumpBlackBox(reason: "sigusr1") { written.append(d.folder) } } }
        try stand.at(1_200_000) { if let d = stand.frames.dumpBlackBox(reason: "stall") { written.append(d.folder) } }
        try stand.at(1_500_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        #expect(written.count == 13 && Set(written).count == 13, "\(written)")
        #expect(stand.dumps == Array(written.suffix(10)), "the newest ten, in the order written: \(stand.dumps)")
        let stamp = Self.stamp(1_790_000_000)
        #expect(written.first == stand.folder + "/00000001-\(stamp)-sigusr1")
        #expect(written.last == stand.folder + "/00000013-\(stamp)-stall")
    }

    /// Hundreds of SIGUSR1 in a second (a script in a loop) write one dump; the status line
    /// still comes for each.
    @Test func aFloodOfAskedDumpsWritesOnePerQuietTime() throws {
        let stand = try Stand { $0.askedQuiet = 10_000_000 }
        for k in 0..<200 { try stand.at(1_000_000 + Int64(k) * 5_000) { stand.events.deliver(signal: SIGUSR1) } }
        try stand.at(11_500_000) { stand.events.deliver(signal: SIGUSR1) }
        try stand.at(12_000_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        #expect(stand.dumps.count == 2, "\(stand.dumps)")
    }

    /// A hidden folder planted at the name the next dump would be written under (a link to
    /// somewhere else) is not written into.
    @Test func aPlantedTemporaryFolderIsNeverWrittenInto() throws {
        let stand = try Stand()
        stand.tree.write("elsewhere/trace.jsonl", "theirs")
        stand.tree.mkdir("blackbox")
        #expect(symlink(stand.tree.path("elsewhere"), stand.folder + "/.00000001-\(Self.stamp(1_790_000_000))-sigusr1") == 0)
        var dump: BlackBoxDump?
        try stand.at(1_000_000) { dump = stand.frames.dumpBlackBox(reason: "sigusr1") }
        try stand.at(1_500_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        #expect(LinuxSystem.shared.listDirectory(stand.tree.path("elsewhere")) == ["trace.jsonl"])
        #expect(stand.tree.read("elsewhere/trace.jsonl") == "theirs", "nothing written there, nothing pruned through the link")
        #expect(dump?.folder == stand.folder + "/00000002-\(Self.stamp(1_790_000_000))-sigusr1")
    }

    @Test func aFullDiskLeavesNoHalfDumpAndTheStandRunsOn() throws {
        // Room for the first dump, not for the second.
        let disk = FileSystemWithFaults()
        var clockSeconds = 1_790_000_000.0
        let stand = try Stand(system: disk) { box in box.wallClock = { clockSeconds } }
        var first: BlackBoxDump?, second: BlackBoxDump? = nil, secondTried = false
        try stand.at(1_000_000) { first = stand.frames.dumpBlackBox(reason: "sigusr1") }
        try stand.at(2_000_000) {
            clockSeconds += 1
            // The disk fills after the second dump's first write.
            disk.fail(.write, nth: 2, errno: ENOSPC, times: .max)
            second = stand.frames.dumpBlackBox(reason: "sigusr1")
            secondTried = true
        }
        try stand.at(3_000_000) { stand.frames.loop.stop() }
        try stand.frames.run()
        #expect(first != nil)
        #expect(secondTried && second == nil, "the full disk is reported, not a dump")
        #expect(disk.failures.contains { $0.call == .write })
        let everything = LinuxSystem.shared.listDirectory(stand.folder)
        #expect(everything.count == 1, "the first dump stays and nothing of the second: \(everything)")
        if let kept = stand.dumps.first {
            #expect(LinuxSystem.shared.listDirectory(kept) == ["config.toml", "screen.png", "state.json", "trace.jsonl"])
            #expect((try? readPNG(path: kept + "/screen.png"))?.width == 480, "the screen written through the seam is a PNG")
        }
    }

    /// A clock that a slow frame pushes forward, as a stall would.
    final class StallingClock: Clock {
        let events: VirtualEvents
        var extra: Microseconds = 0
        init(events: VirtualEvents) { self.events = events }
        var now: Microseconds { events.now + extra }
    }

    @Test func aFrameStallWritesOneDump() throws {
        let events = VirtualEvents()
        let clock = StallingClock(events: events)
        let content = CountingContent(animatingFrames: 400)
        var loopSettings = quietSettings()
        let tree = TempTree()
        var box = BlackBoxSettings()
        box.folder = tree.path("blackbox")
        box.stall = 1_000_000
        loopSettings.blackBox = box
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: clock, log: quietLog(), content: content, settings: loopSettings)
        try frames.start(display: VirtualPanel(width: 480, height: 800))
        // Twice, a frame's drawing takes 1.5 s; the second is within the quiet time.
        let slow = try frames.loop.addTimer { clock.extra += 1_500_000 }
        try slow.arm(after: 1_000_000)
        let slowAgain = try frames.loop.addTimer { clock.extra += 1_500_000 }
        try slowAgain.arm(after: 3_000_000)
        let leave = try frames.loop.addTimer { frames.loop.stop() }
        try leave.arm(after: 5_000_000)
        try frames.run()
        let dumps = LinuxSystem.shared.listDirectory(box.folder).filter { !$0.hasPrefix(".") }
        #expect(dumps.count == 1)
        #expect(dumps.first?.hasSuffix("-stall") == true)
    }
}

private func readTextFileOrNil(_ path: String) -> String? { try? readTextFile(path) }

/// Where two texts part, with a little of each.
private func firstDifference(_ a: String, _ b: String) -> String {
    let x = Array(a.utf8), y = Array(b.utf8)
    var i = 0
    while i < min(x.count, y.count) && x[i] == y[i] { i += 1 }
    func around(_ bytes: [UInt8]) -> String { String(decoding: bytes[max(0, i - 40)..<min(bytes.count, i + 40)], as: UTF8.self) }
    return "byte \(i): …\(around(x))… vs …\(around(y))…"
}
