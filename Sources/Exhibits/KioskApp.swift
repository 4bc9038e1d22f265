import Diagnostics
import Geometry
import Gestures
import Platform
import Raster
import Trace
import VisitorText

/// The kiosk as a visitor meets it: the launcher, the open exhibit, the home control, idle
/// reset and the attract loop. It is pure logic over time, touches and tilt: the live main
/// loop and the replay runner drive it the same way.
///
/// The parts, each in App/: the screen machine (which screen shows, and how one leads to the
/// next), the chrome (home control, language buttons, touch marks), the activity clock (idle
/// and attract timing), the visitor ledger, the language, the state dump. This class holds
/// them and routes input, time and drawing through them.
public final class KioskApp {
    public let settings: Settings
    /// The devices in use as the commissioning screen lists them: `settings.devices`, kept
    /// current while the stand runs (the clock's trust changes when NTP sets it).
    public var devices: [String]
    public let fonts: FontSet
    /// The visitor text in the language a visitor picked.
    public let text: TextBook
    /// The smallest text size visitors can read on this panel (px per em).
    public let legibleTextSize: Double
    public let log: Log
    public private(set) var now: Microseconds
    /// When the app started: the state's `time_ms` counts from here, as a trace's `t` does.
    public let start: Microseconds

    var showing: Showing
    var random: SeededGenerator
    /// The screen's recognizers (a new environment for each screen).
    var gestures = GestureEnvironment()
    let chrome: KioskChrome
    var activity: ActivityClock
    var ledger: VisitorLedger
    private let banner: AttractBanner
    var gravity = Vec2(0, 1)
    var altitude: Double? = nil
    /// Whether the display is on (opening hours turn it off); the state reports it.
    public internal(set) var displayOn = true
    private var commands: [DrawCommand] = []
    /// The latest restart point (the start, an idle reset, an attract demo), for the black box.
    public private(set) var restartPoint: RestartPoint?

    /// A tilt change counts as a visitor from this much (g).
    static let tiltActivity = ActivityClock.tiltActivity

    public init(settings: Settings, fonts: FontSet, log: Log, start: Microseconds = 0) {
        self.settings = settings
        devices = settings.devices
        self.fonts = fonts
        self.log = log
        text = TextBook(languages: settings.languages, overrides: settings.textOverrides)
        legibleTextSize = ExhibitEnvironment.legibleTextSize(width: settings.width, height: settings.height,
                                                             millimetresPerPixel: settings.millimetresPerPixel)
        ledger = VisitorLedger(exhibits: settings.order.map { $0.name })
        chrome = KioskChrome(width: settings.width, height: settings.height, text: text, fonts: fonts, legibleSize: legibleTextSize)
        banner = AttractBanner(width: settings.width, height: settings.height, fonts: fonts, legibleTextSize: legibleTextSize)
        now = start
        self.start = start - (settings.resuming?.elapsed ?? 0)
        activity = ActivityClock(lastActivity: start, stuckAfter: settings.stuckTouchAfter,
                                 millimetresPerPixel: settings.millimetresPerPixel)
        random = SeededGenerator(seed: settings.seed)
        if let r = settings.resuming {
            activity = ActivityClock(lastActivity: start - r.idleFor, tiltReference: r.tiltReference,
                                     stuckAfter: settings.stuckTouchAfter, millimetresPerPixel: settings.millimetresPerPixel)
            gravity = r.gravity
        }
        // Swift wants every property set before the closures below can capture `self`: an
        // empty launcher, with gestures of its own, stands in until the first screen replaces it.
        showing = .launcher(Launcher(width: settings.width, height: settings.height, fonts: fonts, exhibits: [], text: text,
                                     top: 0, legibleSize: legibleTextSize, gestures: GestureEnvironment()) { _ in })
        commands.reserveCapacity(1024)
        chrome.addControls(home: { [unowned(unsafe) self] in if self.showsHomeControl { self.goHome() } },
                           language: { [unowned(unsafe) self] code in self.selectLanguage(code) })
        if let code = settings.resuming?.language { text.select(code) }
        let idleBefore = activity.lastActivity
        if let demo = settings.resuming?.attract {
            showLauncher()
            startAttract(demo)
        } else if let locked = settings.locked {
            markRestart(attract: nil)
            open(locked)
        } else if let initial = settings.initialExhibit {
            open(initial, playingDemo: settings.playsDemo)
        } else {
            showLauncher()
            markRestart(attract: nil)
        }
        // Opening a screen counts as activity; resuming keeps the idle time it started with.
        if settings.resuming != nil { activity.lastActivity = idleBefore }
    }

    /// Notes a restart point now, when nothing is held (a finger down, a tap about to end)
    /// that a fresh app would not have. Called before the new screen draws from `random`.
    func markRestart(attract: ExhibitType?) {
        guard activity.nothingHeld, chrome.isIdle else {
            restartPoint = nil
            return
        }
        restartPoint = RestartPoint(time: now, seed: random.resumingSeed,
                                    resumption: Resumption(elapsed: now - start, idleFor: now - activity.lastActivity, attract: attract,
                                                           language: text.current.code, tiltReference: activity.tiltReference,
                                                           gravity: gravity))
    }

    // MARK: Layout

    var scale: Double { Double(settings.width) / 480 }

    /// The home control: top-left, at least 64 px (72 at 480 wide), out of every exhibit's way.
    public var homeControlFrame: Rect { chrome.homeFrame }

    static func homeControlFrame(width: Int) -> Rect { KioskChrome.homeControlFrame(width: width) }

    /// How visitors used the stand since it started (counts only), for its health metrics.
    public var visitorCounts: VisitorCounts {
        var c = ledger.counts
        c.showing = showing.visitorScreen
        c.stuckTouches = activity.stuckTouches
        return c
    }

    func environment(for type: ExhibitType) -> ExhibitEnvironment {
        var e = ExhibitEnvironment(width: settings.width, height: settings.height, fonts: fonts, options: settings.options[type],
                                   log: log, startTime: now, homeControl: settings.locked == nil ? homeControlFrame : nil)
        e.devices = devices
        e.touchPanel = settings.panelScreen.map { TouchPanel(screen: $0, calibration: settings.touchCalibration) }
        // The exhibit is let go before the app: it cannot call into an app that is gone.
        e.openScreen = { [unowned(unsafe) self] type in self.open(type) }
        e.chrome = chrome.languageBar.frames
        e.text = text
        e.legibleTextSize = legibleTextSize
        return e
    }

    // MARK: Visits

    func beginVisit(_ exhibit: String) {
        ledger.beginVisit(exhibit, at: now, lastActivity: latestActivity, language: text.current.code)
    }

    func endVisit() { ledger.endVisit(at: now, lastActivity: latestActivity, language: text.current.code) }

    /// Finished visits and converted demos since the last call (the visitor statistics);
    /// `endingVisit` closes the visit in progress too (the kiosk is stopping).
    public func takeVisitorEvents(endingVisit: Bool = false) -> VisitorEvents {
        if endingVisit { endVisit() }
        return ledger.take()
    }

    // MARK: Input

    /// Touches of one libinput frame (portrait pixels).
    public func handle(_ input: TouchFrame) {
        // Input comes after what was due before it (the frame loop has usually done this).
        advance(to: input.time)
        // A stuck finger's events are no one's until it lifts.
        guard let frame = activity.follow(input) else { return }
        let downs = frame.events.reduce(0) { $0 + ($1.phase == .down ? 1 : 0) }
        if downs > 0 {
            ledger.touchesDown(downs, on: showing.visitorScreen)
            if let locked = settings.locked, ledger.lockedSessionPending, showing.isExhibit {
                ledger.opened(locked.name)
                ledger.lockedSessionPending = false
                beginVisit(locked.name)
            }
            if showing.isExhibit { ledger.touchesInVisit(downs) }
        }
        if case .attract(let playback, _) = showing {
            // A visitor: the demo stops and the launcher is theirs.
            ledger.converted(demo: playback.name, at: frame.time)
            showLauncher()
            chrome.giveToScreen(frame)
            return
        }
        route(frame)
    }

    /// Touches to the app's controls or to the screen, as each finger was decided when it landed.
    private func route(_ frame: TouchFrame) {
        let marksTaps = showing.isExhibit && showing.exhibit?.actsOnTapsAnywhere == true
        guard let f = chrome.route(frame, showing: chromeShown, marksTaps: marksTaps) else { return }
        showing.exhibit?.touches(f)
        if case .launcher(let launcher) = showing { launcher.touches(f) }
        gestures.handle(f)
    }

    /// A touchscreen went away: its touches end as cancelled.
    public func deviceRemoved(_ device: Int, at time: Microseconds) {
        chrome.deviceRemoved(device, at: time)
        gestures.deviceRemoved(device, at: time)
        activity.releaseAll()
    }

    /// Fingers held still past `settings.stuckTouchAfter` by `time` are cancelled where they
    /// went and ignored until they lift; the visitor counts report them while they stay.
    private func dropStuckTouches(at time: Microseconds) {
        let cancels = activity.dropStuck(at: time)
        guard !cancels.isEmpty, let after = settings.stuckTouchAfter else { return }
        log.warning("\(cancels.count) touch\(cancels.count == 1 ? "" : "es") held still for \(after / 1_000_000) s: dropped as stuck until lifted")
        // A demo has no visitor fingers to end (the touch that landed on it stopped it).
        if case .attract = showing { return }
        route(TouchFrame(time: time, events: cancels))
    }

    public func motion(gravity g: Vec2, altitude a: Double?) {
        activity.tilt(g, at: now)
        gravity = g
        altitude = a
        showing.exhibit?.motion(gravity: g, altitude: a)
    }

    public func shake() { showing.exhibit?.shake() }

    // MARK: Time

    /// Moves the kiosk to `time` through every deadline on the way (recognizers' timers and
    /// lift debounce, the exhibit's ticks, idle reset, the attract loop), in time order and
    /// each at its own time: where the caller stops on the way (frames, checkpoints) changes
    /// nothing.
    public func advance(to time: Microseconds) {
        guard time >= now else { return }
        var rounds = 0
        while rounds < 100_000, let due = nextDeadline, due < time {
            rounds += 1
            let at = max(due, now)
            // Nothing left to do at this moment that would let the walk go on: the rest is
            // handled at `time`.
            if at == now && rounds > 1 && !settle() { break }
            step(to: at)
        }
        step(to: time)
        settle()
    }

    /// One moment: the content reaches it first (its ticks up to it), then what is due
    /// there acts (recognizers, then the screen machine), then a new screen catches up.
    private func step(to time: Microseconds) {
        now = max(now, time)
        showing.exhibit?.advance(to: now)
        dropStuckTouches(at: now)
        chrome.gestures.advance(to: now)
        gestures.advance(to: now)
        advanceScreen(to: now)
        showing.exhibit?.advance(to: now)
    }

    /// Deadlines made due at this very moment by what acted in it (an action that starts a
    /// tick at once) run now too, a few rounds at most. False when something stays due.
    @discardableResult
    private func settle() -> Bool {
        for _ in 0..<8 {
            guard let due = nextDeadline, due <= now else { return true }
            step(to: now)
        }
        return false
    }

    /// True while frames must keep coming.
    public var isAnimating: Bool { showing.isAnimating }

    /// The last moment a visitor was active: a touch, a clear tilt, or now while a finger is
    /// held (until it is stuck).
    var latestActivity: Microseconds { activity.latest(at: now) }

    /// The next moment the kiosk must wake with no input (timers, idle, attract); nil = none.
    public var nextDeadline: Microseconds? {
        earliest(earliest(earliest(gestures.nextDeadline, chrome.gestures.nextDeadline),
                          earliest(showing.exhibit?.nextDeadline, screenDeadline)),
                 activity.nextStuckDeadline)
    }

    // MARK: Output

    /// Draws the frame and returns the portrait rectangles that changed.
    @discardableResult
    public func render(with renderer: SceneRenderer) -> [PixelRect] {
        let background = buildDisplayList()
        return renderer.render(background: background, commands: commands)
    }

    /// This frame's background and display list, for tests and tools that check what a
    /// visitor would see (text inside its box, nothing under a control).
    public func displayList() -> (background: Color, commands: [DrawCommand]) {
        let background = buildDisplayList()
        return (background, commands)
    }

    private func buildDisplayList() -> Color {
        commands.removeAll(keepingCapacity: true)
        let background: Color
        switch showing {
        case .launcher(let launcher):
            background = launcher.draw(into: &commands)
        case .exhibit(_, let exhibit):
            background = exhibit.draw(into: &commands)
            chrome.drawTouchMarks(into: &commands)
        case .attract(let playback, let exhibit):
            background = exhibit.draw(into: &commands)
            banner.draw(playback.name, text: text, into: &commands)
        }
        chrome.drawControls(chromeShown, language: text.current, into: &commands)
        return background
    }

    /// The state dump of issue 7: exhibit, time, size, background, items, controls, extras.
    public func state() -> JSONValue {
        let s: ExhibitState
        var attract: String?
        switch showing {
        case .launcher(let launcher): s = launcher.state()
        case .exhibit(_, let exhibit): s = exhibit.state()
        case .attract(let playback, let exhibit): s = exhibit.state(); attract = playback.name
        }
        return KioskStateDump(screen: showing.visitorScreen, timeMs: Double(now - start) / 1000,
                              width: settings.width, height: settings.height, exhibit: s,
                              controls: chrome.controls(chromeShown, language: text.current, around: s.controls),
                              attract: attract, language: text.languages.count > 1 ? text.current.code : nil,
                              displayOn: displayOn).json
    }
}
