#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Diagnostics
import Exhibits
import Geometry
import Gestures
import KioskConfig
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

    func run() throws {
        let configuration = try loadConfiguration()
        let log = Log(minimum: logLevel(configuration.logging.level))
        var settings = KioskApp.Settings()
        settings.order = configuration.exhibits.order.map(\.rawValue).filter { ExhibitCatalog.type(named: $0) != nil }
        settings.locked = exhibit ?? configuration.exhibits.locked?.rawValue
        if let locked = settings.locked, ExhibitCatalog.type(named: locked) == nil {
            throw DisplayFailure("no exhibit named '\(locked)'; exhibits: " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
        }
        settings.idleTimeout = .fromSeconds(configuration.exhibits.idleSeconds)
        settings.attractAfter = .fromSeconds(configuration.exhibits.attractAfterSeconds)
        settings.options.motionCubeShapeCap = configuration.exhibits.motionCubeShapeCap
        settings.options.tiltBoxAltitudeGrey = configuration.exhibits.tiltBoxAltitudeGrey
        settings.commissioningPress = configuration.exhibits.commissioningCornerPress ? 3_000_000 : nil
        let clock = MonotonicClock()
        settings.seed = seed ?? UInt64(truncatingIfNeeded: clock.now) | 1
        let fonts = try FontSet()
        let options = effectiveDisplayOptions(configuration)

        let udev = try? LibUdev()
        var choice = try chooseDisplay(options, udev: udev, clock: clock)
        if case .virtual(let reason) = choice, options.display == .auto, SystemdNotifier().isActive {
            // On a stand (a systemd service) previews help nobody: wait for a display, or
            // fail in plain words so that systemd restarts the kiosk.
            log.warning("no display can be driven yet (\(reason)); as a service the kiosk waits for one")
            var drmOnly = options
            drmOnly.display = .drm
            choice = try chooseDisplay(drmOnly, udev: udev, clock: clock)
        }
        if case .virtual(let reason) = choice, options.display != .virtual {
            settings.width = configuration.display.virtualSize.width
            settings.height = configuration.display.virtualSize.height
            log.warning("no display can be driven (\(reason)); playing each exhibit's demo on the virtual panel instead")
            let written = try writePreviews(settings: settings, fonts: fonts, log: log, folder: previewDir)
            print("virtual panel \(settings.width)x\(settings.height): wrote \(written.count) previews: " + written.joined(separator: ", "))
            return
        }

        let loop = try EventLoop()
        let session = KioskSession(loop: loop, clock: clock, log: log, settings: settings, fonts: fonts,
                                   configuration: configuration, seat: options.seat)
        session.frameFile = frameFile
        defer { session.finish(wakeups: loop.wakeups) }
        if let timer = try leaveOnSignals(loop, orAfter: seconds, say: { log.info($0) }) {
            session.keepAlive.append(timer)
        }
        if let record {
            let sink = try TraceFileSink(path: record)
            session.recorder = try TraceWriter(sink: sink, bound: .roll(atBytes: max(1, recordLimitMb) * 1_000_000))
            log.info("recording touches and sensor samples to \(record) (rolls to \(record).1 at \(recordLimitMb) MB)")
        }

        var hotplug: DRMHotplugWait?
        switch choice {
        case .drm(let display):
            try session.start(drm: display)
        case .waitForHotplug(let why):
            hotplug = try waitForDisplay(why, options: options, udev: udev, loop: loop, clock: clock,
                                         say: { log.warning($0) }, start: session.start(drm:))
        case .virtual:
            let panel = options.mode == nil
                ? VirtualPanel(width: configuration.display.virtualSize.width, height: configuration.display.virtualSize.height)
                : options.virtualPanel()
            log.info("running on the virtual panel (\(panel.name)) as asked")
            try session.start(virtual: panel)
        }
        defer { _ = hotplug }
        try loop.run()
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

    private func logLevel(_ level: KioskConfiguration.Logging.Level) -> LogLevel {
        switch level {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}

/// The running kiosk: display and console, touch and keys, sensors, the app and its frames,
/// systemd's readiness and watchdog, the recorder and the per-minute summary.
final class KioskSession {
    let loop: EventLoop
    let clock: MonotonicClock
    let log: Log
    let settings: KioskApp.Settings
    let fonts: FontSet
    let configuration: KioskConfiguration
    let seat: String
    var keepAlive: [AnyObject] = []
    var recorder: TraceWriter?
    var frameFile: String?

    private var app: KioskApp!  // set once the display is up (sensors start just before)
    private var renderer: SceneRenderer!
    private var display: (any Display)?
    private var drm: DumbBufferDisplay?
    private var console: TextConsole?
    private var input: TouchInput?
    private var sensors: MotionSensors?
    private var sensorReaders: [Int32: UInt64] = [:]
    private var wakeTimer: LoopTimer?
    private var sensorTimer: LoopTimer?
    private let notifier = SystemdNotifier()
    private var readySent = false
    private var finished = false
    private let started: Microseconds
    private var recordStart: Microseconds
    private var lastRecorded: Microseconds = 0
    // Per-minute summary.
    private var framesThisInterval = 0
    private var touchesThisInterval = 0
    private var frameTimes: [Microseconds] = []
    private var frameWanted = true

    init(loop: EventLoop, clock: MonotonicClock, log: Log, settings: KioskApp.Settings, fonts: FontSet,
         configuration: KioskConfiguration, seat: String) {
        self.loop = loop; self.clock = clock; self.log = log; self.settings = settings; self.fonts = fonts
        self.configuration = configuration; self.seat = seat
        started = clock.now
        recordStart = started
    }

    func start(drm display: DumbBufferDisplay) throws {
        drm = display
        log.info("\(display.name), \(display.usesAtomic ? "atomic" : "legacy") modesetting")
        for note in display.notes { log.info(note) }
        // Under systemd (TTYPath=/dev/tty1, StandardInput=tty-force) the VT is the controlling
        // terminal, reachable as /dev/tty although the kiosk's user may not open /dev/tty0 or
        // /dev/tty1 by name; elsewhere (a pty, no terminal) fall back to the foreground VT.
        let ownTerminal = TextConsole(system: LinuxSystem.shared, path: "/dev/tty")
        console = ownTerminal.isGraphics ? ownTerminal : TextConsole(system: LinuxSystem.shared)
        if let note = console?.note { log.info(note) }
        try loop.addReader(display.fd) { [unowned self] in self.flipEventsReady() }
        try start(display)
    }

    /// The live kiosk on the in-memory panel: input and sensors as on a stand, no scanout.
    func start(virtual panel: VirtualPanel) throws {
        try start(panel)
        if !readySent { readySent = true; try? notifier.ready(status: "virtual panel") }
    }

    private func start(_ display: any Display) throws {
        self.display = display
        startInput(screen: display.screen)
        startSensors(rotation: display.screen.rotation)
        var s = settings
        s.width = display.screen.portraitWidth
        s.height = display.screen.portraitHeight
        s.devices = ["display: \(display.name), rotation \(display.screen.rotation)°",
                     "tilt: \(sensors?.accelerometer.name ?? "none")"]
        app = KioskApp(settings: s, fonts: fonts, log: log, start: clock.now)
        renderer = SceneRenderer(canvas: Canvas(buffer: display.backBuffer), fonts: fonts)
        wakeTimer = try loop.addTimer { [unowned self] in self.tick() }
        if let sensors { app.motion(gravity: sensors.worldGravity, altitude: sensors.altitude) }
        try startHousekeeping()
        tick()
    }

    private func startInput(screen: ScreenTransform) {
        do {
            let source = try LibInputSeat(seat: seat)
            input = try TouchInput(source: source, screen: screen, loop: loop) { [unowned self] in self.handle($0) }
        } catch {
            log.warning("no touch input yet (\(error)); the kiosk runs and shows what it can")
        }
    }

    private func startSensors(rotation: PanelRotation) {
        var c = MotionSensorConfiguration()
        let s = configuration.sensors
        switch s.source {
        case .auto: c.accelerometer = .auto
        case .none: c.accelerometer = .fixedDown
        case .keys: c.accelerometer = .arrowKeys
        case .iio: c.accelerometer = s.iioDevice.isEmpty ? .auto : .iio(s.iioDevice)
        case .i2c:
            let bus = s.i2cBus.map { "/dev/i2c-\($0)" } ?? ""
            let chip = I2CAccelChip(rawValue: s.chip.rawValue)
            c.accelerometer = bus.isEmpty ? .auto : .i2c(bus: bus, chip: chip, address: s.i2cAddress.map { UInt8($0) })
        }
        c.iioMode = s.iioBuffered ? .auto : .polled
        c.board = s.mount
        c.rotation = rotation
        c.gravityTimeConstant = s.gravityTimeConstantMilliseconds / 1000
        c.shakeThreshold = s.shakeThreshold
        c.barometer = s.barometer != "none"
        c.backgroundPollingClock = { monotonicMicroseconds() }
        let motion = MotionSensors(configuration: c, clock: clock, log: RateLimitedLog(log: log, clock: clock))
        sensors = motion
        log.info("tilt from \(motion.accelerometer.name)")
        sensorTimer = try? loop.addTimer { [unowned self] in self.serviceSensors() }
        serviceSensors()
    }

    private func serviceSensors() {
        guard let sensors else { return }
        let update = sensors.service()
        for sample in update.samples {
            record(.accel(x: sample.vector.x, y: sample.vector.y, z: sample.vector.z), at: sample.time)
        }
        if let app {
            if update.gravityChanged || update.altitudeChanged {
                app.motion(gravity: sensors.worldGravity, altitude: sensors.altitude)
            }
            for _ in update.shakes { app.shake() }
        }
        // Readable descriptors change on hot-plug: keep the loop's set equal to the sensors'.
        let wanted = Set(sensors.fileDescriptors)
        for (fd, token) in sensorReaders where !wanted.contains(fd) { loop.removeReader(token); sensorReaders[fd] = nil }
        for fd in wanted where sensorReaders[fd] == nil {
            sensorReaders[fd] = try? loop.addReader(fd) { [unowned self] in self.serviceSensors() }
        }
        if let due = sensors.nextDeadline { try? sensorTimer?.arm(after: max(1, due - clock.now)) } else { sensorTimer?.disarm() }
        if app != nil && (update.gravityChanged || !update.shakes.isEmpty) { tick() }
    }

    private func startHousekeeping() throws {
        if let interval = notifier.watchdogInterval {
            let watchdog = try loop.addTimer { [unowned self] in try? self.notifier.watchdog() }
            try watchdog.arm(after: interval / 2, every: interval / 2)
            keepAlive.append(watchdog)
        }
        let every = configuration.logging.summaryIntervalSeconds
        if every > 0 {
            let summary = try loop.addTimer { [unowned self] in self.summarise(seconds: every) }
            try summary.arm(after: .fromSeconds(Double(every)), every: .fromSeconds(Double(every)))
            keepAlive.append(summary)
        }
    }

    private func summarise(seconds: Int) {
        let sorted = frameTimes.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        let exhibit: String
        switch app.screen {
        case .launcher: exhibit = "launcher"
        case .exhibit(let n): exhibit = n
        case .attract(let n): exhibit = "launcher (attract: \(n))"
        }
        log.info("summary: \(fixed1(Double(framesThisInterval) / Double(seconds))) fps, frame p99 \(fixed2(Double(p99) / 1000)) ms, \(touchesThisInterval) touches, \(exhibit), RSS \(residentKilobytes() / 1024) MB")
        framesThisInterval = 0
        touchesThisInterval = 0
        frameTimes.removeAll(keepingCapacity: true)
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .touches(let frame):
            for e in frame.events {
                if e.phase == .down { touchesThisInterval += 1 }
                record(.touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y), at: e.time)
            }
            app.advance(to: clock.now)
            app.handle(frame)
            tick()
        case .key(let k):
            guard k.pressed, let command = k.command else { return }
            switch command {
            case .leave: loop.stop()
            case .tiltLeft: sensors?.arrowKeys?.press(.left)
            case .tiltRight: sensors?.arrowKeys?.press(.right)
            case .tiltUp: sensors?.arrowKeys?.press(.up)
            case .tiltDown: sensors?.arrowKeys?.press(.down)
            }
            serviceSensors()
        case .deviceAdded(let info):
            log.info("input added: \(info.sysname) \"\(info.name)\"\(info.isTouchscreen ? " (touchscreen)" : "")")
        case .permissionDenied(let path):
            log.warning(InputEvent.permissionMessage(path))
        case .deviceRemoved(let id):
            log.info("input removed: device \(id); its touches are cancelled")
            app.deviceRemoved(id, at: clock.now)
            tick()
        }
    }

    private func record(_ payload: TraceRecord.Payload, at time: Microseconds) {
        guard let recorder, !recorder.isStopped else { return }
        // Touches carry libinput's times and samples their own: a sample read late may be
        // older than the last touch written. A trace never goes back, so it is written then.
        lastRecorded = max(lastRecorded, time - recordStart)
        do { _ = try recorder.append(TraceRecord(microseconds: lastRecorded, payload)) } catch {
            log.error("recording stopped: \(error)")
            self.recorder = nil
        }
    }

    /// Advances the app to now, draws if the pacing allows, and sleeps until the next reason to wake.
    private func tick() {
        guard let display else { return }
        let now = clock.now
        app.advance(to: now)
        if let drm {
            switch drm.frameDecision() {
            case .waitForFlip: return  // the flip event calls again
            case .waitUntil(let t): try? wakeTimer?.arm(after: max(1, t - now)); return
            case .submitNow: break
            }
        }
        let begin = clock.now
        let damage = app.render(with: renderer)
        if !damage.isEmpty {
            do { try display.present(damage: damage) } catch {
                log.error("\(error)")
                loop.stop()
                return
            }
            framesThisInterval += 1
            frameTimes.append(clock.now - begin)
            if frameTimes.count > 20_000 { frameTimes.removeFirst(10_000) }
        }
        scheduleNext()
    }

    private func scheduleNext() {
        let now = clock.now
        if app.isAnimating {
            // The next frame comes with the flip event (DRM) or the pacing timer.
            if drm == nil { try? wakeTimer?.arm(after: 16_667) }
            return
        }
        if let due = app.nextDeadline { try? wakeTimer?.arm(after: max(1, due - now)) } else { wakeTimer?.disarm() }
    }

    private func flipEventsReady() {
        guard let drm else { return }
        do { try drm.readFlipEvents() } catch { log.error("\(error)"); loop.stop(); return }
        if !readySent && drm.framesShown > 0 {
            readySent = true
            let ms = Double(clock.now - started) / 1000
            var line = "first frame on screen \(fixed1(ms)) ms after start"
            if let since = millisecondsSinceProcessStart() { line += ", \(fixed1(since)) ms after process start" }
            // Written before the next frame is drawn: the back buffer still holds what is shown.
            if let frameFile, let display {
                do { try writePPM(display.backBuffer, to: frameFile); line += ", frame written to \(frameFile)" } catch {
                    line += ", writing \(frameFile) failed: \(error)"
                }
            }
            log.info(line)
            try? notifier.ready(status: "showing \(drm.name)")
        }
        if app.isAnimating { tick() } else { scheduleNext() }
    }

    func finish(wakeups: Int) {
        guard !finished else { return }
        finished = true
        try? notifier.stopping()
        sensors?.close()
        if let drm {
            drm.restore()
            console?.restore()
            for note in drm.notes { log.debug(note) }
        }
        log.info("stopped after \(wakeups) wakeups, RSS \(residentKilobytes() / 1024) MB")
    }
}

/// Resident memory of this process, from /proc/self/statm.
func residentKilobytes() -> Int {
    guard let statm = try? LinuxSystem.shared.readSmallFile("/proc/self/statm") else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}
