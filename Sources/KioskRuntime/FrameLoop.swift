#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import OpeningHours
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// The kiosk's runtime: one loop that the stand (`run`), the test pattern (`pattern`),
/// `replay` and the tests all drive. It owns the display and its pacing, touch input,
/// motion sensors, the clock, the console, systemd's readiness and watchdog, the recorder,
/// first-frame and summary logging, the black box, and leaving on SIGTERM, SIGINT, SIGHUP
/// or SIGQUIT (SIGUSR1: a status line and a black-box dump; SIGUSR2: a screenshot).
///
/// One wake-up, whatever woke it (touch, flip event, timer, sensor):
/// 1. touch frames that arrived are handled at their own times (the content is advanced
///    to each frame's time first, so a deadline after it cannot fire before it);
/// 2. motion samples likewise, at their times;
/// 3. the content is advanced to now and, if the display's pacing allows, drawn and
///    presented; the next wake is the flip event, the pacing timer while something moves,
///    the content's next deadline, or nothing at all (zero wakeups at rest).
public final class FrameLoop {
    public let loop: EventLoop
    public let clock: any Clock
    public let log: Log
    public let content: any FrameContent
    public private(set) var settings: FrameLoopSettings
    public private(set) var display: (any Display)?
    /// Frames drawn and handed to the display.
    public private(set) var framesPresented = 0
    /// The content's start: trace times count from here.
    public private(set) var contentStart: Microseconds = 0
    /// Whether the first frame reached the screen (READY went to systemd then).
    public private(set) var firstFrameShown = false

    private var console: TextConsole?
    private var input: TouchInput?
    /// Phantom taps (Platform/PhantomTapFilter.swift) never reach the content.
    private var phantomTaps = PhantomTapFilter()
    private var sensors: MotionSensors?
    private var recorder: TraceRecorder?
    private var blackBox: BlackBox?
    private var askedDumpSkipSaid = false
    private var lastRestartPoint: KioskApp.RestartPoint?
    /// Touch slots with a finger down (a resting stand polls its accelerometer slowly only
    /// while this is empty).
    private var slotsDown: Set<Int> = []
    /// Touch frames handled since the last frame was drawn (their kernel times), and those
    /// drawn into a frame that has not reached the glass yet (with that frame's number).
    private var touchesAwaitingFrame: [Microseconds] = []
    private var touchesAwaitingFlip: [(frame: Int, time: Microseconds)] = []
    /// When the last frame went out while something moved (the next one is due soon).
    private var animatingSince: Microseconds?
    private var wakeTimer: LoopTimer?
    private var sensorTimer: LoopTimer?
    private var sensorReaders: [Int32: UInt64] = [:]
    private var sensorMonitor: (any UdevMonitoring)?
    private var keepAlive: [LoopTimer] = []
    private let started: Microseconds
    private var finished = false
    private var summary = FrameSummary()
    private var escapeRefusalSaid = false
    /// Fingers that went down since the start.
    public private(set) var touchesSeen = 0
    /// What the metrics file reports.
    public let health: StandHealth
    private var metricsProblemSaid = false
    /// The metrics file last written and which file it was, so that a reload moving or
    /// clearing `[metrics] path` removes it (if nobody replaced it since).
    private var metricsWritten: (path: String, file: FileStatus)?
    private var metricsTimer: LoopTimer?
    private var statistics: VisitorStatistics?
    /// Called on SIGHUP instead of leaving: `systemctl reload` re-reads the configuration.
    public var onReload: (() -> Void)?
    /// The loop left so that the kiosk starts again in the same process (a reload that
    /// changed the display): systemd hears no STOPPING.
    public private(set) var startsAgain = false
    /// Opening hours: whether it was open at the last wake-up (nil before the first), and
    /// until when a touch keeps the display on while closed.
    private var wasOpen: Bool?
    private var wokenUntil: Microseconds?
    /// The display came back on, or a flip was lost: the next frame goes out whole, even if
    /// nothing changed.
    private var presentWhole = false
    /// Lost flips the log has told of, and when it last did (one line a minute at most: a
    /// panel that stays away loses one a second).
    private var flipsLostTold = 0
    private var lostFlipToldAt: Microseconds?
    /// Times the wake-up timer could not be armed, and when the log last said so.
    private var wakeArmFailures = 0
    private var wakeArmFailureToldAt: Microseconds?

    public init(loop: EventLoop, clock: any Clock, log: Log, content: any FrameContent, settings: FrameLoopSettings = FrameLoopSettings()) {
        self.loop = loop; self.clock = clock; self.log = log; self.content = content; self.settings = settings
        started = clock.now
        health = StandHealth(processStartTime: settings.processStartTime ?? WallClock.now())
        // The loop's handlers capture this frame loop unretained: they live in `loop`, which
        // this object owns, so none can run after it is gone (Embedded Swift has no weak).
        loop.afterWake = { [unowned(unsafe) self] in self.wake() }
    }

    // MARK: Starting

    /// Ends the loop on SIGTERM, SIGINT, SIGHUP or SIGQUIT (saying which), and after `seconds`
    /// if given; on SIGUSR1 says how it is doing and goes on. All of them are taken through
    /// the loop, so none can end the process with the console still in graphics mode (a
    /// closed SSH session sends SIGHUP; Ctrl-\ sends SIGQUIT).
    public func leaveOnSignals(orAfter seconds: Double? = nil) throws(SystemError) {
        try loop.onSignals(FrameLoop.handledSignals) { [unowned(unsafe) self] signal in
            if signal == SIGUSR1 {
                self.say("SIGUSR1: " + self.statusLine())
                self.dumpBlackBoxAskedFor()
                return
            }
            if signal == SIGUSR2 {
                self.writeScreenshot()
                return
            }
            if signal == SIGHUP, let reload = self.onReload {
                reload()
                return
            }
            self.say("\(FrameLoop.signalName(signal)): leaving")
            self.loop.stop()
        }
        guard let seconds, seconds.isFinite, seconds >= 0 else { return }
        let timer = try loop.addTimer { [unowned(unsafe) self] in self.loop.stop() }
        try timer.arm(after: Microseconds(min(seconds, 1e9) * 1e6))
        keepAlive.append(timer)
    }

    /// The signals that end the loop cleanly.
    public static let leavingSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]
    /// Every signal the loop takes (`EventLoop.holdSignals` them from the very start).
    public static let handledSignals: [Int32] = leavingSignals + [SIGUSR1, SIGUSR2]

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }

    /// What a technician asking with SIGUSR1 learns: what is showing, frames and touches since
    /// start, the display and the memory in use.
    func statusLine() -> String {
        let seconds = Double(clock.now - started) / 1_000_000
        var line = "showing \(content.summaryName), \(framesPresented) frames, \(touchesSeen) touches in \(fixed1(seconds)) s"
        if let display { line += ", on \(display.name)" }
        if let latency = health.touchToPhoton.summary { line += ", " + latency }
        return line + ", RSS \(residentKilobytes() / 1024) MB"
    }

    /// Shows `content` on `display` from now on. `console` (a DRM display's VT) is given
    /// back when the loop finishes.
    public func start(display: any Display, console: TextConsole? = nil) throws(SystemError) {
        self.display = display
        self.console = console
        phantomTaps = PhantomTapFilter(millimetresPerPixel: display.millimetresPerPixel)
        if let note = console?.note { say(note) }
        if let fd = display.flipEventDescriptor {
            try loop.addReader(fd) { [unowned(unsafe) self] in self.flipEventsReady() }
        } else if settings.announceReadyAtStart {
            announceReady(status: display.name)
        }
        contentStart = clock.now
        health.displayOn = true
        content.attach(to: display, at: contentStart)
        startBlackBox()
        wakeTimer = try loop.addTimer {}
        do { try loop.onWallClockStep { [unowned(unsafe) self] in self.wallClockStepped() } } catch {
            log.warning("opening hours: a step of the wall clock will be noticed within the hour only: \(error)")
        }
        try startHousekeeping()
        recorder?.begin(at: contentStart)
        wake()
    }

    /// Touch from `source` (libinput, or a scripted source in tests), mapped through the
    /// display's screen transform. Call after `start`.
    public func attachInput(_ source: any InputEventSource) throws(SystemError) {
        guard let display else { return }
        let touch = TouchInput(source: source, screen: display.screen, mouseIsFinger: settings.mouseIsFinger,
                               calibration: settings.touchCalibration) { [unowned(unsafe) self] in self.deliver($0) }
        input = touch
        try loop.addReader(source.fd) { touch.dispatch() }
        touch.dispatch()
    }

    /// Tilt, shakes and altitude from `sensors`. With `udev`, a sensor plugged in (or back)
    /// is looked for at once instead of on the retry schedule. Call after `start`.
    public func attachMotion(_ sensors: MotionSensors, hotplug udev: (any UdevCalls)? = nil) {
        self.sensors = sensors
        sensorTimer = try? loop.addTimer {}
        if let udev, let monitor = try? udev.monitor(subsystems: ["iio", "i2c-dev"]) {
            sensorMonitor = monitor
            _ = try? loop.addReader(monitor.fd) {
                var changed = false
                while monitor.receive() != nil { changed = true }
                if changed { sensors.rescan() }
            }
        }
        serviceSensors()
        content.motion(gravity: sensors.worldGravity, altitude: sensors.altitude)
    }

    /// Records touches and motion samples, with the settings in `header`, from the start.
    public func record(to writer: TraceWriter) {
        recorder = TraceRecorder(writer: writer, log: log)
        if display != nil { recorder?.begin(at: contentStart) }
    }

    // MARK: Input

    /// One input event, as `TouchInput` translates it (or a replay produces it).
    public func deliver(_ event: InputEvent) {
        switch event {
        case .touches(let panelFrame):
            guard let frame = phantomTaps.filter(panelFrame) else { health.phantomTaps = phantomTaps.ignored; return }
            if let schedule = settings.schedule, !schedule.isOpen(at: max(frame.time, content.now)) {
                guard let wakeFor = schedule.wakeFor else { return }   // closed: touches do nothing
                let downs = frame.events.contains { $0.phase == .down }
                let asleep = !(display?.isPoweredOn ?? true)
                if downs { wokenUntil = max(frame.time, content.now) + wakeFor }
                // The touch that wakes the screen only wakes it, as on a phone.
                if asleep { return }
            }
            // Input before time: the content reaches the frame's own time, then takes it.
            let at = max(frame.time, content.now)
            content.advance(to: at)
            followRestartPoint(exact: true)
            for e in frame.events {
                if e.phase == .down { summary.touches += 1; touchesSeen += 1; health.touchDown(device: e.device, at: e.time) }
                note(.touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y), at: at)
                switch e.phase {
                case .down: slotsDown.insert(e.slot)
                case .up, .cancel: slotsDown.remove(e.slot)
                case .move: break
                }
            }
            sensors?.fingersDown = !slotsDown.isEmpty
            content.handle(frame)
            if touchesAwaitingFrame.count < 256 { touchesAwaitingFrame.append(frame.time) }
        case .key(let k):
            guard k.pressed, let command = k.command else { return }
            switch command {
            case .leave:
                if settings.escapeLeaves { say("Escape: leaving"); loop.stop() } else if !escapeRefusalSaid {
                    escapeRefusalSaid = true
                    say("Escape pressed: the kiosk goes on (input.escape_leaves)")
                }
            case .tiltLeft: sensors?.arrowKeys?.press(.left)
            case .tiltRight: sensors?.arrowKeys?.press(.right)
            case .tiltUp: sensors?.arrowKeys?.press(.up)
            case .tiltDown: sensors?.arrowKeys?.press(.down)
            }
            content.key(command)
        case .deviceAdded(let info):
            health.deviceAdded(info)
            content.inputAdded(info)
        case .permissionDenied(let path):
            log.warning(InputEvent.permissionMessage(path))
        case .deviceRemoved(let id):
            health.deviceRemoved(id)
            slotsDown.removeAll()
            sensors?.fingersDown = false
            content.deviceRemoved(id, at: content.now)
        }
    }

    // MARK: Motion

    private func serviceSensors() {
        guard let sensors else { return }
        // Samples are timed no earlier than the content: what the pipeline filters is what
        // the trace records.
        let update = sensors.service(notBefore: content.now)
        apply(update)
        // Readable descriptors change on hot-plug: keep the loop's set equal to the sensors'.
        let wanted = sensors.fileDescriptors
        for (fd, token) in sensorReaders where !wanted.contains(fd) { loop.removeReader(token); sensorReaders[fd] = nil }
        for fd in wanted where sensorReaders[fd] == nil {
            sensorReaders[fd] = try? loop.addReader(fd) {}
        }
        if let due = sensors.nextDeadline { try? sensorTimer?.arm(after: max(1, due - clock.now)) } else { sensorTimer?.disarm() }
    }

    /// The samples of one sensor read, each at its own time, as a replay applies them.
    private func apply(_ update: MotionUpdate) {
        guard let sensors else { return }
        for (i, reading) in update.read.enumerated() {
            let v = reading.sample.vector
            let at = max(reading.sample.time, content.now)
            // Deadlines up to this sample first: a restart point they reach comes after it in
            // the black box (the pipeline has already taken it), exactly only when the
            // pipeline took nothing later and it finished no shake.
            content.advance(to: at)
            note(update.direct ? .gravity(x: v.x, y: v.y, z: v.z) : .accel(x: v.x, y: v.y, z: v.z), at: at)
            var shook = false
            if case .accepted(let shake) = reading.outcome, shake != nil { shook = true }
            followRestartPoint(exact: i == update.read.count - 1 && !shook)
            applyMotion(reading, altitude: sensors.altitude, at: at)
        }
        for p in update.pressures {
            let at = max(p.time, content.now)
            content.advance(to: at)
            followRestartPoint(exact: true)
            note(.pressure(kpa: p.kilopascals), at: at)
        }
        if update.altitudeChanged { content.motion(gravity: sensors.worldGravity, altitude: sensors.altitude) }
    }

    /// One accelerometer sample reaching the content: live and replay alike.
    func applyMotion(_ reading: MotionReading, altitude: Double?, at time: Microseconds) {
        content.advance(to: time)
        guard case .accepted(let shake) = reading.outcome else { return }
        content.motion(gravity: reading.worldGravity, altitude: altitude)
        if shake != nil { content.shake() }
    }

    // MARK: Frames

    /// One wake-up's work, after its handlers ran: input first, then motion, then time.
    private func wake() {
        if finished { return }
        input?.dispatch()
        serviceSensors()
        guard let display else { return }
        content.advance(to: clock.now)
        followRestartPoint(exact: true)
        if let schedule = settings.schedule, !followOpeningHours(schedule, display: display) { animatingSince = nil; return }
        switch frameDecision(display) {
        case .waitForFlip(let giveUpAt):
            // The flip event wakes the loop; should it never come, this timer does.
            armWake(after: giveUpAt - clock.now)
            return
        case .waitUntil(let t):
            armWake(after: t - clock.now)
            return
        case .submitNow:
            break
        }
        let begin = clock.now
        var damage = content.render()
        if presentWhole {
            presentWhole = false
            if damage.isEmpty { damage = [display.backBuffer.bounds] }
        }
        // Touches that changed nothing on the glass have no photon to wait for.
        if damage.isEmpty { touchesAwaitingFrame.removeAll(keepingCapacity: true) }
        if !damage.isEmpty {
            let shownBefore = display.framesShown
            do { try display.present(damage: damage) } catch {
                log.error("\(error)")
                health.displayOn = false
                dumpBlackBox(reason: "display-error")
                loop.stop()
                return
            }
            framesPresented += 1
            summary.frame(took: clock.now - begin)
            health.frame(took: clock.now - begin)
            for t in touchesAwaitingFrame { touchesAwaitingFlip.append((shownBefore + 1, t)) }
            touchesAwaitingFrame.removeAll(keepingCapacity: true)
            // A frame already up when present returns (a virtual panel, the first SetCrtc of
            // legacy modesetting) sends no flip event.
            if display.framesShown > shownBefore { frameShown() }
        }
        watchForStall(frameBegan: begin)
        scheduleNext()
    }

    /// Draws now, whatever the pacing says (a replay's checkpoint); nothing while the
    /// display is off.
    func drawNow() {
        guard let display, display.isPoweredOn else { return }
        let damage = content.render()
        if !damage.isEmpty, (try? display.present(damage: damage)) != nil { framesPresented += 1 }
    }

    private func scheduleNext() {
        guard let display else { return }
        let decision = frameDecision(display)
        if content.isAnimating {
            switch decision {
            case .waitForFlip(let giveUpAt): armWake(after: giveUpAt - clock.now)
            case .waitUntil(let t): armWake(after: t - clock.now)
            case .submitNow: armWake(after: FrameLoopSettings.unpacedFrameInterval)
            }
            return
        }
        var next = content.nextDeadline
        // A still picture's last flip too is given up on if its event never comes.
        if case .waitForFlip(let giveUpAt) = decision { next = min(next ?? giveUpAt, giveUpAt) }
        if let schedule = settings.schedule {
            for d in [schedule.nextLook(after: clock.now), wokenUntil] { if let d { next = min(next ?? d, d) } }
        }
        if let due = next { armWake(after: due - clock.now) } else { wakeTimer?.disarm() }
    }

    /// The display's decision for the next frame, and any flip it gave up on to reach it.
    private func frameDecision(_ display: any Display) -> FramePacing.Decision {
        let decision = display.frameDecision()
        noteLostFlips(display)
        return decision
    }

    /// Flips the display gave up on since the last look: said (once a minute at most), counted
    /// in the metrics, written to the black box (as a stall is), and the next frame goes out
    /// whole with the mode set again.
    private func noteLostFlips(_ display: any Display) {
        let lost = display.flipsLost
        guard lost > health.flipsLost else { return }
        health.flipsLost = lost
        presentWhole = true
        let now = clock.now
        if let told = lostFlipToldAt, now - told < 60_000_000 { return }
        let seconds = FramePacing.flipTimeout / 1_000_000
        let more = lost - flipsLostTold
        log.warning("display: \(more == 1 ? "a page flip was" : "\(more) page flips were") not completed within \(seconds) s; "
                    + "setting the mode again (\(lost) lost since start)")
        flipsLostTold = lost
        lostFlipToldAt = now
        if blackBox?.takesUnaskedDump(at: now) == true { dumpBlackBox(reason: "lost-flip") }
    }

    // MARK: Opening hours

    /// Turns the display on or off as the hours (and a waking touch) say; false while it is
    /// off: no frame, and the only wake-ups are the next opening, a touch, and housekeeping.
    private func followOpeningHours(_ schedule: StandSchedule, display: any Display) -> Bool {
        let now = clock.now
        let open = schedule.isOpen(at: now)
        if open { wokenUntil = nil }
        if let until = wokenUntil, now >= until { wokenUntil = nil }
        let on = open || wokenUntil != nil
        let opening = open && wasOpen == false
        wasOpen = open
        if on != display.isPoweredOn || opening {
            if on != display.isPoweredOn {
                do { try display.setPower(on) } catch { log.error("\(error)") }
                for problem in settings.backlights?.setPower(on) ?? [] { log.warning(problem) }
                health.displayOn = on
                let next = schedule.nextChange(after: now).map { " until \(schedule.wallClock.civil(at: $0))" } ?? ""
                say(on ? (open ? "open: display on" : "woken by a touch while closed: display on") + next
                       : "closed: display off" + next)
                if on { presentWhole = true }
            }
            content.displayPower(on: on, opening: opening)
            writeMetrics()
        }
        if !on {
            // Closed from the start: systemd still hears that the kiosk is up.
            if !firstFrameShown { announceReady(status: "closed: display off") }
            var next = schedule.nextLook(after: now)
            if let until = wokenUntil { next = min(next, until) }
            armWake(after: next - now)
            return false
        }
        return true
    }

    /// Arms the wake-up timer. Should that fail, the loop may sleep through a deadline (an
    /// opening, a frame): said once a minute at most, with the count.
    private func armWake(after delay: Microseconds) {
        do { try wakeTimer?.arm(after: max(1, delay)) } catch {
            wakeArmFailures += 1
            let now = clock.now
            if let told = wakeArmFailureToldAt, now - told < 60_000_000 { return }
            wakeArmFailureToldAt = now
            log.error("wake-up timer: \(error) (\(wakeArmFailures) failed since start); the next opening, closing or frame may be late")
        }
    }

    /// The wall clock was set (an NTP step after boot on a Pi without a real-time clock):
    /// the hours are looked at again on this wake-up, and the next change found anew.
    private func wallClockStepped() {
        guard settings.schedule != nil else { return }
        say("wall clock set: opening hours looked at again")
    }

    private func flipEventsReady() {
        guard let display else { return }
        do { _ = try display.readFlipEvents() } catch {
            log.error("\(error)")
            dumpBlackBox(reason: "display-error")
            loop.stop()
            return
        }
        if display.framesShown > 0 { frameShown() }
    }

    private func frameShown() {
        guard let display else { return }
        if !touchesAwaitingFlip.isEmpty {
            let shownAt = display.lastShownAt ?? clock.now
            var waiting = 0
            for entry in touchesAwaitingFlip {
                if entry.frame <= display.framesShown { health.touchToPhoton.add(shownAt - entry.time) } else {
                    touchesAwaitingFlip[waiting] = entry
                    waiting += 1
                }
            }
            touchesAwaitingFlip.removeLast(touchesAwaitingFlip.count - waiting)
        }
        guard !firstFrameShown else { return }
        firstFrameShown = true
        health.startToFirstFrameSeconds = Double(clock.now - started) / 1_000_000
        writeMetrics()
        var line = settings.firstFrameLine(Double(clock.now - started) / 1000)
        if let since = millisecondsSinceProcessStart() { line += ", \(fixed1(since)) ms after process start" }
        // Written before the next frame is drawn: the back buffer still holds what is shown.
        if let path = settings.frameFile {
            do { try writePPM(display.backBuffer, to: path); line += ", frame written to \(path)" } catch {
                line += ", writing \(path) failed: \(error)"
            }
        }
        say(line)
        if display.flipEventDescriptor != nil { announceReady(status: "showing \(display.name)") }
    }

    private func announceReady(status: String) {
        try? settings.notifier?.ready(status: status)
    }

    // MARK: Black box

    private func startBlackBox() {
        guard var box = settings.blackBox, let display else { blackBox = nil; return }
        box.header.width = display.screen.portraitWidth
        box.header.height = display.screen.portraitHeight
        box.header.rotation = display.screen.rotation.rawValue
        blackBox = BlackBox(settings: box)
        lastRestartPoint = nil
        followRestartPoint(exact: true)
    }

    /// A reloaded configuration's black box. When the kiosk started again (`restarted`), what
    /// was kept belongs to the old settings and goes; otherwise it is kept and only the
    /// settings written with the next dump change.
    public func update(blackBox box: BlackBoxSettings?, restarted: Bool) {
        let before = blackBox
        settings.blackBox = box
        if restarted || box == nil || before == nil || before?.settings.window != box?.window || before?.settings.capacity != box?.capacity {
            startBlackBox()
        } else if let before, var box {
            box.header.width = before.settings.header.width
            box.header.height = before.settings.header.height
            box.header.rotation = before.settings.header.rotation
            before.settings = box
        }
    }

    /// What the loop handled, for `--record` and the black box alike.
    private func note(_ payload: TraceRecord.Payload, at time: Microseconds) {
        recorder?.record(payload, at: time)
        blackBox?.record(payload, at: time)
    }

    /// A new restart point of the content starts a black-box segment, when the loop is at a
    /// place a replay can start from exactly (`exact`); the shake window restarts with it.
    private func followRestartPoint(exact: Bool) {
        guard let box = blackBox, let point = content.restartPoint, point != lastRestartPoint else { return }
        lastRestartPoint = point
        guard exact else { return }
        box.begin(BlackBoxRing.Start(point: point, motion: sensors?.pipeline.snapshot))
        sensors?.restartShakeWindow()
    }

    /// A frame that took too long, or came too long after the last while something moved,
    /// writes a dump (at most one per quiet time).
    private func watchForStall(frameBegan begin: Microseconds) {
        guard let box = blackBox, let limit = box.settings.stall else { return }
        let now = clock.now
        let waited = animatingSince.map { begin - $0 } ?? 0
        let took = now - begin
        animatingSince = content.isAnimating ? now : nil
        guard took > limit || waited > limit else { return }
        guard box.takesUnaskedDump(at: now) else { return }
        log.warning("frame stall: \(fixed1(Double(max(took, waited)) / 1000)) ms \(took > limit ? "drawing a frame" : "between frames")")
        dumpBlackBox(reason: "stall")
    }

    /// SIGUSR1's dump, at most one per `askedQuiet`; the ones between are said to be
    /// skipped once per quiet time, so that a flood of signals neither fills the disk nor the
    /// journal.
    private func dumpBlackBoxAskedFor() {
        guard let box = blackBox else { return }
        let turn = box.takesAskedDump(at: clock.now)
        if turn.granted {
            askedDumpSkipSaid = false
            dumpBlackBox(reason: "sigusr1")
        } else if !askedDumpSkipSaid {
            askedDumpSkipSaid = true
            say("black box: a dump was written less than \(box.settings.askedQuiet / 1_000_000) s ago; no new one for \(fixed1(Double(turn.wait) / 1_000_000)) s")
        }
    }

    /// Writes the black box's dump now (SIGUSR1, a stall, a fatal error) and says where;
    /// nil when there is no black box or writing failed (said too).
    @discardableResult
    public func dumpBlackBox(reason: String) -> BlackBoxDump? {
        guard let box = blackBox else { return nil }
        do {
            let dump = try box.dump(reason: reason, now: content.now, state: content.stateText ?? "{}",
                                    screen: display?.backBuffer, system: settings.system)
            say("black box: \(dump.records) records written to \(dump.folder)" + (dump.replaysExactly ? "" : " (partial: it starts mid-visit)"))
            return dump
        } catch {
            log.warning("black box: cannot write to \(box.settings.folder): \(error)")
            return nil
        }
    }

    // MARK: Housekeeping

    private func startHousekeeping() throws(SystemError) {
        if let notifier = settings.notifier, let interval = notifier.watchdogInterval {
            let watchdog = try loop.addTimer { try? notifier.watchdog() }
            try watchdog.arm(after: interval / 2, every: interval / 2)
            keepAlive.append(watchdog)
        }
        let every = settings.summaryIntervalSeconds
        if every > 0 {
            let timer = try loop.addTimer { [unowned(unsafe) self] in
                self.say(self.summary.line(seconds: every, showing: self.content.summaryName) + ", RSS \(residentKilobytes() / 1024) MB")
                self.summary = FrameSummary()
            }
            try timer.arm(after: Microseconds(every) * 1_000_000, every: Microseconds(every) * 1_000_000)
            keepAlive.append(timer)
        }
        try armMetricsTimer()
        if settings.visitorStatisticsFile != nil, let wallClock = settings.visitorStatisticsWallClock {
            statistics = VisitorStatistics(wallClock: wallClock)
            let timer = try loop.addTimer { [unowned(unsafe) self] in self.flushVisitorStatistics() }
            try timer.arm(after: FrameLoopSettings.visitorStatisticsInterval, every: FrameLoopSettings.visitorStatisticsInterval)
            keepAlive.append(timer)
        }
    }

    /// Appends what visitors did since the last time (nothing is written when nobody played).
    public func flushVisitorStatistics(endingVisit: Bool = false) {
        guard let statistics, let path = settings.visitorStatisticsFile else { return }
        if let events = content.takeVisitorEvents(endingVisit: endingVisit) { statistics.add(events) }
        do { try statistics.flush(to: path, system: settings.system) } catch {
            log.warning("visitor statistics: cannot write \(path): \(error)")
        }
    }

    private func armMetricsTimer() throws(SystemError) {
        if metricsTimer == nil { metricsTimer = try loop.addTimer { [unowned(unsafe) self] in self.writeMetrics() } }
        guard settings.metricsFile != nil else { metricsTimer?.disarm(); return }
        let interval = Microseconds(max(1, settings.metricsIntervalSeconds)) * 1_000_000
        try metricsTimer?.arm(after: interval, every: interval)
    }

    /// A reloaded configuration's metrics file and opening hours, from now on (the hours
    /// are looked at again at once: closing time may have moved).
    public func update(metricsFile: String?, metricsIntervalSeconds: Int, schedule: StandSchedule?) {
        if metricsFile != settings.metricsFile { removeMetricsFile() }
        settings.metricsFile = metricsFile
        settings.metricsIntervalSeconds = metricsIntervalSeconds
        settings.schedule = schedule
        metricsProblemSaid = false
        try? armMetricsTimer()
        if schedule == nil, let display, !display.isPoweredOn {
            // No hours any more: the display comes back now.
            do { try display.setPower(true) } catch { log.error("\(error)") }
            _ = settings.backlights?.setPower(true)
            health.displayOn = true
            presentWhole = true
            content.displayPower(on: true, opening: true)
        }
        wasOpen = nil
        writeMetrics()
    }

    /// The metrics as they stand now (what the file gets).
    public func metricsText() -> String {
        var accelerometer: StandHealth.Accelerometer? = nil
        if let sensors {
            var dropped: [String: Int] = [:]
            for reason in BadSampleReason.allCases { dropped[FrameLoop.metricName(reason)] = sensors.validator.dropped[reason] ?? 0 }
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

    /// SIGUSR2 (`motionkiosk screenshot`): the picture on the glass, as a PNG at
    /// `screenshotFile`, replaced whole (temporary file, then rename).
    func writeScreenshot() {
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

    /// Writes the metrics file (temporary file, then rename); a failure is said once.
    private func writeMetrics() {
        guard let path = settings.metricsFile else { return }
        do {
            if let file = try writeFileAtomically(path, metricsText(), system: settings.system) { metricsWritten = (path, file) }
        } catch {
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

    /// The display's screen went or came (the hotplug handler, Platform/ConnectorWatch.swift).
    public func displayConnectorChanged(_ change: DumbBufferDisplay.ConnectorChange) {
        switch change {
        case .unchanged: return
        case .gone:
            say("display: the screen went away; running dark until it comes back")
            health.displayOn = false
            health.screenLosses += 1
        case .back:
            say("display: the screen is back; showing the current picture")
            health.displayOn = display?.isPoweredOn ?? true
            presentWhole = true
            wake()
        case .otherMode(let mode):
            say("display: the screen came back as \(mode); starting again for its size")
            leaveToStartAgain()
        }
    }

    /// Leaves the loop, gives the display and devices back, and marks the process for
    /// starting again (`startsAgain`); the caller then replaces the process image.
    public func leaveToStartAgain() {
        startsAgain = true
        say("leaving to start again")
        loop.stop()
    }

    /// Runs until leaving; then gives everything back (`finish`).
    public func run() throws(SystemError) {
        defer { finish() }
        try loop.run()
    }

    /// Stops sensors and the recorder, gives the display and console back. Idempotent.
    public func finish() {
        guard !finished else { return }
        finished = true
        if !startsAgain { try? settings.notifier?.stopping() }
        sensors?.close()
        recorder?.finish(at: content.now)
        flushVisitorStatistics(endingVisit: true)
        health.displayOn = false
        writeMetrics()
        if let display {
            let notesBefore = display.notes.count
            display.restore()
            console?.restore()
            for note in display.notes.dropFirst(notesBefore) { say(note) }
            if display.flipEventDescriptor != nil { say("console restored") }
        }
        say("stopped after \(loop.wakeups) wakeups, RSS \(residentKilobytes() / 1024) MB"
            + (health.touchToPhoton.summary.map { ", " + $0 } ?? ""))
    }

    private func say(_ line: String) { settings.say?(line) ?? log.info(line) }
}

/// How a `FrameLoop` behaves around its content.
public struct FrameLoopSettings {
    /// Write the first frame that reached the screen here (binary PPM, portrait).
    public var frameFile: String?
    /// A summary line this often (0: never).
    public var summaryIntervalSeconds = 0
    /// systemd's notify socket (READY after the first frame, WATCHDOG, STOPPING).
    public var notifier: SystemdNotifier?
    /// Whether a display without flip events (the virtual panel) is READY at once.
    public var announceReadyAtStart = true
    /// Whether Escape ends the loop.
    public var escapeLeaves = true
    /// A mouse acts as one finger (`[input] mouse_as_finger`).
    public var mouseIsFinger = true
    /// `[touch] transform` and `calibration`, applied to touch before the screen's rotation.
    public var touchCalibration = TouchCalibration.identity
    /// Where the loop's own lines go (the test pattern writes them to stdout at once);
    /// nil: the log at info level.
    public var say: ((String) -> Void)?
    /// The start of the line that says the first frame reached the screen, given the
    /// milliseconds since the loop started (the board tests read it).
    public var firstFrameLine: (Double) -> String = { "first frame on screen \(fixed1($0)) ms after start" }
    /// Frames while something moves on a display that lets every frame out at once.
    public static let unpacedFrameInterval: Microseconds = 16_667
    /// The Prometheus metrics file (node_exporter's textfile collector), written this often.
    public var metricsFile: String?
    public var metricsIntervalSeconds = 15
    /// Where the metrics file is written through (tests use a fake).
    public var system: any SystemCalls = LinuxSystem.shared
    /// The process's start, seconds since 1970; nil: read the wall clock when the loop is made.
    public var processStartTime: Double?
    /// Opening hours; nil: always open.
    public var schedule: StandSchedule?
    /// Where SIGUSR2 writes a PNG of the screen (`motionkiosk screenshot` asks for it).
    public var screenshotFile: String?
    /// The black box (last minutes in RAM, dumps on SIGUSR1, stalls and fatal errors); nil: off.
    public var blackBox: BlackBoxSettings?
    /// Backlights switched with the display (a DSI panel's); nil: none.
    public var backlights: Backlights?
    /// Where the anonymous visitor statistics are appended (every few minutes while people
    /// play, and on leaving), and the wall clock their hours are counted on.
    public var visitorStatisticsFile: String?
    public var visitorStatisticsWallClock: ((Microseconds) -> CivilTime)?
    public static let visitorStatisticsInterval: Microseconds = 600_000_000

    public init() {}
}

/// Frames and touches between two summary lines.
struct FrameSummary {
    var frames = 0
    var touches = 0
    var frameTimes: [Microseconds] = []

    mutating func frame(took: Microseconds) {
        frames += 1
        if frameTimes.count < 20_000 { frameTimes.append(took) }
    }

    func line(seconds: Int, showing: String) -> String {
        let sorted = frameTimes.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return "summary: \(fixed1(Double(frames) / Double(max(1, seconds)))) fps, frame p99 \(fixed2(Double(p99) / 1000)) ms, \(touches) touches, \(showing)"
    }
}
