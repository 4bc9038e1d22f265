import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import OpeningHours
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// A stand as `motionkiosk run` assembles it from its configuration: the kiosk scene in a
/// frame loop with the stand's housekeeping (systemd, metrics, visitor statistics, black box,
/// opening hours, screenshots), reloads on SIGHUP as a service, an optional recording, and,
/// once a display is there, its motion sensors and touch input.
public final class Stand {
    /// What the command line adds to the configuration.
    public struct Options {
        /// The configuration file (re-read on reload; copied into black-box dumps).
        public var configurationPath: String
        /// Write the first frame shown here (binary PPM).
        public var frameFile: String?
        /// Record touches and sensor samples to this trace, rolling at this size.
        public var recordPath: String?
        public var recordLimitMegabytes = 16
        /// Leave after this many seconds; nil: run until a signal.
        public var seconds: Double?
        /// Where the running service says its process id (only once signals are handled).
        public var pidFile: (path: String, processId: Int32)?
        /// Where the metrics file goes when its folder cannot be written (a read-only root):
        /// the service's runtime directory in /run.
        public var metricsFallbackFolder: String?
        /// Where SIGUSR2 writes a PNG of the screen.
        public var screenshotFile: String?
        /// Whether Escape leaves (a developer at a terminal, not a service).
        public var escapeLeaves = true
        /// What the command line imposes on a reloaded configuration (a locked exhibit).
        public var adjustReloaded: (inout KioskApp.Settings) -> Void = { _ in }

        public init(configurationPath: String) { self.configurationPath = configurationPath }
    }

    public let scene: KioskScene
    public let frames: FrameLoop
    private let configuration: KioskConfiguration
    private let log: Log
    private let clock: any Clock
    private var reload: ConfigurationReload?
    private var recording: (sink: TraceFileSink, header: TraceHeader, limitBytes: Int)?
    private var hotplug: DRMHotplugWait?
    /// Whether the wall clock can be believed: said once in the journal when the stand has
    /// hours, reported in the metrics and on the commissioning screen.
    private let clockTrust: ClockTrust
    /// The DRM display's screen coming and going while the kiosk runs.
    private var connectorWatch: ConnectorWatch?

    /// The stand on `loop` (whose signals were held since the process started), not yet
    /// showing: `show` gives it its display.
    public init(configuration: KioskConfiguration, kiosk: KioskApp.Settings, fonts: FontSet, log: Log, loop: EventLoop,
                clock: any Clock, notifier: SystemdNotifier, options: Options) throws(KioskError) {
        self.configuration = configuration; self.log = log; self.clock = clock
        let monotonicNow: () -> Microseconds = { clock.now }
        var settings = FrameLoopSettings()
        settings.frameFile = options.frameFile
        settings.summaryIntervalSeconds = configuration.logging.summaryIntervalSeconds
        settings.notifier = notifier
        settings.mouseIsFinger = configuration.input.mouseAsFinger
        settings.touchCalibration = configuration.touchCalibration
        settings.metricsFile = configuration.metrics.path.isEmpty ? nil : configuration.metrics.path
        settings.metricsIntervalSeconds = configuration.metrics.intervalSeconds
        settings.metricsFallbackFolder = options.metricsFallbackFolder
        let hasHours = !configuration.schedule.hours.isAlwaysOpen
        clockTrust = ClockTrust(whenUnknown: configuration.schedule.whenClockUnknown,
                                look: { ClockEvidence.read(system: LinuxSystem.shared, wallSeconds: Int64(WallClock.now())) },
                                tell: { if hasHours { log.info($0) } })
        settings.schedule = configuration.schedule(wallClock: StandWallClock.system(monotonicNow: monotonicNow), clock: clockTrust)
        settings.backlights = Backlights(system: LinuxSystem.shared)
        settings.screenshotFile = options.screenshotFile
        // A stand without its file (built-in defaults) writes none into its dumps.
        settings.blackBox = configuration.blackBoxSettings(kiosk: kiosk, text: try? readTextFile(options.configurationPath))
        if !configuration.metrics.visitorsPath.isEmpty {
            settings.visitorStatisticsFile = configuration.metrics.visitorsPath
            settings.visitorStatisticsWallClock = StandSchedule.systemLocalTime(monotonicNow: monotonicNow)
        }
        settings.escapeLeaves = options.escapeLeaves
        scene = KioskScene(settings: kiosk, fonts: fonts, log: log)
        frames = FrameLoop(loop: loop, clock: clock, log: log, content: scene, settings: settings)
        frames.health.clock = clockTrust
        do throws(SystemError) { try frames.leaveOnSignals(orAfter: options.seconds) } catch { throw KioskError("\(error)") }
        if let (pidFile, pid) = options.pidFile {
            // `motionkiosk screenshot` finds the service here: only once its signals are handled.
            do throws(SystemError) { try writeFileAtomically(pidFile, "\(pid)\n", system: LinuxSystem.shared) } catch {
                log.warning("pid file: \(error)")
            }
        }
        // As a service, SIGHUP (systemctl reload) re-reads the file; in a terminal it still
        // means the session ended.
        if notifier.isActive {
            let frames = frames
            let reload = ConfigurationReload(path: options.configurationPath, current: configuration, scene: scene, frames: frames,
                                             log: log, notifier: notifier,
                                             wallClock: StandWallClock.system(monotonicNow: monotonicNow), commandLine: options.adjustReloaded)
            reload.startAgainInPlace = { frames.leaveToStartAgain() }
            reload.clock = clockTrust
            frames.onReload = { reload.reload() }
            self.reload = reload
        }
        if let path = options.recordPath {
            do throws(SystemError) {
                let sink = try TraceFileSink(path: path)
                recording = (sink, TraceHeader(kiosk: kiosk, motion: configuration.motionSensors), options.recordLimitMegabytes * 1_000_000)
                if let taken = sink.takenPath { log.warning("--record \(taken) exists and is kept; recording to \(sink.path)") }
                log.info("recording touches and sensor samples to \(sink.path) (rolls to \(sink.path).1 at \(options.recordLimitMegabytes) MB)")
            } catch {
                // As a service the stand runs without its recording (a read-only root): exiting
                // would only be restarted, again and again.
                guard notifier.isActive else { throw KioskError("--record \(path): \(error)") }
                log.warning("--record \(path): \(error); the kiosk runs without recording")
            }
        }
    }

    /// Shows the stand on what `chooseDisplay` found: a DRM display at once, one connected
    /// later (waiting for udev), or the virtual panel.
    public func show(_ choice: DisplayChoice, settings: DisplaySettings, udev: (any UdevCalls)?) throws(KioskError) {
        let log = self.log, seat = settings.seat
        do throws(DisplayUnavailable) {
            hotplug = try startShowing(on: choice, settings: settings, udev: udev, loop: frames.loop, clock: clock,
                                       say: { log.info($0) }, warn: { log.warning($0) },
                                       virtualLine: { panel, _ in "running on the virtual panel (\(panel.name)) as asked" },
                                       console: Stand.controllingConsole,
                                       drmShown: { [unowned(unsafe) self] in self.follow($0, settings: settings.drm, udev: udev) },
                                       start: { [unowned(unsafe) self] in self.start($0, console: $1, seat: seat, udev: udev) })
        } catch { throw KioskError(error.description) }
    }

    /// Runs until a signal, Escape, `seconds` or a failure; true when the kiosk is to start
    /// again in the same process (a reload that changed the display).
    public func run() throws(KioskError) -> Bool {
        do { try frames.run() } catch { throw KioskError("\(error)") }
        return frames.startsAgain
    }

    /// A DRM display: its scanout buffers go to the metrics, and a hotplug on its card is
    /// followed (Platform/ConnectorWatch.swift): the screen going, coming back, or coming
    /// back with another mode.
    private func follow(_ drm: DumbBufferDisplay, settings: DRMDisplayConfiguration, udev: (any UdevCalls)?) {
        frames.health.scanoutBuffers = drm.scanoutBuffers
        let log = self.log
        connectorWatch = frames.followConnector(of: drm, settings: settings, udev: udev, warn: { log.warning($0) })
    }

    /// The display is there: the recording learns its screen, the sensors its rotation, the
    /// frames start, then motion and touch join.
    private func start(_ shown: any Display, console: TextConsole?, seat: String, udev: (any UdevCalls)?) {
        if let (sink, recorded, limit) = recording {
            var header = recorded
            header.width = shown.screen.portraitWidth
            header.height = shown.screen.portraitHeight
            header.rotation = shown.screen.rotation.rawValue
            do throws(TraceWriteError) { frames.record(to: try TraceWriter(sink: sink, bound: .roll(atBytes: limit), header: header)) } catch {
                log.error("recording: \(error)")
            }
        }
        var sensorSettings = configuration.motionSensors
        sensorSettings.rotation = shown.screen.rotation
        sensorSettings.backgroundPollingClock = { monotonicMicroseconds() }
        let sensors = MotionSensors(configuration: sensorSettings, clock: clock, log: RateLimitedLog(log: log, clock: clock))
        log.info("tilt from \(sensors.accelerometer.name)")
        let devices = ["display: \(shown.name), rotation \(shown.screen.rotation)°", "tilt: \(sensors.accelerometer.name)"]
        let scene = self.scene
        clockTrust.verdictChanged = { verdict in scene.devices = devices + ["clock: \(verdict.word), \(verdict.reason)"] }
        clockTrust.refresh(at: clock.now)
        scene.devices = devices + ["clock: \(clockTrust.verdict.word), \(clockTrust.verdict.reason)"]
        do throws(SystemError) { try frames.start(display: shown, console: console) } catch {
            log.error("\(error)")
            frames.loop.stop()
            return
        }
        frames.attachMotion(sensors, hotplug: udev)
        // Touch joins once the first frame is on screen (or the stand is up, closed): opening
        // the seat (udev, every input device, libinput's quirks files) took most of a second
        // of a cold start in the systemd virtual board, and READY waited for it.
        frames.whenUp { [unowned(unsafe) self] in self.attachTouch(seat: seat) }
    }

    private func attachTouch(seat: String) {
        do throws(SystemError) { try frames.attachInput(LibInputSeat(seat: seat)) } catch {
            log.warning("no touch input yet (\(error)); the kiosk runs and shows what it can")
        }
    }

    /// Under systemd (TTYPath=/dev/tty1, StandardInput=tty-force) the VT is the controlling
    /// terminal, reachable as /dev/tty although the kiosk's user may not open /dev/tty0 or
    /// /dev/tty1 by name; elsewhere (a pty, no terminal) fall back to the foreground VT.
    private static func controllingConsole() -> TextConsole {
        let own = TextConsole(system: LinuxSystem.shared, path: "/dev/tty")
        return own.isGraphics ? own : TextConsole(system: LinuxSystem.shared)
    }
}
