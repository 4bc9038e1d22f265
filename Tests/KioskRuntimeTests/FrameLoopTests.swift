#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import Platform
import Raster
import Sensors
import Trace
import Syscalls
import SystemFakes
import Testing

/// The live loop without hardware: fake DRM, a scripted touchscreen and a virtual kernel
/// drive whole frames, as on a stand.
@Suite struct FrameLoopTests {
    /// A re-landing within the 45 ms lift debounce, as the pattern's tap recognizer sees it.
    /// `late` hands the re-landing over 15 ms after it happened, in the same wake-up as the
    /// debounce deadline (a loop busy drawing meets both at once).
    /// When the lift at 100 ms is confirmed (the tap recognised) unless the finger lands again.
    private func debounceDeadline() -> Microseconds {
        let scene = TestPatternScene(say: { _ in })
        scene.attach(to: VirtualPanel(width: 480, height: 800), at: 0)
        scene.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(100, 100), time: 10_000, device: 1)]))
        scene.advance(to: 100_000)
        scene.handle(TouchFrame([TouchEvent(slot: 0, phase: .up, position: Vec2(100, 100), time: 100_000, device: 1)]))
        return scene.nextDeadline ?? 0
    }

    private func gestureLines(late: Bool) throws -> [String] {
        let events = VirtualEvents()
        var lines: [String] = []
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: TestPatternScene(say: { if $0.hasPrefix("gesture") { lines.append($0) } }),
                               settings: quietSettings())
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
        let screen = ScriptedTouchscreen(events: events)
        let p = Vec2(100, 100)
        screen.touch(.down, p, at: 10_000)
        screen.touch(.up, p, at: 100_000)
        screen.touch(.down, p, at: 130_000, delivered: late ? debounceDeadline() : nil)
        screen.touch(.up, p, at: 200_000)
        try frames.attachInput(screen)
        try frames.run()
        return lines
    }

    @Test func touchFramesAreHandledAtTheirOwnTimeBeforeDeadlines() throws {
        let onTime = try gestureLines(late: false)
        let late = try gestureLines(late: true)
        // The finger lifted and landed again within the debounce: one press, one tap.
        #expect(onTime.count == 1 && onTime.first?.hasPrefix("gesture tap") == true)
        #expect(late == onTime)
    }

    @Test func theOldOrderAdvancingToNowFirstLosesTheReLanding() throws {
        // What the loop did before: on a wake-up at 145 ms, advance to now, then handle the
        // frame that happened at 130 ms. The debounce deadline (145 ms) fires first.
        var lines: [String] = []
        let scene = TestPatternScene(say: { if $0.hasPrefix("gesture") { lines.append($0) } })
        scene.attach(to: VirtualPanel(width: 480, height: 800), at: 0)
        let p = Vec2(100, 100)
        func frame(_ phase: TouchPhase, _ t: Microseconds) -> TouchFrame {
            TouchFrame([TouchEvent(slot: 0, phase: phase, position: p, time: t, device: 1)])
        }
        scene.advance(to: 10_000); scene.handle(frame(.down, 10_000))
        scene.advance(to: 100_000); scene.handle(frame(.up, 100_000))
        let deadline = debounceDeadline()
        #expect(deadline > 130_000 && deadline < 200_000)
        scene.advance(to: deadline); scene.handle(frame(.down, 130_000))
        scene.advance(to: 200_000); scene.handle(frame(.up, 200_000))
        scene.advance(to: 1_000_000)
        // Two taps where the visitor made one press: the failure the loop's order prevents.
        #expect(lines.count == 2)
        #expect(lines != (try gestureLines(late: true)))
    }

    @Test func drmFramesWaitForTheFlipEventAndStopWhenNothingMoves() throws {
        let events = VirtualEvents()
        let (display, _, drm) = try fakeScanout(events: events)
        let content = CountingContent(animatingFrames: 30)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: quietSettings())
        try frames.start(display: display)
        try frames.run()
        // The first frame is drawn at once, then one per refresh, each as late before its
        // vblank as drawing allows (here drawing takes no time: the 2 ms margin), so the
        // flip event wakes the loop and a timer starts the frame.
        #expect(content.renders == 30)
        #expect(display.framesShown == 30 && frames.firstFrameShown)
        #expect(drm.atomicCommits.count == 1 + 30)   // the TEST_ONLY commit at set-up, then one per frame
        let gaps = zip(content.renderTimes.dropFirst(), content.renderTimes).map { $0 - $1 }
        #expect(gaps.dropFirst().allSatisfy { $0 >= 16_000 && $0 <= 16_667 }, "\(gaps)")
        let leads = content.renderTimes.dropFirst().map { ($0 / 16_667 + 1) * 16_667 - $0 }
        #expect(leads.allSatisfy { abs($0 - 2_000) <= 2 }, "drawn 2 ms before their vblank: \(leads.prefix(5))")
        // At rest nothing is armed: the loop ended because nothing could wake it.
        #expect(events.armedTimers == 0)
        #expect(frames.loop.wakeups <= 61)
    }

    @Test func aFlipWhoseEventNeverComesIsGivenUpAndFramesGoOn() throws {
        // The driver loses the fifth flip's event (Raspberry Pi's "flip_done timed out"):
        // a second later the loop gives it up, says so, sets the mode again and draws on.
        let events = VirtualEvents()
        let (display, system, drm) = try fakeScanout(events: events)
        var flips = 0
        drm.onFlip = { fd, data in
            flips += 1
            if flips == 5 { return }
            system.queueFlipEvent(fd: fd, userData: data, vblank: (events.now / 16_667 + 1) * 16_667)
        }
        let content = CountingContent(animatingFrames: 30)
        let said = Locked<[String]>([])
        let log = Log(minimum: .warning, sink: { level, line in if level == .warning { said.withLock { $0.append(line) } } })
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: log,
                               content: content, settings: quietSettings())
        try frames.start(display: display)
        try frames.run()
        #expect(content.renders == 30 && display.flipsLost == 1 && display.framesShown == 29)
        let warnings = said.withLock { $0 }
        #expect(warnings.count == 1 && warnings[0].contains("page flip was not completed within 1 s"), "\(warnings)")
        // The frame after the lost one waited the timeout, then went out with a modeset.
        let gaps = zip(content.renderTimes.dropFirst(), content.renderTimes).map { $0 - $1 }
        #expect(gaps.filter { $0 > 100_000 }.count == 1 && gaps.max()! >= FramePacing.flipTimeout)
        #expect(drm.atomicCommits.filter { $0.flags & 0x0400 != 0 }.count == 3)  // TEST_ONLY, first frame, after the loss
        let metrics = frames.health.metrics(now: events.now, visitors: nil, accelerometer: nil)
        #expect(metrics.contains("motionkiosk_display_flips_lost_total 1"))
        #expect(events.armedTimers == 0)
    }

    @Test func aStillFrameShownBySetCrtcIsAnnouncedWithoutAFlipEvent() throws {
        // Legacy modesetting shows the first frame with SetCrtc, which sends no flip event;
        // a still picture (the test pattern) never flips again, yet it is on screen.
        let events = VirtualEvents()
        let (display, _, drm) = try fakeScanout(events: events, atomic: false)
        let content = CountingContent(animatingFrames: 1)
        var said: [String] = []
        var settings = quietSettings()
        settings.say = { said.append($0) }
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: settings)
        try frames.start(display: display)
        try frames.run()
        #expect(drm.atomicCommits.isEmpty)
        #expect(content.renders == 1 && display.framesShown == 1)
        #expect(frames.firstFrameShown)
        #expect(said.contains { $0.hasPrefix("first frame on screen") })
    }

    @Test func theVirtualPanelIsPacedThroughTheSameCode() throws {
        let events = VirtualEvents()
        let content = CountingContent(animatingFrames: 60)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: quietSettings())
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
        try frames.run()
        #expect(content.renders == 60)
        // 60 frames a second: 59 periods of 16.667 ms from the first to the last.
        let span = content.renderTimes.last! - content.renderTimes.first!
        #expect(span >= 983_000 && span <= 983_400)
        #expect(events.armedTimers == 0)
    }

    @Test func aTouchOpensAnExhibitAndFramesFollowUntilItRests() throws {
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        var settings = KioskApp.Settings()
        settings.attractAfter = nil
        settings.idleTimeout = 5_000_000
        settings.order = ["grid-block"]
        let scene = KioskScene(settings: settings, fonts: try FontSet(), log: quietLog())
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: scene, settings: quietSettings())
        try frames.start(display: display)
        // The launcher's one tile, found in its state, tapped through the panel rotation.
        guard let tile = firstTileCentre(scene) else { Issue.record("no launcher tile"); return }
        let panel = display.screen.panelPoint(fromPortrait: tile)
        let screen = ScriptedTouchscreen(events: events)
        screen.touch(.down, panel, at: 1_000_000)
        screen.touch(.up, panel, at: 1_060_000)
        try frames.attachInput(screen)
        try frames.run()
        // The tap opened the exhibit; after the idle timeout it went back to the launcher.
        #expect(frames.framesPresented >= 3)
        #expect(display.framesShown == frames.framesPresented)
        if case .string(let shown)? = scene.app.state()["exhibit"] { #expect(shown == "launcher") }
        #expect(events.now >= 6_000_000)
        #expect(events.armedTimers == 0)
    }

    @Test func sigtermGivesTheDisplayAndConsoleBack() throws {
        let events = VirtualEvents()
        let (display, system, drm) = try fakeScanout(events: events)
        let console = TextConsole(system: system, path: "/dev/tty1")
        let content = CountingContent(animatingFrames: 1_000_000)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: quietSettings())
        try frames.leaveOnSignals()
        try frames.start(display: display, console: console)
        let kill = try frames.loop.addTimer { events.deliver(signal: SIGTERM) }
        try kill.arm(after: 500_000)
        try frames.run()
        #expect(content.renders > 20 && content.renders < 40)
        // The console's framebuffer is back on the CRTC, the VT in text mode, master dropped.
        #expect(drm.crtcSets.last?.fb == 42)
        #expect(drm.count(of: .dropMaster) > 0)
        #expect(system.ioctls.contains { $0.0 == 0x4B3A && $0.1 == 0 })   // KDSETMODE KD_TEXT
        #expect(!console.isGraphics)
    }

    @Test(arguments: [SIGHUP, SIGQUIT, SIGINT])
    func otherEndingSignalsAlsoGiveTheConsoleBack(signal: Int32) throws {
        // A closed SSH session (SIGHUP) or Ctrl-\\ (SIGQUIT) must not leave the VT in graphics.
        let events = VirtualEvents()
        let (display, system, drm) = try fakeScanout(events: events)
        let console = TextConsole(system: system, path: "/dev/tty1")
        var said: [String] = []
        var settings = quietSettings()
        settings.say = { said.append($0) }
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: CountingContent(animatingFrames: 1_000_000), settings: settings)
        try frames.leaveOnSignals()
        try frames.start(display: display, console: console)
        let kill = try frames.loop.addTimer { events.deliver(signal: signal) }
        try kill.arm(after: 200_000)
        try frames.run()
        #expect(said.contains { $0.hasSuffix(": leaving") && $0.hasPrefix("SIG") })
        #expect(drm.crtcSets.last?.fb == 42)
        #expect(!console.isGraphics)
    }

    @Test func sigusr1SaysHowItIsDoingAndGoesOn() throws {
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        var said: [String] = []
        var settings = quietSettings()
        settings.say = { said.append($0) }
        let content = CountingContent(animatingFrames: 60)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: settings)
        try frames.leaveOnSignals()
        try frames.start(display: display)
        let ask = try frames.loop.addTimer { events.deliver(signal: SIGUSR1) }
        try ask.arm(after: 500_000)
        try frames.run()
        // Still drawing after the question: all 60 frames, and one status line.
        #expect(content.renders == 60)
        let status = said.filter { $0.hasPrefix("SIGUSR1: showing counting, ") }
        #expect(status.count == 1)
        #expect(status.first?.contains(" frames, 0 touches in 0.5 s, on DRM card0") == true)
    }

    @Test(arguments: [true, false])
    func escapeEndsTheLoopOnlyWhereAllowed(escapeLeaves: Bool) throws {
        let events = VirtualEvents()
        var said: [String] = []
        var settings = quietSettings()
        settings.say = { said.append($0) }
        settings.escapeLeaves = escapeLeaves
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: CountingContent(animatingFrames: 0), settings: settings)
        try frames.leaveOnSignals(orAfter: 5)
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
        let keyboard = ScriptedTouchscreen(events: events)
        keyboard.key(1, at: 1_000_000)   // KEY_ESC
        keyboard.key(1, at: 2_000_000)
        try frames.attachInput(keyboard)
        try frames.run()
        if escapeLeaves {
            #expect(said.contains("Escape: leaving") && events.now < 1_100_000)
        } else {
            // The visitor's Escape is noted once, and the kiosk runs on to its end.
            #expect(said.filter { $0.hasPrefix("Escape pressed: the kiosk goes on") }.count == 1)
            #expect(events.now >= 5_000_000)
        }
    }

    @Test func replayJumpsOverIdleGaps() throws {
        // A checkpoint a day after the last touch costs no frames while nothing moves.
        let records: [TraceRecord] = [
            TraceRecord(t: 100, .touch(phase: .down, id: 0, x: 240, y: 400)),
            TraceRecord(t: 160, .touch(phase: .up, id: 0, x: 240, y: 400)),
            TraceRecord(t: 86_400_000, .checkpoint(name: "tomorrow")),
        ]
        let runner = try ReplayRunner(settings: .replay(exhibit: "grid-block", width: 480, height: 800, seed: 1),
                                      display: VirtualPanel(width: 480, height: 800), fonts: try FontSet(), log: quietLog())
        var seen: [String] = []
        runner.run(records) { seen.append($0.name) }
        #expect(seen == ["tomorrow"])
        #expect(runner.framesRendered < 2_000)
    }
}

/// Sensors through the loop: hot-plug, and what a recording keeps.
@Suite struct MotionThroughTheLoopTests {

    @Test func anAccelerometerPluggedInIsTakenAtOnceThroughUdev() throws {
        let tree = TempTree()
        tree.mkdir("sys"); tree.mkdir("dev")
        let events = VirtualEvents()
        let clock = MonotonicClock(events: events)
        var c = MotionSensorConfiguration()
        c.iioPaths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        c.i2cDevRoot = tree.path("dev")
        c.barometer = .none
        c.retryInterval = 600_000_000   // the retry schedule alone would take ten minutes
        let sensors = MotionSensors(configuration: c, clock: clock, log: RateLimitedLog(clock: clock, sink: { _ in }))
        let content = MotionLog()
        let udev = FakeUdev(events: events)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: clock, log: quietLog(), content: content, settings: quietSettings())
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: clock))
        frames.attachMotion(sensors, hotplug: udev)
        #expect(sensors.isFallingBack)
        // One second later a LIS3DH appears, lying on its left edge (gravity along −x).
        let plug = try frames.loop.addTimer {
            tree.addLIS3DH(raw: (-1000, 0, 0))
            udev.monitor!.push(UdevDevice(syspath: "/sys/bus/iio/devices/iio:device0", sysname: "iio:device0",
                                          subsystem: "iio", devnode: nil, action: "add"))
        }
        try plug.arm(after: 1_000_000)
        let leave = try frames.loop.addTimer { frames.loop.stop() }
        try leave.arm(after: 3_000_000)
        try frames.run()
        #expect(!sensors.isFallingBack)
        // Fixed down gravity first, then the device's: things fall toward the left edge's side.
        #expect(content.gravities.first == Vec2(0, 1))
        let last = content.gravities.last ?? .zero
        #expect(abs(last.x - 1) < 0.05 && abs(last.y) < 0.05)
    }
}

/// What is replayed at a desk is what happened on the floor.
@Suite struct RecordAndReplayTests {
    @Test func aRecordedRunReplaysToTheSameStateAtTheSameTime() throws {
        let tree = TempTree()
        tree.mkdir("sys"); tree.mkdir("dev")
        tree.addLIS3DH(raw: (0, 1000, 0))    // upright
        let events = VirtualEvents()
        let clock = MonotonicClock(events: events)
        var c = MotionSensorConfiguration()
        c.iioPaths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        c.i2cDevRoot = tree.path("dev")
        c.barometer = .none
        let sensors = MotionSensors(configuration: c, clock: clock, log: RateLimitedLog(clock: clock, sink: { _ in }))
        var settings = KioskApp.Settings.replay(exhibit: "tilt-box", width: 480, height: 800, seed: 7)
        settings.idleTimeout = nil
        let fonts = try FontSet()
        let scene = KioskScene(settings: settings, fonts: fonts, log: quietLog())
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: clock, log: quietLog(), content: scene, settings: quietSettings())
        let sink = MemoryTraceSink()
        var header = TraceHeader()
        header.exhibit = "tilt-box"; header.width = 480; header.height = 800; header.seed = 7
        frames.record(to: try TraceWriter(sink: sink, header: header))
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: clock))
        frames.attachMotion(sensors)
        // A visitor drags the object, then tilts the stand; a glitch reads as garbage.
        let screen = ScriptedTouchscreen(events: events)
        for k in 0...20 { screen.touch(k == 0 ? .down : .move, Vec2(240 + Double(k) * 5, 400 + Double(k) * 3), at: 500_000 + Int64(k) * 16_000) }
        screen.touch(.up, Vec2(340, 460), at: 900_000)
        try frames.attachInput(screen)
        let tilt = try frames.loop.addTimer { tree.write("sys/iio:device0/in_accel_x_raw", "-700\n") }
        try tilt.arm(after: 1_200_000)
        let glitch = try frames.loop.addTimer { tree.write("sys/iio:device0/in_accel_y_raw", "nan\n") }
        try glitch.arm(after: 1_500_000)
        let leave = try frames.loop.addTimer { frames.loop.stop() }
        try leave.arm(after: 2_500_000)
        try frames.run()
        let live = scene.app.state()

        let (readHeader, records) = try TraceReader.trace(in: sink.text)
        #expect(readHeader.seed == 7 && readHeader.exhibit == "tilt-box")
        #expect(records.contains { if case .accel = $0.payload { return true } else { return false } })
        #expect(records.last?.payload == .checkpoint(name: "end"))
        let runner = try ReplayRunner(settings: .replay(exhibit: "tilt-box", width: 480, height: 800, seed: 7),
                                      display: VirtualPanel(width: 480, height: 800), fonts: fonts, log: quietLog())
        var replayed: JSONValue?
        runner.run(records) { if $0.name == "end" { replayed = $0.state } }
        #expect(replayed?.serialized() == live.serialized())
        #expect(!(live.serialized().contains("nan")))
    }
}
