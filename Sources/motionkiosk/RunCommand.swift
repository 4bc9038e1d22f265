#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Diagnostics
import Exhibits
import Geometry
import Gestures
import KioskConfig
import KioskRuntime
import Platform
import Raster
import Sensors
import Syscalls
import Trace

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the kiosk (the default). Without a drivable display, plays each exhibit's demo on the virtual panel and writes previews.")

    @Option(help: "Configuration file (default \(KioskConfiguration.defaultPath) when it exists, else built-in defaults).")
    var config: String?

    @OptionGroup var displayOptions: DisplayOptions

    @Option(help: "Show only this exhibit, without a home control (overrides exhibits.locked).")
    var exhibit: String?

    @Option(help: "Seed of the kiosk's random generator (default: from the clock).")
    var seed: UInt64?

    @Option(help: "Record touches and sensor samples as a trace to this file (rolls to FILE.1 at the limit).")
    var record: String?

    @Option(help: "Size limit of a recorded trace file, in MB.")
    var recordLimitMb: Int = 16

    @Option(help: "Folder for the previews written when no display can be driven.")
    var previewDir: String = "preview"

    @Option(help: "Leave after this many seconds (tests and benches).")
    var seconds: Double?

    @Option(help: "Write the first frame that reached the screen to this file (binary PPM, portrait), for comparing with the scanout.")
    var frameFile: String?

    @Option(help: "On leaving, write the kiosk's state (JSON, as replay writes it) to this file: with --record, a replay of the trace gives the same state at its \"end\" checkpoint.")
    var stateFile: String?

    func run() throws {
        let configuration = try loadConfiguration()
        let log = Log(minimum: logLevel(configuration.logging.level))
        var settings = configuration.kioskSettings
        settings.locked = exhibit ?? settings.locked
        if let locked = settings.locked, ExhibitCatalog.type(named: locked) == nil {
            throw DisplayFailure("no exhibit named '\(locked)'; exhibits: " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
        }
        let clock = MonotonicClock()
        settings.seed = seed ?? UInt64(truncatingIfNeeded: clock.now) | 1
        let fonts = try FontSet()
        var display = effectiveDisplayOptions(configuration).settings
        let notifier = SystemdNotifier()

        let udev = try? LibUdev()
        var choice = try chooseDisplay(display, udev: udev, clock: clock)
        if case .virtual(let reason) = choice, display.kind == .auto, notifier.isActive {
            // On a stand (a systemd service) previews help nobody: wait for a display, or
            // fail in plain words so that systemd restarts the kiosk.
            log.warning("no display can be driven yet (\(reason)); as a service the kiosk waits for one")
            display.kind = .drm
            choice = try chooseDisplay(display, udev: udev, clock: clock)
        }
        if case .virtual(let reason) = choice, displayOptions.display != .virtual && configuration.display.backend.rawValue != "virtual" {
            settings.width = configuration.display.virtualSize.width
            settings.height = configuration.display.virtualSize.height
            log.warning("no display can be driven (\(reason)); playing each exhibit's demo on the virtual panel instead")
            let written = try writePreviews(settings: settings, fonts: fonts, log: log, folder: previewDir)
            print("virtual panel \(settings.width)x\(settings.height): wrote \(written.count) previews: " + written.joined(separator: ", "))
            return
        }

        var loopSettings = FrameLoopSettings()
        loopSettings.frameFile = frameFile
        loopSettings.summaryIntervalSeconds = configuration.logging.summaryIntervalSeconds
        loopSettings.notifier = notifier
        let scene = KioskScene(settings: settings, fonts: fonts, log: log)
        let frames = FrameLoop(loop: try EventLoop(), clock: clock, log: log, content: scene, settings: loopSettings)
        try frames.leaveOnSignals(orAfter: seconds)
        let sensorSettings = configuration.motionSensors
        var recording: (sink: TraceFileSink, header: TraceHeader)?
        if let record {
            let sink = try TraceFileSink(path: record)
            var header = TraceHeader()
            header.exhibit = settings.locked ?? "launcher"
            header.locked = settings.locked != nil
            header.idleMilliseconds = settings.idleTimeout.map { Double($0) / 1000 } ?? 0
            header.attractMilliseconds = settings.attractAfter.map { Double($0) / 1000 } ?? 0
            header.seed = settings.seed
            header.mount = sensorSettings.board.description
            header.gravityTimeConstantMilliseconds = sensorSettings.gravityTimeConstant * 1000
            header.shakeThreshold = sensorSettings.shakeThreshold
            header.stuckAfterMilliseconds = sensorSettings.stuckAfter.map { Double($0) / 1000 } ?? 0
            recording = (sink, header)
            log.info("recording touches and sensor samples to \(record) (rolls to \(record).1 at \(recordLimitMb) MB)")
        }

        let start: (any Display, TextConsole?) -> Void = { shown, console in
            do {
                if let (sink, recorded) = recording {
                    var header = recorded
                    header.width = shown.screen.portraitWidth
                    header.height = shown.screen.portraitHeight
                    header.rotation = shown.screen.rotation.rawValue
                    frames.record(to: try TraceWriter(sink: sink, bound: .roll(atBytes: max(1, recordLimitMb) * 1_000_000), header: header))
                }
                var sensorsForScreen = sensorSettings
                sensorsForScreen.rotation = shown.screen.rotation
                sensorsForScreen.backgroundPollingClock = { monotonicMicroseconds() }
                let sensors = MotionSensors(configuration: sensorsForScreen, clock: clock, log: RateLimitedLog(log: log, clock: clock))
                log.info("tilt from \(sensors.accelerometer.name)")
                scene.devices = ["display: \(shown.name), rotation \(shown.screen.rotation)°", "tilt: \(sensors.accelerometer.name)"]
                try frames.start(display: shown, console: console)
                frames.attachMotion(sensors, hotplug: udev)
                do { try frames.attachInput(LibInputSeat(seat: effectiveDisplayOptions(configuration).seat)) } catch {
                    log.warning("no touch input yet (\(error)); the kiosk runs and shows what it can")
                }
            } catch {
                log.error("\(error)")
                frames.loop.stop()
            }
        }
        var hotplug: DRMHotplugWait?
        switch choice {
        case .drm(let drm):
            log.info("\(drm.name), \(drm.usesAtomic ? "atomic" : "legacy") modesetting")
            for note in drm.notes { log.info(note) }
            start(drm, controllingConsole())
        case .waitForHotplug(let why):
            hotplug = try waitForDisplay(why, settings: display, udev: udev, loop: frames.loop, clock: clock,
                                         say: { log.warning($0) }, start: { start($0, controllingConsole()) })
        case .virtual:
            let panel = displayOptions.mode == nil
                ? VirtualPanel(width: configuration.display.virtualSize.width, height: configuration.display.virtualSize.height, clock: clock)
                : display.virtualPanel(clock: clock)
            log.info("running on the virtual panel (\(panel.name)) as asked")
            start(panel, nil)
        }
        defer { _ = hotplug }
        try frames.run()
        if let stateFile, let app = scene.app { try writeTextFile(stateFile, app.state().serialized() + "\n") }
    }

    private func loadConfiguration() throws -> KioskConfiguration {
        let path = config ?? KioskConfiguration.defaultPath
        if config == nil && access(path, F_OK) != 0 { return KioskConfiguration() }
        let text: String
        do { text = try readTextFile(path) } catch { throw DisplayFailure("\(path): \(error)") }
        do { return try KioskConfiguration.parse(text, file: path) } catch { throw DisplayFailure(error.description) }
    }

    /// Command-line flags win over the file; the file wins over built-in defaults.
    private func effectiveDisplayOptions(_ c: KioskConfiguration) -> DisplayOptions {
        var o = displayOptions
        let d = c.display
        if o.display == .auto { o.display = DisplayKind(rawValue: d.backend.rawValue) ?? .auto }
        if o.card == nil && !d.card.isEmpty { o.card = d.card }
        if o.connector == nil && !d.connector.isEmpty { o.connector = d.connector }
        if o.mode == nil, let m = d.mode { o.mode = m.description }
        if o.rotation == "auto" { o.rotation = d.rotation.rawValue }
        if o.format == "auto" && d.format != .auto { o.format = d.format.rawValue }
        if o.seat == "seat0" { o.seat = c.input.seat }
        return o
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
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}

