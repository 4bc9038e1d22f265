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
import Syscalls
import SystemFakes
import Testing

/// `motionkiosk calibrate [--save]` end to end below its flags: the calibration screen in the
/// frame loop on a fake DRM display (800x480, turned to portrait), four touches from a touch
/// panel that reports skewed and offset, the `[touch]` line it says, and the configuration
/// file `--save` writes, read back as a reload reads it.
@Suite(.serialized) struct CalibrationSessionTests {
    /// The panel reports the normalised point p as `skew(p)`: glued a little turned and
    /// stretched, and shifted.
    static let skew = TouchCalibration.affine(libinput: [1.04, 0.03, -0.025, -0.02, 0.96, 0.035])!
    static let original = "# the stand in the hall\n[display]\nmax_fps = 30\n\n[touch]\n# mounted upright\ntransform = \"none\"\n"

    struct Run {
        var said: [String] = []
        var targets: [Vec2] = []
        var screen = ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .r90)
        /// What the panel reports for a finger on portrait point `p` (panel pixels).
        func reported(_ p: Vec2) -> Vec2 {
            let panel = screen.panelPoint(fromPortrait: p)
            let w = Double(screen.panelWidth), h = Double(screen.panelHeight)
            let s = CalibrationSessionTests.skew.apply(Vec2(panel.x / w, panel.y / h))
            return Vec2(s.x * w, s.y * h)
        }
    }

    func file(_ name: String) -> String { "/tmp/motionkiosk-calibrate-\(getpid())-\(name).toml" }

    /// Runs the session for 8 virtual seconds on `path` with `touches(targets)`: the portrait
    /// points touched in turn, one a second from 1 s, each lifted after 100 ms.
    /// `meanwhile` runs once the screen shows, before the loop.
    func calibrate(path: String, save: Bool, touches: ([Vec2]) -> [Vec2], startsAgain: Bool = false,
                   meanwhile: (PluggedScreen) throws -> Void = { _ in }) throws -> Run {
        var run = Run()
        let events = VirtualEvents()
        let (display, _, drm) = try fakeScanout(events: events)
        let udev = FakeUdev(events: events)
        run.screen = display.screen
        let configuration = try loadConfiguration(path, warn: { _ in })
        let box = SaidLines()
        let session = try CalibrationSession(configuration: configuration, configurationPath: path, save: save, fonts: try FontSet(),
                                             loop: try EventLoop(events: events), clock: MonotonicClock(events: events),
                                             log: quietLog(), seconds: 8, say: { box.lines.append($0) })
        let touchscreen = ScriptedTouchscreen(events: events)
        try session.show(.drm(display), settings: DisplaySettings(), udev: udev, console: { TextConsole(system: FakeSystem()) },
                         openInput: { () throws(SystemError) -> any InputEventSource in touchscreen })
        run.targets = session.scene.targets
        #expect(run.targets.count == 4)
        for (i, p) in touches(run.targets).enumerated() {
            let at = Microseconds(i + 1) * 1_000_000
            touchscreen.touch(.down, run.reported(p), at: at)
            touchscreen.touch(.up, run.reported(p), at: at + 100_000)
        }
        let screen = PluggedScreen(loop: session.frames.loop, drm: drm, udev: udev)
        try meanwhile(screen)
        #expect(try session.run() == startsAgain)
        run.said = box.lines
        return run
    }
    final class SaidLines { var lines: [String] = [] }

    @Test func aSkewedOffsetPanelIsCalibratedAndSavedAndTheFileReloadsToAPixelOfEachTarget() throws {
        let path = file("saved")
        defer { unlink(path) }
        try writeTextFile(path, Self.original)
        let run = try calibrate(path: path, save: true, touches: { $0 })
        let line = try #require(run.said.first { $0.hasPrefix("calibration = [") }, "\(run.said)")
        #expect(run.said.contains("[touch]"))
        #expect(run.said.contains("calibrate: written to \(path); apply it with: systemctl reload motionkiosk"), "\(run.said)")
        // The file: the line in its [touch] table, everything else as it was.
        let written = try readTextFile(path)
        #expect(written == Self.original + line + "\n", "\(written)")
        // Read back as a reload reads it, the panel's reports land within a pixel of each target.
        let reloaded = try loadConfiguration(path, warn: { Issue.record("warning: \($0)") })
        #expect(reloaded.display.maxFramesPerSecond == 30)
        var translator = TouchTranslator(screen: run.screen)
        translator.calibration = reloaded.touchCalibration
        for (slot, target) in run.targets.enumerated() {
            let r = run.reported(target)
            _ = translator.translate(.touchDown(device: 1, slot: Int32(slot), x: r.x, y: r.y, time: 1))
            guard case .touches(let frame)? = translator.translate(.touchFrame(device: 1, time: 1)).first else {
                Issue.record("no touch frame for target \(slot)")
                continue
            }
            let landed = frame.events[0].position
            #expect(landed.distance(to: target) <= 1, "target \(slot): \(landed) for \(target)")
            _ = translator.translate(.touchUp(device: 1, slot: Int32(slot), time: 2))
            _ = translator.translate(.touchFrame(device: 1, time: 2))
        }
        // Uncalibrated, the same panel misses the targets by far more.
        var raw = TouchTranslator(screen: run.screen)
        _ = raw.translate(.touchDown(device: 1, slot: 0, x: run.reported(run.targets[0]).x, y: run.reported(run.targets[0]).y, time: 1))
        if case .touches(let frame)? = raw.translate(.touchFrame(device: 1, time: 1)).first {
            #expect(frame.events[0].position.distance(to: run.targets[0]) > 10)
        }
    }

    @Test func withoutSaveTheLineIsSaidAndTheFileIsLeftAlone() throws {
        let path = file("unsaved")
        defer { unlink(path) }
        try writeTextFile(path, Self.original)
        let run = try calibrate(path: path, save: false, touches: { $0 })
        #expect(run.said.contains { $0.hasPrefix("calibration = [") }, "\(run.said)")
        #expect(!run.said.contains { $0.hasPrefix("calibrate: written") })
        #expect(try readTextFile(path) == Self.original)
    }

    /// Calibrates with `touches` and expects no line said and the file left as it was.
    func expectNothingSaidOrWritten(_ name: String, touches: ([Vec2]) -> [Vec2]) throws {
        let path = file(name)
        defer { unlink(path) }
        try writeTextFile(path, Self.original)
        let run = try calibrate(path: path, save: true, touches: touches)
        #expect(!run.said.contains { $0 == "[touch]" || $0.hasPrefix("calibration = ") }, "\(run.said)")
        #expect(try readTextFile(path) == Self.original)
    }

    @Test func anUnfinishedCalibrationWritesNothing() throws {
        try expectNothingSaidOrWritten("unfinished", touches: { Array($0.prefix(3)) })
    }

    /// The fourth touch slips 60 px: the four no longer agree with one panel error, and a fit
    /// through them would put every touch off; nothing is said or written.
    @Test func touchesThatDisagreeWriteNothing() throws {
        try expectNothingSaidOrWritten("slipped", touches: { t in [t[0], t[1], t[2], t[3] + Vec2(-60, 0)] })
    }

    /// The file was changed while calibrating into one a reload would refuse: the line is said,
    /// the file stays as it is, and why is said with the file's name.
    @Test func aFileAReloadWouldRefuseIsNotWritten() throws {
        let path = file("refused")
        defer { unlink(path) }
        try writeTextFile(path, Self.original)
        let broken = "[display]\nmax_fps = \"fast\"\n"
        let run = try calibrate(path: path, save: true, touches: { $0 }, meanwhile: { _ in try writeTextFile(path, broken) })
        #expect(run.said.contains { $0.hasPrefix("calibration = [") })
        let refusal = try #require(run.said.first { $0.hasPrefix("calibrate: not saved: ") }, "\(run.said)")
        #expect(refusal.contains(path), "\(refusal)")
        #expect(try readTextFile(path) == broken)
    }

    /// The screen goes dark between the first and second target and comes back before the
    /// third: the calibration goes on and is saved; the screen back with another mode starts
    /// the calibration again for its size (a fresh process, as `run` does).
    @Test func theScreenUnpluggedAndBackIsFollowed() throws {
        let path = file("hotplug")
        defer { unlink(path) }
        try writeTextFile(path, Self.original)
        let run = try calibrate(path: path, save: true, touches: { $0 }) { screen in
            let modes = screen.drm.card.connectors[0].modes
            try screen.plug([], at: 1_500_000)
            try screen.plug(modes, at: 2_500_000)
        }
        #expect(run.said.contains("calibrate: display: the screen went away; running dark until it comes back"), "\(run.said)")
        #expect(run.said.contains("calibrate: display: the screen is back; showing the current picture"), "\(run.said)")
        #expect(run.said.contains { $0.hasPrefix("calibrate: written to ") })

        let again = try calibrate(path: path, save: true, touches: { Array($0.prefix(1)) }, startsAgain: true) { screen in
            try screen.plug([DRMMode(width: 1280, height: 720, refreshMilliHertz: 60_000, isPreferred: true)], at: 1_500_000)
        }
        #expect(again.said.contains("calibrate: display: the screen came back as 1280x720@60.00; starting again for its size"), "\(again.said)")
    }
}
