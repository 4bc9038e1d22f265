#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import KioskConfig
import KioskRuntime
import Platform
import Syscalls
import Testing

/// The stand as `motionkiosk run` assembles it, on a virtual kernel and the virtual panel.
@Suite struct StandTests {
    @Test func aStandFromItsConfigurationShowsTheLauncherWritesItsMetricsAndLeavesOnTime() throws {
        let events = VirtualEvents()
        let clock = MonotonicClock(events: events)
        var configuration = KioskConfiguration()
        let metrics = "/tmp/motionkiosk-stand-\(getpid()).prom"
        defer { unlink(metrics) }
        configuration.metrics.path = metrics
        configuration.metrics.visitorsPath = ""
        configuration.blackBox.folder = ""
        var options = Stand.Options(configurationPath: "/nonexistent/motionkiosk.toml")
        options.seconds = 3
        let lines = Locked<[String]>([])
        let log = Log(minimum: .info, sink: { _, line in lines.withLock { $0.append(line) } })
        let stand = try Stand(configuration: configuration, kiosk: configuration.kioskSettings, fonts: try FontSet(), log: log,
                              loop: try EventLoop(events: events), clock: clock, notifier: SystemdNotifier(environment: [:]),
                              options: options)
        try stand.show(.virtual(reason: "asked"), settings: DisplaySettings(), udev: nil)
        #expect(try stand.run() == false)
        #expect(events.now == 3_000_000)
        #expect(stand.frames.firstFrameShown && stand.frames.framesPresented >= 1)
        if case .string(let shown)? = stand.scene.app.state()["exhibit"] { #expect(shown == "launcher") } else { Issue.record("no state") }
        let said = lines.withLock { $0 }
        #expect(said.contains { $0.hasPrefix("running on the virtual panel") }, "\(said)")
        let text = try #require(try LinuxSystem.shared.readSmallFile(metrics))
        #expect(text.contains("motionkiosk_display_on 0\n"))
    }
}
