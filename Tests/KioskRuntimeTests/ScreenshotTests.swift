#if canImport(Glibc)
import Glibc
#endif
import Exhibits
import KioskRuntime
import Platform
import Raster
import Syscalls
import SystemFakes
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

    /// `screenshot --pid N` and the service's pid file: SIGUSR2 goes only to a running kiosk,
    /// known by /proc/N/comm, or by its first argument once it started again in place (the
    /// kernel then names it "exe").
    @Test func onlyARunningKioskIsSignalled() throws {
        let proc = TempTree()
        proc.write("100/comm", "motionkiosk\n")
        proc.write("100/cmdline", "/usr/bin/motionkiosk\0run\0")
        proc.write("200/comm", "exe\n")
        proc.write("200/cmdline", "motionkiosk\0run\0--config\0/etc/motionkiosk/config.toml\0")
        proc.write("300/comm", "postgres\n")
        proc.write("300/cmdline", "/usr/lib/postgresql/15/bin/postgres\0")
        proc.write("400/comm", "\u{1B}[2Jevil\n")
        let system = LinuxSystem.shared
        #expect(KioskProcess.check(pid: 100, system: system, proc: proc.root) == .kiosk)
        #expect(KioskProcess.check(pid: 200, system: system, proc: proc.root) == .kiosk)
        #expect(KioskProcess.check(pid: 300, system: system, proc: proc.root) == .otherProgram("postgres"))
        #expect(KioskProcess.check(pid: 400, system: system, proc: proc.root) == .otherProgram("?[2Jevil"), "printed without its escape")
        #expect(KioskProcess.check(pid: 500, system: system, proc: proc.root) == .noSuchProcess)
        // The real /proc: this test process is no kiosk.
        #expect(KioskProcess.check(pid: getpid(), system: system) != .kiosk)
        #expect(KioskProcess.check(pid: getpid(), system: system) != .noSuchProcess)
    }

}
