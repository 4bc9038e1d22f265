#if canImport(Glibc)
import Glibc
#endif
import Exhibits
import KioskRuntime
import Platform
import Raster
import Testing

@Suite struct ScreenshotTests {
    @Test func sigusr2WritesWhatIsOnTheGlassAsAPNG() throws {
        let events = VirtualEvents()
        let path = "/tmp/motionkiosk-screenshot-\(getpid()).png"
        defer { unlink(path) }
        var settings = quietSettings()
        settings.screenshotFile = path
        var s = KioskApp.Settings()
        s.attractAfter = nil
        let scene = KioskScene(settings: s, fonts: try FontSet(), log: quietLog())
        let panel = VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events))
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: scene, settings: settings)
        try frames.leaveOnSignals(orAfter: 3)
        try frames.start(display: panel)
        let ask = try frames.loop.addTimer { events.deliver(signal: SIGUSR2) }
        try ask.arm(after: 1_000_000)
        try frames.run()
        let shot = try readPNG(path: path)
        #expect(shot.width == 480 && shot.height == 800)
        var differing = 0
        for y in 0..<800 { for x in 0..<480 where shot.row32(y)[x] & 0xFFFFFF != panel.backBuffer.row32(y)[x] & 0xFFFFFF { differing += 1 } }
        #expect(differing == 0, "the PNG is the launcher on the panel")
        #expect(access(path + ".tmp", F_OK) != 0)
    }
}
