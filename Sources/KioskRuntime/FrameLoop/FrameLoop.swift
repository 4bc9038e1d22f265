#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import OpeningHours
import Platform
import Sensors
import Syscalls
import Trace

/// The kiosk's runtime: one loop that the stand (`run`), the test pattern (`pattern`),
/// `replay` and the tests all drive. Its parts, each in its own file: the `Presenter`
/// (display, flips, pacing, touch to photon), the `OpeningHoursGate`, `InputDelivery`,
/// `MotionDelivery`, the `BlackBoxTap` (recording and black box), `Housekeeping` (systemd,
/// metrics, visitor statistics, summary) and the `WakeAlarm`. Signals end it cleanly
/// (SIGTERM, SIGINT, SIGHUP, SIGQUIT; SIGUSR1: a status line and a black-box dump; SIGUSR2: a
/// screenshot).
///
/// One wake-up, whatever woke it (touch, flip event, timer, sensor), is `wake()`:
/// 1. touch frames that arrived are handled at their own times (the content is advanced
///    to each frame's time first, so a deadline after it cannot fire before it);
/// 2. motion samples likewise, at their times;
/// 3. the content is advanced to now (an opening or closing on the way applied at its own
///    instant, `advanceContent`) and, if the hours and the display's pacing allow, drawn
///    and presented; the next wake is the flip event, the pacing timer while something
///    moves, the content's next deadline, or nothing at all (zero wakeups at rest).
public final class FrameLoop {
    public let loop: EventLoop
    public let clock: any Clock
    public let log: Log
    public let content: any FrameContent
    /// Called on SIGHUP instead of leaving: `systemctl reload` re-reads the configuration.
    public var onReload: (() -> Void)?
    /// The loop left so that the kiosk starts again in the same process (a reload that
    /// changed the display): systemd hears no STOPPING.
    public private(set) var startsAgain = false
    /// The content's start: trace times count from here.
    public private(set) var contentStart: Microseconds = 0

    /// Before the display is open, while it shows, and after it was given back.
    private enum Lifecycle {
        case waitingForDisplay
        case showing(Stage)
        case finished(Stage?)
    }
    /// What exists once the display is open.
    private struct Stage {
        let presenter: Presenter
        let alarm: WakeAlarm
        /// The display's VT, given back with it; none for the virtual panel.
        let console: TextConsole?
    }
    private var lifecycle = Lifecycle.waitingForDisplay
    private let settings: FrameLoopSettings
    let started: Microseconds
    let tap: BlackBoxTap
    private let motion: MotionDelivery
    private let gate: OpeningHoursGate
    let housekeeping: Housekeeping
    private let input: InputDelivery
    /// Timers nothing else holds (leaving after `seconds`).
    var keepAlive: [LoopTimer] = []

    public init(loop: EventLoop, clock: any Clock, log: Log, content: any FrameContent, settings: FrameLoopSettings = FrameLoopSettings()) {
        self.loop = loop; self.clock = clock; self.log = log; self.content = content; self.settings = settings
        started = clock.now
        let say: (String) -> Void = { line in settings.say?(line) ?? log.info(line) }
        tap = BlackBoxTap(settings: settings.blackBox, content: content, clock: clock, log: log, system: settings.system, say: say)
        motion = MotionDelivery(loop: loop, clock: clock, log: log, content: content, tap: tap)
        housekeeping = Housekeeping(settings: settings, loop: loop, clock: clock, log: log, content: content, motion: motion, say: say)
        gate = OpeningHoursGate(schedule: settings.schedule, backlights: settings.backlights, health: housekeeping.health, log: log, say: say)
        input = InputDelivery(content: content, gate: gate, tap: tap, motion: motion, housekeeping: housekeeping,
                              escapeLeaves: settings.escapeLeaves, log: log, say: say)
        // The handlers capture this frame loop unretained: they live in `loop`, which this
        // object owns, so none can run after it is gone (Embedded Swift has no weak).
        input.advanceContent = { [unowned(unsafe) self] time in self.advanceContent(to: time) }
        motion.advanceContent = { [unowned(unsafe) self] time in self.advanceContent(to: time) }
        input.handled = { [unowned(unsafe) self] time in self.stage?.presenter.touchHandled(at: time) }
        input.displayAsleep = { [unowned(unsafe) self] in !(self.display?.isPoweredOn ?? true) }
        input.leave = { [unowned(unsafe) self] in self.loop.stop() }
        loop.afterWake = { [unowned(unsafe) self] in self.wake() }
    }

    /// What is showing now; nil before `start` and after `finish`.
    private var stage: Stage? { if case .showing(let stage) = lifecycle { stage } else { nil } }
    /// The presenter, showing or done (nil before `start`).
    private var presenter: Presenter? {
        switch lifecycle {
        case .waitingForDisplay: nil
        case .showing(let stage): stage.presenter
        case .finished(let stage): stage?.presenter
        }
    }
    /// The display shown on (nil before `start`).
    public var display: (any Display)? { presenter?.display }
    /// Frames drawn and handed to the display.
    public var framesPresented: Int { presenter?.framesPresented ?? 0 }
    /// Whether the first frame reached the screen (READY went to systemd then).
    public var firstFrameShown: Bool { housekeeping.firstFrameShown }
    /// Fingers that went down since the start.
    public var touchesSeen: Int { input.touchesSeen }
    /// What the metrics file reports.
    public var health: StandHealth { housekeeping.health }

    // MARK: Starting

    /// Shows `content` on `display` from now on. `console` (a DRM display's VT) is given
    /// back when the loop finishes.
    public func start(display: any Display, console: TextConsole? = nil) throws(SystemError) {
        let stage: Stage
        do throws(SystemError) {
            let presenter = try Presenter(display: display, loop: loop, clock: clock, log: log, housekeeping: housekeeping,
                                          failed: { [unowned(unsafe) self] error in self.displayFailed(error) },
                                          flipLost: { [unowned(unsafe) self] in self.tap.flipLost(screen: display.backBuffer) })
            stage = Stage(presenter: presenter, alarm: try WakeAlarm(loop: loop, clock: clock, log: log), console: console)
        } catch {
            // Not shown: given back at once, as `finish` would.
            display.restore()
            console?.restore()
            throw error
        }
        lifecycle = .showing(stage)
        input.useDisplay(millimetresPerPixel: display.millimetresPerPixel, filtersPhantomTaps: settings.filtersPhantomTaps)
        if let note = console?.note { say(note) }
        if !stage.presenter.flipsAsynchronously && settings.announceReadyAtStart { housekeeping.announceReady(status: display.name) }
        contentStart = clock.now
        health.displayOn = true
        content.attach(to: display, at: contentStart)
        do { try loop.onWallClockStep { [unowned(unsafe) self] in self.gate.wallClockStepped() } } catch {
            log.warning("opening hours: a step of the wall clock will be noticed within the hour only: \(error)")
        }
        try housekeeping.start()
        tap.start(screen: display.screen, at: contentStart)
        wake()
    }

    /// Touch from `source` (libinput, or a scripted source in tests), mapped through the
    /// display's screen transform. Call after `start`.
    public func attachInput(_ source: any InputEventSource) throws(SystemError) {
        guard let display else { return }
        try input.attach(source, screen: display.screen, mouseIsFinger: settings.mouseIsFinger,
                         calibration: settings.touchCalibration, loop: loop)
    }

    /// Runs `work` once the stand is up — its first frame on screen, or READY said without
    /// one (closed from the start) — or at once if it is: set-up the first picture need not
    /// wait for (touch input).
    public func whenUp(_ work: @escaping () -> Void) { housekeeping.whenUp(work) }

    /// Tilt, shakes and altitude from `sensors`. With `udev`, a sensor plugged in (or back)
    /// is looked for at once instead of on the retry schedule. Call after `start`.
    public func attachMotion(_ sensors: MotionSensors, hotplug udev: (any UdevCalls)? = nil) {
        motion.attach(sensors, hotplug: udev)
    }

    /// Records touches and motion samples, with the settings in `header`, from the start.
    public func record(to writer: TraceWriter) {
        tap.record(to: writer, startingAt: stage == nil ? nil : contentStart)
        housekeeping.syncRecording = { [unowned(unsafe) self] in self.tap.recorder?.sync() }
        if stage != nil {
            do { try housekeeping.armAppendSync() } catch { log.warning("recording: synced on leaving only: \(error)") }
        }
    }

    /// One input event, as `TouchInput` translates it (or a replay produces it).
    public func deliver(_ event: InputEvent) { input.deliver(event) }

    /// One accelerometer sample reaching the content (a replay's).
    func applyMotion(_ reading: MotionReading, altitude: Double?, at time: Microseconds) {
        motion.sample(reading, altitude: altitude, at: time)
    }

    // MARK: Frames

    /// One wake-up's work, after its handlers ran: input, then motion, then time.
    private func wake() {
        if case .finished = lifecycle { return }
        input.dispatch()
        motion.service()
        guard let stage else { return }
        advanceContent(to: clock.now)
        tap.followRestartPoint(exact: true)
        guard followOpeningHours(stage, at: clock.now) else { return }
        switch stage.presenter.decision() {
        case .waitForFlip(let giveUpAt):
            // The flip event wakes the loop; should it never come, this timer does.
            stage.alarm.arm(at: giveUpAt)
            return
        case .waitUntil(let t):
            stage.alarm.arm(at: t)
            return
        case .submitNow:
            break
        }
        let began = clock.now
        if case .displayFailed = stage.presenter.drawAndPresent(content, began: began) { return }
        tap.watchForStall(frameBegan: began, screen: stage.presenter.display.backBuffer)
        let deadline = [content.nextDeadline, gate.nextLook(after: clock.now)].compactMap { $0 }.min()
        if let next = stage.presenter.nextWake(animating: content.isAnimating, deadline: deadline) {
            stage.alarm.arm(at: next)
        } else {
            stage.alarm.disarm()
        }
    }

    /// Moves the content's time to `time`. An opening, a closing or the end of a touch's
    /// wake on the way is applied at its own instant first, so what the content does around
    /// it does not depend on when frames happen to be drawn (or a replay looks).
    func advanceContent(to time: Microseconds) {
        if let stage {
            while let change = gate.changeDue(by: time) {
                content.advance(to: change)
                _ = followOpeningHours(stage, at: change)
            }
        }
        content.advance(to: time)
    }

    /// Draws now, whatever the pacing says (a replay's checkpoint); nothing while the
    /// display is off.
    func drawNow() { stage?.presenter.drawNow(content) }

    /// The hours' say on this wake-up; false while the display is off: no frame, and the only
    /// wake-ups are the next look at the hours, a touch, and housekeeping.
    private func followOpeningHours(_ stage: Stage, at now: Microseconds) -> Bool {
        switch gate.look(at: now, display: stage.presenter.display) {
        case .open(let switchedOn, let opening):
            if switchedOn { stage.presenter.presentWholeNext() }
            if switchedOn || opening {
                content.displayPower(on: true, opening: opening)
                housekeeping.writeMetrics()
            }
            return true
        case .closed(let nextLook, let switchedOff):
            if switchedOff {
                content.displayPower(on: false, opening: false)
                housekeeping.writeMetrics()
                housekeeping.syncAppends()   // closing time: the day's rows on the card
            }
            // Closed from the start: systemd still hears that the kiosk is up.
            if !firstFrameShown { housekeeping.announceReady(status: "closed: display off") }
            stage.alarm.arm(at: nextLook)
            tap.framesPaused()
            return false
        }
    }

    private func displayFailed(_ error: DisplayError) {
        log.error("\(error)")
        dumpBlackBox(reason: "display-error")
        loop.stop()
    }

    /// The display's screen went or came (the hotplug handler, Platform/ConnectorWatch.swift):
    /// gone, the display keeps frames back and the loop waits for the content's deadlines
    /// only; back, the current picture goes out whole; another mode, the kiosk starts again
    /// for its size.
    public func displayConnectorChanged(_ change: DumbBufferDisplay.ConnectorChange) {
        switch change {
        case .unchanged: return
        case .gone:
            say("display: the screen went away; running dark until it comes back")
            stage?.presenter.screenWent()
        case .back:
            say("display: the screen is back; showing the current picture")
            stage?.presenter.screenCameBack()
            wake()
        case .otherMode(let mode):
            say("display: the screen came back as \(mode); starting again for its size")
            leaveToStartAgain()
        }
    }

    // MARK: Reloading

    /// A reloaded configuration's metrics file and opening hours, from now on (the hours
    /// are looked at again at once: closing time may have moved).
    public func update(metricsFile: String?, metricsIntervalSeconds: Int, schedule: StandSchedule?) {
        housekeeping.update(metricsFile: metricsFile, metricsIntervalSeconds: metricsIntervalSeconds)
        if gate.update(schedule, display: display) {
            // No hours any more: the display came back now.
            stage?.presenter.presentWholeNext()
            content.displayPower(on: true, opening: true)
        }
        housekeeping.writeMetrics()
    }

    /// A reloaded configuration's black box (see `BlackBoxTap.update`).
    public func update(blackBox box: BlackBoxSettings?, restarted: Bool) { tap.update(box, restarted: restarted) }

    /// Writes the black box's dump now (SIGUSR1, a stall, a fatal error) and says where;
    /// nil when there is no black box or writing failed (said too).
    @discardableResult
    public func dumpBlackBox(reason: String) -> BlackBoxDump? { tap.dump(reason: reason, screen: display?.backBuffer) }

    /// Appends what visitors did since the last time (nothing is written when nobody played).
    public func flushVisitorStatistics(endingVisit: Bool = false) { housekeeping.flushVisitorStatistics(endingVisit: endingVisit) }

    /// The metrics as they stand now (what the file gets).
    public func metricsText() -> String { housekeeping.metricsText() }

    // MARK: Leaving

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
        let stage: Stage?
        switch lifecycle {
        case .finished: return
        case .waitingForDisplay: stage = nil
        case .showing(let shown): stage = shown
        }
        lifecycle = .finished(stage)
        if !startsAgain { housekeeping.announceStopping() }
        motion.close()
        tap.finish(at: content.now)
        housekeeping.flushVisitorStatistics(endingVisit: true)
        health.displayOn = false
        housekeeping.writeMetrics()
        if let stage {
            let display = stage.presenter.display
            let notesBefore = display.notes.count
            display.restore()
            stage.console?.restore()
            for note in display.notes.dropFirst(notesBefore) { say(note) }
            if stage.presenter.flipsAsynchronously { say("console restored") }
        }
        say("stopped after \(loop.wakeups) wakeups, RSS \(residentKilobytes() / 1024) MB"
            + (health.touchToPhoton.summary.map { ", " + $0 } ?? ""))
    }

    func say(_ line: String) { settings.say?(line) ?? log.info(line) }
}
