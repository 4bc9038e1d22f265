#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// `motionkiosk run`: the configuration and the flags become a `FrameLoop` showing the kiosk.
func runKiosk(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    // First of all: a reload, status or screenshot signal sent while the kiosk starts (fonts,
    // the scene) waits in the loop's signalfd instead of ending the process.
    let loop: EventLoop
    do throws(SystemError) {
        loop = try EventLoop()
        try loop.holdSignals(FrameLoop.handledSignals)
    } catch { throw KioskError("\(error)") }
    let configuration = try loadConfiguration(c.string("config"))
    let log = Log(minimum: logLevel(configuration.logging.level))
    var settings = configuration.kioskSettings
    let exhibit: String?, seed: UInt64?, recordLimit: Int, seconds: Double?
    var display: DisplaySettings
    do throws(CommandLineError) {
        exhibit = try c.nonEmpty("exhibit")
        seed = try c.unsigned("seed")
        recordLimit = try c.integer("record-limit-mb", in: 1...(TextFileLimit.trace >> 20)) ?? 16
        seconds = try c.number("seconds", in: 0...31_536_000)
        _ = try c.nonEmpty("record"); _ = try c.nonEmpty("preview-dir"); _ = try c.nonEmpty("frame-file"); _ = try c.nonEmpty("state-file")
    } catch { throw KioskError(error.message) }
    // Flags given on the command line win over the file; the file over built-in defaults.
    display = try displaySettings(c, base: configuration.displaySettings)
    settings.locked = exhibit ?? settings.locked
    if let locked = settings.locked, ExhibitCatalog.type(named: locked) == nil {
        throw KioskError("no exhibit named \(echoed(locked)); exhibits: " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
    }
    let clock = MonotonicClock()
    settings.seed = seed ?? UInt64(truncatingIfNeeded: clock.now) | 1
    let fonts: FontSet
    do { fonts = try configuration.fonts(log: log) } catch { throw KioskError("\(error)") }
    let notifier = SystemdNotifier()

    let udev = try? LibUdev()
    var choice: DisplayChoice
    do throws(DisplayUnavailable) {
        choice = try chooseDisplay(display, udev: udev, clock: clock)
        if case .virtual(let reason) = choice, display.kind == .auto, notifier.isActive {
            // On a stand (a systemd service) previews help nobody: wait for a display, or
            // fail in plain words so that systemd restarts the kiosk.
            log.warning("no display can be driven yet (\(reason)); as a service the kiosk waits for one")
            display.kind = .drm
            choice = try chooseDisplay(display, udev: udev, clock: clock)
        }
    } catch { throw KioskError(error.description) }
    if case .virtual(let reason) = choice, display.kind != .virtual {
        settings.width = configuration.display.virtualSize.width
        settings.height = configuration.display.virtualSize.height
        log.warning("no display can be driven (\(reason)); playing each exhibit's demo on the virtual panel instead")
        let written = try writePreviews(settings: settings, fonts: fonts, log: log, folder: c.string("preview-dir") ?? "preview")
        print("virtual panel \(settings.width)x\(settings.height): wrote \(written.count) previews: " + written.joined(separator: ", "))
        return 0
    }

    var loopSettings = FrameLoopSettings()
    loopSettings.frameFile = c.string("frame-file")
    loopSettings.summaryIntervalSeconds = configuration.logging.summaryIntervalSeconds
    loopSettings.notifier = notifier
    loopSettings.mouseIsFinger = configuration.input.mouseAsFinger
    loopSettings.touchCalibration = configuration.touchCalibration
    loopSettings.metricsFile = configuration.metrics.path.isEmpty ? nil : configuration.metrics.path
    loopSettings.metricsIntervalSeconds = configuration.metrics.intervalSeconds
    loopSettings.schedule = configuration.schedule(wallClock: StandWallClock.system(monotonicNow: { clock.now }))
    loopSettings.backlights = Backlights(system: LinuxSystem.shared)
    loopSettings.screenshotFile = serviceScreenshotFile
    let configurationPath = c.string("config") ?? KioskConfiguration.defaultPath
    loopSettings.blackBox = configuration.blackBoxSettings(kiosk: settings, text: try? readTextFile(configurationPath))
    if !configuration.metrics.visitorsPath.isEmpty {
        loopSettings.visitorStatisticsFile = configuration.metrics.visitorsPath
        loopSettings.visitorStatisticsWallClock = StandSchedule.systemLocalTime(monotonicNow: { clock.now })
    }
    loopSettings.escapeLeaves = configuration.input.escapeLeaves.allows(standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
                                                                       runningAsService: notifier.isActive)
    let scene = KioskScene(settings: settings, fonts: fonts, log: log)
    let frames: FrameLoop
    do throws(SystemError) {
        frames = FrameLoop(loop: loop, clock: clock, log: log, content: scene, settings: loopSettings)
        try frames.leaveOnSignals(orAfter: seconds)
    } catch { throw KioskError("\(error)") }
    if notifier.isActive, let runtime = getenv("RUNTIME_DIRECTORY") {
        // `motionkiosk screenshot` finds the service here: only once its signals are handled.
        let pidFile = String(cString: runtime) + "/motionkiosk.pid"
        do throws(SystemError) { try writeFileAtomically(pidFile, "\(getpid())\n", system: LinuxSystem.shared) } catch {
            log.warning("pid file: \(error)")
        }
    }
    // As a service, SIGHUP (systemctl reload) re-reads the file; in a terminal it still
    // means the session ended.
    var reloader: ConfigurationReload? = nil
    if notifier.isActive {
        let lockedByFlag = exhibit
        let reload = ConfigurationReload(path: c.string("config") ?? KioskConfiguration.defaultPath, current: configuration,
                                         scene: scene, frames: frames, log: log, notifier: notifier,
                                         wallClock: StandWallClock.system(monotonicNow: { clock.now })) { s in
            if let lockedByFlag { s.locked = lockedByFlag }
        }
        reload.startAgainInPlace = { frames.leaveToStartAgain() }
        frames.onReload = { reload.reload() }
        reloader = reload
    }
    defer { _ = reloader }
    let sensorSettings = configuration.motionSensors
    var recording: (sink: TraceFileSink, header: TraceHeader)?
    if let record = c.string("record") {
        let sink: TraceFileSink
        do { sink = try TraceFileSink(path: record) } catch { throw KioskError("--record \(record): \(error)") }
        recording = (sink, TraceHeader(kiosk: settings, motion: sensorSettings))
        if let taken = sink.takenPath { log.warning("--record \(taken) exists and is kept; recording to \(sink.path)") }
        log.info("recording touches and sensor samples to \(sink.path) (rolls to \(sink.path).1 at \(recordLimit) MB)")
    }

    let start: (any Display, TextConsole?) -> Void = { shown, console in
        if let (sink, recorded) = recording {
            var header = recorded
            header.width = shown.screen.portraitWidth
            header.height = shown.screen.portraitHeight
            header.rotation = shown.screen.rotation.rawValue
            do throws(TraceWriteError) { frames.record(to: try TraceWriter(sink: sink, bound: .roll(atBytes: recordLimit * 1_000_000), header: header)) } catch {
                log.error("recording: \(error)")
            }
        }
        var sensorsForScreen = sensorSettings
        sensorsForScreen.rotation = shown.screen.rotation
        sensorsForScreen.backgroundPollingClock = { monotonicMicroseconds() }
        let sensors = MotionSensors(configuration: sensorsForScreen, clock: clock, log: RateLimitedLog(log: log, clock: clock))
        log.info("tilt from \(sensors.accelerometer.name)")
        scene.devices = ["display: \(shown.name), rotation \(shown.screen.rotation)°", "tilt: \(sensors.accelerometer.name)"]
        do throws(SystemError) { try frames.start(display: shown, console: console) } catch {
            log.error("\(error)")
            frames.loop.stop()
            return
        }
        frames.attachMotion(sensors, hotplug: udev)
        do throws(SystemError) { try frames.attachInput(LibInputSeat(seat: display.seat)) } catch {
            log.warning("no touch input yet (\(error)); the kiosk runs and shows what it can")
        }
    }
    var hotplug: DRMHotplugWait?
    // The screen coming and going while the kiosk runs (Platform/ConnectorWatch.swift).
    var connectorWatch: ConnectorWatch?
    let watchConnector: (DumbBufferDisplay) -> Void = { drm in
        guard let udev else { return }
        connectorWatch = try? ConnectorWatch(udev: udev, loop: frames.loop, display: drm, config: display.drm) { frames.displayConnectorChanged($0) }
    }
    switch choice {
    case .drm(let drm):
        log.info("\(drm.name), \(drm.usesAtomic ? "atomic" : "legacy") modesetting")
        for note in drm.notes { log.info(note) }
        frames.health.scanoutBuffers = drm.scanoutBuffers
        start(drm, controllingConsole())
        watchConnector(drm)
    case .waitForHotplug(let why):
        do {
            hotplug = try waitForDisplay(why, settings: display, udev: udev, loop: frames.loop, clock: clock,
                                         say: { log.warning($0) }, start: { frames.health.scanoutBuffers = $0.scanoutBuffers; start($0, controllingConsole()); watchConnector($0) })
        } catch { throw KioskError(error.description) }
    case .virtual:
        let panel = display.virtualPanel(clock: clock)
        log.info("running on the virtual panel (\(panel.name)) as asked")
        start(panel, nil)
    }
    defer { _ = hotplug; _ = connectorWatch }
    do { try frames.run() } catch { throw KioskError("\(error)") }
    if frames.startsAgain { startAgainInPlace(log: log) }
    if let stateFile = c.string("state-file"), let app = scene.app {
        do { try writeTextFile(stateFile, app.state().serialized() + "\n") } catch { throw KioskError("--state-file \(stateFile): \(error)") }
    }
    return 0
}

/// Replaces this process with a fresh start of the same program and arguments (the display
/// and devices are given back already; every descriptor is close-on-exec). The pid stays, so
/// systemd's MainPID, notify access and watchdog carry on. Only returns when exec failed.
private func startAgainInPlace(log: Log) {
    let arguments = ["motionkiosk"] + processArguments()
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { PathBytes.withCString($0) { strdup($0) } }
    argv.append(nil)
    execv("/proc/self/exe", &argv)
    log.error("starting again failed: execv: \(String(cString: strerror(errno))); leaving for systemd to restart the kiosk")
    exit(1)
}

func loadConfiguration(_ given: String?) throws(KioskError) -> KioskConfiguration {
    let path = given ?? KioskConfiguration.defaultPath
    if given == nil && !LinuxSystem.shared.fileExists(path) { return KioskConfiguration() }
    let text: String
    do { text = try readTextFile(path) } catch { throw KioskError("\(path): \(error)") }
    do { return try KioskConfiguration.parse(text, file: path, warn: { printError("warning: \($0)") }) } catch { throw KioskError(error.description) }
}

/// Under systemd (TTYPath=/dev/tty1, StandardInput=tty-force) the VT is the controlling
/// terminal, reachable as /dev/tty although the kiosk's user may not open /dev/tty0 or
/// /dev/tty1 by name; elsewhere (a pty, no terminal) fall back to the foreground VT.
private func controllingConsole() -> TextConsole {
    let own = TextConsole(system: LinuxSystem.shared, path: "/dev/tty")
    return own.isGraphics ? own : TextConsole(system: LinuxSystem.shared)
}

private func logLevel(_ level: KioskConfiguration.Logging.Level) -> LogLevel {
    switch level {
    case .debug: return .debug
    case .info: return .info
    case .warning: return .warning
    case .error: return .error
    }
}

/// `motionkiosk check-config [FILE]`.
func checkConfig(_ c: ParsedCommand) -> Int32 {
    let file = c.argument("file") ?? KioskConfiguration.defaultPath
    let text: String
    do { text = try readTextFile(file) } catch {
        printError("\(file): \(error)")
        return 1
    }
    do {
        var doubts = 0
        let configuration = try KioskConfiguration.parse(text, file: file, warn: { printError("warning: \($0)"); doubts += 1 })
        // Text the stand would show as boxes: a language without its font, emoji, …
        for warning in configuration.fontWarnings { printError("warning: \(warning)"); doubts += 1 }
        print("\(file): OK" + (doubts > 0 ? " (\(doubts) warning\(doubts == 1 ? "" : "s"))" : ""))
        return 0
    } catch {
        printError(error.description)
        return 1
    }
}

/// `motionkiosk default-config`.
func defaultConfig() -> Int32 {
    print(KioskConfiguration.defaultFileText, terminator: "")
    return 0
}
