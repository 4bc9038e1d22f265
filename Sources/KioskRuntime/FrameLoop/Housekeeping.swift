#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Geometry
import Platform
import Raster
import Sensors
import Syscalls

/// What the stand does beside its frames: systemd's readiness and watchdog, the summary
/// line, the Prometheus metrics file, the anonymous visitor statistics, the first-frame line
/// and SIGUSR2's screenshot. Failures are said (the repeating ones once a minute at most);
/// none of them stops the frames.
final class Housekeeping {
    private let loop: EventLoop
    private let clock: any Clock
    private let log: Log
    private let content: any FrameContent
    private let motion: MotionDelivery
    private let say: (String) -> Void
    private let problems: RateLimitedLog
    let health: StandHealth
    private(set) var settings: FrameLoopSettings
    private let started: Microseconds
    private var summary = FrameSummary()
    private var timers: [LoopTimer] = []
    private var metricsTimer: LoopTimer?
    private var metricsProblemSaid = false
    /// The metrics file last written and which file it was, so that a reload moving or
    /// clearing `[metrics] path` removes it (if nobody replaced it since).
    private var metricsWritten: (path: String, file: FileStatus)?
    private var statistics: VisitorStatistics?
    private var statisticsProblemSaid = false
    private var appendSyncTimer: LoopTimer?
    /// Makes the recording durable (the black-box tap owns it); nil: no recording.
    var syncRecording: (() -> Void)?
    /// Whether the first frame reached the screen (READY went to systemd then).
    private(set) var firstFrameShown = false
    /// Whether the stand is up: its first frame on screen, or READY said without one.
    private(set) var isUp = false
    /// Set-up waiting for the stand to be up (`whenUp`).
    private var waitingForUp: [() -> Void] = []

    init(settings: FrameLoopSettings, loop: EventLoop, clock: any Clock, log: Log, content: any FrameContent,
         motion: MotionDelivery, say: @escaping (String) -> Void) {
        self.settings = settings; self.loop = loop; self.clock = clock; self.log = log
        self.content = content; self.motion = motion; self.say = say
        started = clock.now
        problems = RateLimitedLog(log: log, clock: clock, interval: 60_000_000)
        health = StandHealth(processStartTime: settings.processStartTime ?? WallClock.now())
    }

    /// The watchdog, summary, metrics and visitor-statistics timers, from now on.
    func start() throws(SystemError) {
        if let notifier = settings.notifier, let interval = notifier.watchdogInterval {
            let watchdog = try loop.addTimer { [unowned(unsafe) self] in
                do throws(SystemError) { try notifier.watchdog() } catch {
                    self.problems.log("watchdog", "systemd watchdog: \(error); systemd restarts the kiosk if this goes on")
                }
            }
            try watchdog.arm(after: interval / 2, every: interval / 2)
            timers.append(watchdog)
            // At once, with the configured period: a kiosk that started again in place had
            // asked for a longer one to get here.
            do throws(SystemError) { try notifier.watchdog(period: interval) } catch {
                problems.log("watchdog", "systemd watchdog: \(error); systemd restarts the kiosk if this goes on")
            }
        }
        let every = settings.summaryIntervalSeconds
        if every > 0 {
            let timer = try loop.addTimer { [unowned(unsafe) self] in
                self.say(self.summary.line(seconds: every, showing: self.content.summaryName) + ", RSS \(residentKilobytes() / 1024) MB")
                self.summary = FrameSummary()
            }
            try timer.arm(after: Microseconds(every) * 1_000_000, every: Microseconds(every) * 1_000_000)
            timers.append(timer)
        }
        try armMetricsTimer()
        if settings.visitorStatisticsFile != nil, let wallClock = settings.visitorStatisticsWallClock {
            statistics = VisitorStatistics(wallClock: wallClock)
        }
        try armAppendSync()
    }

    /// Statistics and a recording are appended and synced at least this often (and at
    /// closing time, and on leaving): a power cut loses at most the last interval's rows.
    func armAppendSync() throws(SystemError) {
        guard appendSyncTimer == nil, statistics != nil || syncRecording != nil else { return }
        let timer = try loop.addTimer { [unowned(unsafe) self] in self.syncAppends() }
        try timer.arm(after: FrameLoopSettings.visitorStatisticsInterval, every: FrameLoopSettings.visitorStatisticsInterval)
        appendSyncTimer = timer
    }

    /// Appends what visitors did and makes the recording durable.
    func syncAppends() {
        flushVisitorStatistics()
        syncRecording?()
    }

    /// A finger went down (the summary and the health count it).
    func touchDown(device: Int, at time: Microseconds) {
        summary.touches += 1
        health.touchDown(device: device, at: time)
    }

    /// A frame went out after `took` µs of drawing and handing over.
    func frameDrawn(took: Microseconds) {
        summary.frame(took: took)
        health.frame(took: took)
    }

    // MARK: systemd

    func announceReady(status: String) {
        defer { cameUp() }
        guard let notifier = settings.notifier else { return }
        do throws(SystemError) { try notifier.ready(status: status) } catch {
            log.warning("systemd: cannot say READY (\(error)); a Type=notify service may time out starting")
        }
    }

    /// Runs `work` once the stand is up (at once if it is).
    func whenUp(_ work: @escaping () -> Void) {
        if isUp { work() } else { waitingForUp.append(work) }
    }

    private func cameUp() {
        guard !isUp else { return }
        isUp = true
        let waiting = waitingForUp
        waitingForUp = []
        for work in waiting { work() }
    }

    func announceStopping() {
        guard let notifier = settings.notifier else { return }
        do throws(SystemError) { try notifier.stopping() } catch { log.warning("systemd: cannot say STOPPING (\(error))") }
    }

    /// The first frame reached the screen: said with its time (and written to `frameFile`),
    /// systemd hears READY, what waited for the stand to be up joins, then the metrics file
    /// learns it (its write and fsync are no part of starting).
    func firstFrame(on display: any Display) {
        guard !firstFrameShown else { return }
        firstFrameShown = true
        health.startToFirstFrameSeconds = Double(clock.now - started) / 1_000_000
        var line = settings.firstFrameLine(Double(clock.now - started) / 1000)
        if let since = millisecondsSinceProcessStart() { line += ", \(fixed1(since)) ms after process start" }
        // Written before the next frame is drawn: the back buffer still holds what is shown.
        if let path = settings.frameFile {
            do { try writePPM(display.backBuffer, to: path); line += ", frame written to \(path)" } catch {
                line += ", writing \(path) failed: \(error)"
            }
        }
        say(line)
        if display.flips.flipEventDescriptor != nil { announceReady(status: "showing \(display.name)") }
        cameUp()
        writeMetrics()
    }

    // MARK: Metrics

    private func armMetricsTimer() throws(SystemError) {
        let timer: LoopTimer
        if let metricsTimer { timer = metricsTimer } else {
            timer = try loop.addTimer { [unowned(unsafe) self] in self.writeMetrics() }
            metricsTimer = timer
        }
        guard settings.metricsFile != nil else {
            // Still armed, it only writes nothing (no file is set).
            if let error = timer.disarm() { log.warning("metrics: cannot stop the timer (\(error))") }
            return
        }
        let interval = Microseconds(max(1, settings.metricsIntervalSeconds)) * 1_000_000
        try timer.arm(after: interval, every: interval)
    }

    /// A reloaded configuration's metrics file, from now on.
    func update(metricsFile: String?, metricsIntervalSeconds: Int) {
        if metricsFile != settings.metricsFile { removeMetricsFile() }
        settings.metricsFile = metricsFile
        settings.metricsIntervalSeconds = metricsIntervalSeconds
        metricsProblemSaid = false
        do throws(SystemError) { try armMetricsTimer() } catch {
            log.warning("metrics: no timer (\(error)); \(metricsFile ?? "the file") is written only when the display changes")
        }
    }

    /// The metrics as they stand now (what the file gets).
    func metricsText() -> String {
        var accelerometer: StandHealth.Accelerometer? = nil
        if let sensors = motion.sensors {
            var dropped: [String: Int] = [:]
            for reason in BadSampleReason.allCases { dropped[Housekeeping.metricName(reason)] = sensors.validator.dropped[reason] ?? 0 }
            let sensorInUse = !sensors.isFallingBack && sensors.accelerometer.kind.isDevice
            let silence = Double(max(0, clock.now - sensors.lastSampleAt)) / 1_000_000
            accelerometer = StandHealth.Accelerometer(present: !sensors.isFallingBack, dropped: dropped,
                                                      stuckSamples: sensors.validator.dropped[.stuck] ?? 0,
                                                      secondsSinceSample: sensorInUse ? silence : nil)
        }
        health.residentKilobytes = residentKilobytes()
        return health.metrics(now: clock.now, visitors: content.visitorCounts, accelerometer: accelerometer)
    }

    static func metricName(_ reason: BadSampleReason) -> String {
        switch reason {
        case .notFinite: "not_finite"
        case .outOfRange: "out_of_range"
        case .stuck: "stuck"
        case .readError: "read_error"
        }
    }

    /// Writes the metrics file (temporary file, then rename); a failure is said once.
    func writeMetrics() {
        guard let path = settings.metricsFile else { return }
        do {
            if let file = try writeFileAtomically(path, metricsText(), system: settings.system) { metricsWritten = (path, file) }
        } catch {
            if let moved = settings.metricsFallback(for: path, after: error) {   // a read-only root
                settings.metricsFile = moved
                log.warning("metrics: cannot write \(path): \(error); kept in \(moved) instead (lost at power-off)")
                return writeMetrics()
            }
            if !metricsProblemSaid {
                metricsProblemSaid = true
                // Said once, where an operator looks: a missing folder usually means
                // node_exporter is not installed, and nobody sees the stand's health.
                let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
                if error.errno == ENOENT {
                    log.warning("metrics: the folder \(folder) of \(path) does not exist: no metrics are written (install prometheus-node-exporter, or set [metrics] path = \"\" to turn them off)")
                } else {
                    log.warning("metrics: cannot write \(path): \(error) (node_exporter's textfile directory; [metrics] path)")
                }
            }
        }
    }

    /// Removes the metrics file this loop wrote last, if it is still the one it wrote (not
    /// a file someone else put at that name since): left behind, it would say
    /// `motionkiosk_display_on 1` for ever, and node_exporter would report its series twice.
    private func removeMetricsFile() {
        guard let (path, file) = metricsWritten else { return }
        metricsWritten = nil
        guard let now = settings.system.status(of: path), now.isUnchanged(since: file) else { return }
        settings.system.removeFile(path)
        say("metrics: \(path) removed ([metrics] path changed)")
    }

    // MARK: Visitors and screenshots

    /// Appends what visitors did since the last time (nothing is written when nobody played).
    func flushVisitorStatistics(endingVisit: Bool = false) {
        guard let statistics, let path = settings.visitorStatisticsFile else { return }
        if let events = content.takeVisitorEvents(endingVisit: endingVisit) { statistics.add(events) }
        do { try statistics.flush(to: path, system: settings.system); statisticsProblemSaid = false } catch {
            // Said once until a write succeeds (a read-only root refuses every minute); the
            // rows wait in memory meanwhile.
            if !statisticsProblemSaid { log.warning("visitor statistics: cannot write \(path): \(error); kept in memory until it can be written") }
            statisticsProblemSaid = true
        }
    }

    /// SIGUSR2 (`motionkiosk screenshot`): the picture on the glass, as a PNG at
    /// `screenshotFile`, replaced whole (temporary file, then rename).
    func writeScreenshot(of display: (any Display)?) {
        guard let path = settings.screenshotFile, let display else {
            say("SIGUSR2: no screenshot file is set")
            return
        }
        let png: [UInt8]
        do throws(PNGError) { png = try encodePNG(display.backBuffer, name: path) } catch {
            log.warning("screenshot: \(error)")
            return
        }
        do throws(SystemError) { try writeFileAtomically(path, bytes: png, system: settings.system) } catch {
            log.warning("screenshot: \(error)")
            return
        }
        say("SIGUSR2: screenshot written to \(path)")
    }
}
