import Geometry
import KioskRuntime
import Platform
import Syscalls
import SystemFakes
import Testing

/// `motionkiosk pattern` below its flags: the test pattern in the frame loop on a fake DRM
/// display whose screen is unplugged and plugged back, and on the virtual panel.
@Suite struct TestPatternSessionTests {
    final class SaidLines { var lines: [String] = [] }

    /// Runs the pattern for 4 virtual seconds on a fake 800x480 card; `meanwhile` plugs its
    /// screen. Returns what it said and whether it ended to start again at another size.
    func showPattern(meanwhile: (PluggedScreen) throws -> Void) throws -> (said: [String], startsAgain: Bool) {
        let events = VirtualEvents()
        let (display, _, drm) = try fakeScanout(events: events)
        let udev = FakeUdev(events: events)
        let said = SaidLines()
        let session = try testPatternSession(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), seconds: 4,
                                             frameFile: nil, say: { said.lines.append($0) })
        try session.show(.drm(display), settings: DisplaySettings(), udev: udev, virtualLine: ScreenSession.patternOnVirtualPanel,
                         console: { TextConsole(system: FakeSystem()) }, openInput: nil)
        try meanwhile(PluggedScreen(loop: session.frames.loop, drm: drm, udev: udev))
        let startsAgain = try session.run()
        return (said.lines, startsAgain)
    }

    /// Unplugged and back with the same mode, the pattern goes dark and shows again; back
    /// with another mode, it ends to start again for that size (a fresh process, as `run`).
    @Test func theScreenUnpluggedAndBackIsFollowed() throws {
        let back = try showPattern { screen in
            let modes = screen.drm.card.connectors[0].modes
            try screen.plug([], at: 1_500_000)
            try screen.plug(modes, at: 2_500_000)
        }
        #expect(!back.startsAgain)
        #expect(back.said.contains("pattern: display: the screen went away; running dark until it comes back"), "\(back.said)")
        #expect(back.said.contains("pattern: display: the screen is back; showing the current picture"), "\(back.said)")

        let other = try showPattern { screen in
            try screen.plug([DRMMode(width: 1280, height: 720, refreshMilliHertz: 60_000, isPreferred: true)], at: 1_500_000)
        }
        #expect(other.startsAgain)
        #expect(other.said.contains("pattern: display: the screen came back as 1280x720@60.00; starting again for its size"), "\(other.said)")
    }

    /// Without a display it can drive, the pattern shows on the virtual panel and says why;
    /// calibration refuses it (there is no panel to touch).
    @Test func withoutADrivableDisplayThePatternSaysItShowsOnTheVirtualPanel() throws {
        let events = VirtualEvents()
        let said = SaidLines()
        let session = try testPatternSession(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), seconds: 1,
                                             frameFile: nil, say: { said.lines.append($0) })
        try session.show(.virtual(reason: "no DRM card"), settings: DisplaySettings(), udev: nil,
                         virtualLine: ScreenSession.patternOnVirtualPanel, console: { TextConsole(system: FakeSystem()) }, openInput: nil)
        #expect(try session.run() == false)
        #expect(said.lines.contains { $0.hasPrefix("pattern: showing the pattern on the virtual panel (") && $0.hasSuffix("): no DRM card") },
                "\(said.lines)")

        let calibration = ScreenSession(tool: "calibrate", frames: session.frames, clock: MonotonicClock(events: events), say: { _ in })
        var refused: KioskError?
        do throws(KioskError) {
            try calibration.show(.virtual(reason: "no DRM card"), settings: DisplaySettings(), udev: nil, virtualLine: nil,
                                 console: { TextConsole(system: FakeSystem()) }, openInput: nil)
        } catch { refused = error }
        #expect(refused?.description == "calibrate needs the stand's display and touch panel: no DRM card")
    }
}
