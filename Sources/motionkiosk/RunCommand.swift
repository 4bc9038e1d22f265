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

/// `motionkiosk run`: the configuration and the flags become a `Stand` showing the kiosk.
func runKiosk(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    // First of all: a reload, status or screenshot signal sent while the kiosk starts (fonts,
    // the scene) waits in the loop's signalfd instead of ending the process.
    let loop: EventLoop
    do throws(SystemError) {
        loop = try EventLoop()
        try loop.holdSignals(FrameLoop.handledSignals)
    } catch { throw KioskError("\(error)") }
    let configuration = try loadConfiguration(c.string("config"))
    let log = Log(minimum: configuration.logging.level.logLevel)
    var settings = configuration.kioskSettings
    let exhibitName: String?, seed: UInt64?, recordLimit: Int, seconds: Double?
    var display: DisplaySettings
    do throws(CommandLineError) {
        exhibitName = try c.nonEmpty("exhibit")
        seed = try c.unsigned("seed")
        recordLimit = try c.integer("record-limit-mb", in: 1...(TextFileLimit.trace >> 20)) ?? 16
        seconds = try c.number("seconds", in: 0...31_536_000)
        _ = try c.nonEmpty("record"); _ = try c.nonEmpty("preview-dir"); _ = try c.nonEmpty("frame-file"); _ = try c.nonEmpty("state-file")
    } catch { throw KioskError(error.message) }
    // Flags given on the command line win over the file; the file over built-in defaults.
    display = try displaySettings(c, base: configuration.displaySettings)
    var exhibit: ExhibitType? = nil
    if let name = exhibitName {
        guard let type = ExhibitRegistry.named(name) else {
            throw KioskError("--exhibit \(echoed(name)): no exhibit of that name; exhibits: " + ExhibitRegistry.names.joined(separator: ", "))
        }
        exhibit = type
    }
    settings.locked = exhibit ?? settings.locked
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

    var options = Stand.Options(configurationPath: c.string("config") ?? KioskConfiguration.defaultPath)
    options.frameFile = c.string("frame-file")
    options.recordPath = c.string("record")
    options.recordLimitMegabytes = recordLimit
    options.seconds = seconds
    options.screenshotFile = serviceScreenshotFile
    options.escapeLeaves = configuration.input.escapeLeaves.allows(standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
                                                                  runningAsService: notifier.isActive)
    if notifier.isActive, let runtime = getenv("RUNTIME_DIRECTORY") {
        options.pidFile = (String(cString: runtime) + "/motionkiosk.pid", getpid())
        options.metricsFallbackFolder = String(cString: runtime)
    }
    let lockedByFlag = exhibit
    options.adjustReloaded = { s in if let lockedByFlag { s.locked = lockedByFlag } }
    let stand = try Stand(configuration: configuration, kiosk: settings, fonts: fonts, log: log, loop: loop, clock: clock,
                          notifier: notifier, options: options)
    try stand.show(choice, settings: display, udev: udev)
    if try stand.run() { startAgainInPlace(log: log, notifier: notifier) }
    if let stateFile = c.string("state-file") {
        let app = stand.scene.app
        do { try writeTextFile(stateFile, app.state().serialized() + "\n") } catch { throw KioskError("--state-file \(stateFile): \(error)") }
    }
    return 0
}

/// Replaces this process with a fresh start of the same program and arguments (the display
/// and devices are given back already; every descriptor is close-on-exec). The pid stays, so
/// systemd's MainPID, notify access and watchdog carry on. Only returns when exec failed.
func startAgainInPlace(log: Log, notifier: SystemdNotifier) {
    if notifier.watchdogInterval != nil {
        // The watchdog keeps counting across the exec: the new image pings once it shows.
        do { try notifier.watchdog(period: SystemdNotifier.startingAgainGrace) } catch {
            log.warning("systemd watchdog: \(error); starting again must be quick")
        }
    }
    let arguments = ["motionkiosk"] + processArguments()
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { PathBytes.withCString($0) { strdup($0) } }
    argv.append(nil)
    execv("/proc/self/exe", &argv)
    log.error("starting again failed: execv: \(String(cString: strerror(errno))); leaving for systemd to restart the kiosk")
    exit(1)
}

func loadConfiguration(_ given: String?) throws(KioskError) -> KioskConfiguration {
    try KioskRuntime.loadConfiguration(given, warn: { printError("warning: \($0)") })
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
