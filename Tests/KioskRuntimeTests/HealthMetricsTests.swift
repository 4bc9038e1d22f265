#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import Platform
import Raster
import Syscalls
import SystemFakes
import Testing

/// Runs `promtool` with `arguments`, standard input from `input` if given; returns its exit
/// status, or nil when it cannot be started. board/test-deps.sh unpacks it from Debian's
/// `prometheus` package into .build-tools/bin (installing that package would start a
/// Prometheus server); a promtool on the PATH is used otherwise.
func promtool(_ arguments: [String], input: String? = nil) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
    let unpacked = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/") + "/.build-tools/bin/promtool"
    let program = access(unpacked, X_OK) == 0 ? unpacked : "promtool"
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid = pid_t()
    guard posix_spawnp(&pid, program, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xFF
}

func readWholeFile(_ path: String) -> String? { try? LinuxSystem.shared.readSmallFile(path) }

@Suite struct HealthMetricsTests {
    @Test func theFormatEscapesAndWritesNumbersAsPrometheusReadsThem() {
        var p = PrometheusText()
        p.family("motionkiosk_x", .gauge, help: "a \\ b\nc")
        p.sample("motionkiosk_x", [("device", "ADS7846 \"Touch\"\\1")], 3)
        p.sample("motionkiosk_x", [], 0.25)
        p.sample("motionkiosk_x", [], .nan)
        p.histogram("motionkiosk_t", bounds: [0.5, 1], cumulative: [1, 2], sum: 1.25, count: 3)
        #expect(p.text == """
        # HELP motionkiosk_x a \\\\ b\\nc
        # TYPE motionkiosk_x gauge
        motionkiosk_x{device="ADS7846 \\"Touch\\"\\\\1"} 3
        motionkiosk_x 0.25
        motionkiosk_x NaN
        motionkiosk_t_bucket{le="0.5"} 1
        motionkiosk_t_bucket{le="1"} 2
        motionkiosk_t_bucket{le="+Inf"} 3
        motionkiosk_t_sum 1.25
        motionkiosk_t_count 3

        """)
    }

    /// A metrics folder that is not there (node_exporter not installed) is said once, as a
    /// warning an operator sees, with what to do.
    @Test func aMissingMetricsFolderIsAWarningSaidOnce() throws {
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        let scene = KioskScene(settings: KioskApp.Settings(), fonts: try FontSet(), log: quietLog())
        var loopSettings = quietSettings()
        loopSettings.metricsFile = "/nonexistent-\(getpid())/motionkiosk.prom"
        loopSettings.metricsIntervalSeconds = 1
        let said = Locked<[(LogLevel, String)]>([])
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events),
                               log: Log(minimum: .debug, sink: { level, line in said.withLock { $0.append((level, line)) } }),
                               content: scene, settings: loopSettings)
        try frames.leaveOnSignals(orAfter: 5)
        try frames.start(display: display)
        try frames.run()
        let about = said.withLock { $0 }.filter { $0.1.contains("metrics") }
        #expect(about.count == 1)
        #expect(about.first?.0 == .warning)
        #expect(about.first?.1.contains("the folder /nonexistent-\(getpid()) of /nonexistent-\(getpid())/motionkiosk.prom does not exist") == true)
    }

    @Test func aPlayedStandWritesItsMetricsFileAndPromtoolAcceptsIt() throws {
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        var settings = KioskApp.Settings()
        settings.attractAfter = nil
        settings.idleTimeout = 5_000_000
        settings.order = ["grid-block", "tilt-box"]
        let scene = KioskScene(settings: settings, fonts: try FontSet(), log: quietLog())
        let path = "/tmp/motionkiosk-metrics-\(getpid()).prom"
        defer { unlink(path) }
        var loopSettings = quietSettings()
        loopSettings.metricsFile = path
        loopSettings.metricsIntervalSeconds = 2
        loopSettings.processStartTime = 1_764_000_000
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: scene, settings: loopSettings)
        try frames.leaveOnSignals(orAfter: 9)
        try frames.start(display: display)
        guard let tile = firstTileCentre(scene) else { Issue.record("no launcher tile"); return }
        let panel = display.screen.panelPoint(fromPortrait: tile)
        let screen = ScriptedTouchscreen(events: events)
        screen.touch(.down, panel, at: 1_000_000)
        screen.touch(.up, panel, at: 1_060_000)
        try frames.attachInput(screen)

        // Mid-run the file is there, whole, readable by node_exporter's user.
        var midRun: String? = nil
        let probe = try frames.loop.addTimer { midRun = readWholeFile(path) }
        try probe.arm(after: 4_500_000 - events.now)
        try frames.run()
        let mid = try #require(midRun)
        #expect(mid.contains("motionkiosk_display_on 1\n"))
        #expect(mid.contains("motionkiosk_sessions_total{exhibit=\"grid-block\"} 1\n"))
        #expect(mid.contains("motionkiosk_sessions_total{exhibit=\"tilt-box\"} 0\n"))
        #expect(mid.contains("motionkiosk_touches_total{exhibit=\"launcher\"} 1\n"))
        #expect(mid.contains("motionkiosk_exhibit_shown{exhibit=\"grid-block\"} 1\n"))
        #expect(mid.contains("motionkiosk_process_start_time_seconds 1764000000\n"))
        #expect(mid.contains("motionkiosk_touch_device_seconds_since_touch{device=\"device 1\"} 3"))

        // At the end: the idle reset counted, the display reported off, no temporary left.
        let end = try #require(readWholeFile(path))
        #expect(end.contains("motionkiosk_display_on 0\n"))
        #expect(end.contains("motionkiosk_idle_resets_total 1\n"))
        #expect(end.contains("motionkiosk_frames_total \(frames.framesPresented)\n"))
        #expect(end.contains("motionkiosk_frame_time_seconds_count \(frames.framesPresented)\n"))
        // This test process's own memory, in bytes: some megabytes at least.
        let resident = end.split(separator: "\n").first { $0.hasPrefix("motionkiosk_resident_memory_bytes ") }
        #expect(resident.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 > 1_000_000 } == true, "\(resident ?? "none")")
        #expect(access(path + ".tmp", F_OK) != 0)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644)

        let status = promtool(["check", "metrics"], input: path)
        #expect(status != nil, "promtool is missing: board/test-deps.sh unpacks it")
        #expect(status == 0, "promtool check metrics refused:\n\(end)")
    }

    @Test func theAccelerometerSaysHowLongItHasBeenSilent() {
        let health = StandHealth(processStartTime: 0)
        let silent = StandHealth.Accelerometer(present: true, dropped: [:], stuckSamples: 0, secondsSinceSample: 42.5)
        #expect(health.metrics(now: 0, visitors: nil, accelerometer: silent).contains("motionkiosk_accelerometer_seconds_since_sample 42.5\n"))
        let none = StandHealth.Accelerometer(present: false, dropped: [:], stuckSamples: 0)
        #expect(health.metrics(now: 0, visitors: nil, accelerometer: none).contains("motionkiosk_accelerometer_seconds_since_sample NaN\n"))
    }

    @Test func theExampleAlertRulesAreValid() throws {
        let repo = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let rules = "/" + repo + "/board/fleet/motionkiosk-alerts.yml"
        #expect(access(rules, R_OK) == 0, "missing \(rules)")
        let status = promtool(["check", "rules", rules])
        #expect(status != nil, "promtool is missing: board/test-deps.sh unpacks it")
        #expect(status == 0)
    }

    /// A read-only root (or a folder the kiosk may not write): the metrics go to the
    /// service's folder in /run instead, said once; the stand runs on.
    @Test func metricsThatCannotBeWrittenWhereConfiguredGoToRun() throws {
        let tree = TempTree()
        let events = VirtualEvents()
        let configured = tree.path("node/motionkiosk.prom")
        let system = FileSystemWithFaults()
        system.fail(.createUniqueFile, errno: EROFS)
        var loopSettings = quietSettings()
        loopSettings.metricsFile = configured
        loopSettings.metricsIntervalSeconds = 1
        tree.write("run/.keep", "")
        loopSettings.metricsFallbackFolder = tree.path("run")
        loopSettings.system = system
        let said = Locked<[String]>([])
        let scene = KioskScene(settings: KioskApp.Settings(), fonts: try FontSet(), log: quietLog())
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events),
                               log: Log(minimum: .debug, sink: { _, line in said.withLock { $0.append(line) } }),
                               content: scene, settings: loopSettings)
        try frames.leaveOnSignals(orAfter: 3)
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
        try frames.run()
        let about = said.withLock { $0 }.filter { $0.contains("metrics") }
        #expect(about.count == 1, "\(about)")
        #expect(about.first?.contains("kept in \(tree.root)/run/motionkiosk.prom instead") == true, "\(about)")
        #expect(readWholeFile(tree.path("run/motionkiosk.prom"))?.contains("motionkiosk_display_on 0\n") == true, "written there to the end")
    }

    /// A reload that moves or clears `[metrics] path` removes the file the kiosk wrote
    /// there: left behind, it would say `motionkiosk_display_on 1` for ever and node_exporter
    /// would report every series twice. A file someone else put at the old name stays.
    @Test func aReloadThatMovesOrClearsTheMetricsPathRemovesTheOldFile() throws {
        let tree = TempTree()
        let events = VirtualEvents()
        let first = tree.path("first.prom"), second = tree.path("second.prom"), third = tree.path("third.prom")
        var loopSettings = quietSettings()
        loopSettings.metricsFile = first
        let scene = KioskScene(settings: KioskApp.Settings(), fonts: try FontSet(), log: quietLog())
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: scene, settings: loopSettings)
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
        frames.update(metricsFile: first, metricsIntervalSeconds: 15, schedule: nil)
        #expect(readWholeFile(first)?.contains("motionkiosk_display_on 1\n") == true)

        frames.update(metricsFile: second, metricsIntervalSeconds: 15, schedule: nil)
        #expect(access(first, F_OK) != 0, "moved: the old file is gone")
        #expect(readWholeFile(second)?.contains("motionkiosk_display_on 1\n") == true)

        // Someone replaced the file at the current name with their own: it is not ours to remove.
        unlink(second)
        tree.write("second.prom", "theirs 1\n")
        frames.update(metricsFile: third, metricsIntervalSeconds: 15, schedule: nil)
        #expect(tree.read("second.prom") == "theirs 1")

        frames.update(metricsFile: nil, metricsIntervalSeconds: 15, schedule: nil)
        #expect(access(third, F_OK) != 0, "cleared: the old file is gone")
        #expect(LinuxSystem.shared.listDirectory(tree.root) == ["second.prom"])
        frames.finish()
    }

}
