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
public final class KioskApp {
    public struct Settings {
        public var width = 480
        public var height = 800
        /// Exhibits on the launcher, in order (names of `ExhibitCatalog`).
        public var order: [String] = ExhibitCatalog.all.map { $0.info.name }
        /// Show only this exhibit, without a home control; idle resets it.
        public var locked: String? = nil
        /// Start in this exhibit (replay of one exhibit); nil starts on the launcher.
        public var initialExhibit: String? = nil
        /// nil: never reset on idle (replay of one exhibit).
        public var idleTimeout: Microseconds? = 90_000_000
        /// nil: no attract loop.
        public var attractAfter: Microseconds? = 300_000_000
        public var options = ExhibitOptions()
        public var seed: UInt64 = 1
        /// A long press this long in the launcher's top-left corner opens the commissioning
        /// screen; nil turns it off.
        public var commissioningPress: Microseconds? = 3_000_000
        /// Devices in use, shown by the commissioning screen.
        public var devices: [String] = []
        /// The stand's languages (shipped codes), the first the default; more than one shows
        /// the language buttons.
        public var languages = ["en"]
        /// The museum's own wording: language code → text key → text.
        public var textOverrides: [String: [String: String]] = [:]
        /// A finger held unmoved (within 2 mm) this long is stuck (a fault, a leaning object),
        /// not a visitor: it is dropped until it lifts (`[touch] stuck_seconds`); nil: never.
        public var stuckTouchAfter: Microseconds? = 600_000_000
        /// How the panel's touch reports are put right (`[touch] transform` and `calibration`),
        /// and how the picture sits on the panel (set from the display): the calibration
        /// screen fits through both.
        public var touchCalibration = TouchCalibration.identity
        public var panelScreen: ScreenTransform? = nil
        /// The panel's pixel pitch from DRM, for a legible text size; nil: a 7-inch panel.
        public var millimetresPerPixel: Double? = nil
        /// Start where a running kiosk was at one of its restart points (a black-box dump's
        /// replay), with `seed` the generator's state there; nil: a fresh start.
        public var resuming: Resumption? = nil
        public init() {}

        /// For replaying a trace: one exhibit with no idle reset or attract loop, or the whole
        /// kiosk from its launcher ("launcher", idle timer included).
        public static func replay(exhibit: String, width: Int, height: Int, seed: UInt64) -> Settings {
            var s = Settings()
            s.width = width
            s.height = height
            s.seed = seed
            if exhibit != "launcher" {
                s.initialExhibit = exhibit
                s.idleTimeout = nil
                s.attractAfter = nil
            }
            return s
        }
    }

    /// What, beside its settings and its generator's state, describes the kiosk at a moment
    /// when nobody is touching it and it has just (re)started a screen: an idle reset, each
    /// demo of the attract loop, or its own start. A replay given this starts there exactly.
    public struct Resumption: Equatable, Sendable {
        /// The app's clock at that moment (the state's `time_ms`).
        public var elapsed: Microseconds
        /// How long nobody had touched or tilted it.
        public var idleFor: Microseconds
        /// The attract loop's demo that starts there; nil: the launcher or the locked exhibit.
        public var attract: String?
        /// The language shown.
        public var language: String
        /// Gravity when a visitor last tilted clearly (nil: never).
        public var tiltReference: Vec2?
        /// Gravity the new screen starts with.
        public var gravity: Vec2

        public init(elapsed: Microseconds, idleFor: Microseconds, attract: String?, language: String, tiltReference: Vec2?, gravity: Vec2) {
            self.elapsed = elapsed; self.idleFor = idleFor; self.attract = attract; self.language = language
            self.tiltReference = tiltReference; self.gravity = gravity
        }
    }

    /// A restart point: when, the generator's state there, and the rest.
    public struct RestartPoint: Equatable, Sendable {
        public var time: Microseconds
        public var seed: UInt64
        public var resumption: Resumption
    }

    public enum Screen {
        case launcher
        /// An exhibit a visitor opened (or the commissioning screen an installer opened).
        case exhibit(name: String)
        /// The launcher playing an exhibit's demo to invite visitors.
        case attract(name: String)
    }

    /// What is on the glass, with what draws it: each screen carries its own content, so
    /// no screen can be without it. The commissioning screen is an exhibit here: the app
    /// treats it as one (home control, idle reset, locking), only the way in differs.
    private enum Showing {
        case launcher(Launcher)
        case exhibit(name: String, any Exhibit)
        case attract(AttractPlayback, any Exhibit)
    }

    public let settings: Settings
    public let fonts: FontSet
    /// The visitor text in the language a visitor picked.
    public let text: TextBook
    /// The smallest text size visitors can read on this panel (px per em).
    public let legibleTextSize: Double
    private let languageBar: LanguageBar
    public let log: Log
    public private(set) var now: Microseconds
    /// When the app started: the state's `time_ms` counts from here, as a trace's `t` does.
    public let start: Microseconds

    private var showing: Showing
    private var random: SeededGenerator
    private var gestures = GestureEnvironment()
    /// The app's own controls over every screen: home and the language buttons.
    private let chromeGestures = GestureEnvironment()
    /// Where each touch slot's events go (the app's controls or the screen), decided when
    /// the finger lands.
    private var touchGoesToChrome: [Int: Bool] = [:]
    /// The app's own control a finger is pressing (home first, then the language buttons).
    private var chromePress = PressTracker()
    /// Fingers down on an exhibit that acts on taps anywhere, by slot: where each landed,
    /// marked until it strays past a tap's allowance or lifts.
    private var touchMarks: [Int: Vec2] = [:]
    private let tapAllowance = TapGestureRecognizer().allowableMovement
    private var lastActivity: Microseconds
    /// Touches down now (by slot), since when each has been held still and where: a visitor
    /// holding a ball out is still playing.
    private var heldSince: [Int: (time: Microseconds, at: Vec2)] = [:]
    /// Fingers held still past `settings.stuckTouchAfter`: dropped (cancelled where they
    /// went) and ignored until they lift.
    private var stuckSlots: Set<Int> = []
    /// Gravity when the visitor last tilted clearly; noise around it is no activity.
    private var tiltReference: Vec2?
    /// A tilt change counts as a visitor from this much (g): about 3.5°, well above a
    /// filtered accelerometer's noise.
    static let tiltActivity = 0.06
    /// How far a finger may wander and still be held still (px): 2 mm on the glass.
    private var stillAllowance: Double { 2 / (settings.millimetresPerPixel ?? 0.19) }
    private var gravity = Vec2(0, 1)
    private var altitude: Double? = nil
    private var counts: VisitorCounts
    /// Whether the display is on (opening hours turn it off); the state reports it.
    public private(set) var displayOn = true
    /// A locked stand counts a session at the first touch after each reset.
    private var lockedSessionPending = true
    /// The visit in progress, and what finished since `takeVisitorEvents`.
    private var session: VisitorSession?
    private var visitorEvents = VisitorEvents()
    private var commands: [DrawCommand] = []
    /// The latest restart point (the start, an idle reset, an attract demo), for the black box.
    public private(set) var restartPoint: RestartPoint?

    public init(settings: Settings, fonts: FontSet, log: Log, start: Microseconds = 0) {
        self.settings = settings
        self.fonts = fonts
        self.log = log
        text = TextBook(languages: settings.languages, overrides: settings.textOverrides)
        legibleTextSize = ExhibitEnvironment.legibleTextSize(width: settings.width, height: settings.height,
                                                             millimetresPerPixel: settings.millimetresPerPixel)
        counts = VisitorCounts(exhibits: settings.order.filter { ExhibitCatalog.type(named: $0) != nil }, showing: "launcher")
        let home = KioskApp.homeControlFrame(width: settings.width)
        languageBar = LanguageBar(text: text, fonts: fonts, width: Double(settings.width), top: home.minY,
                                  leftLimit: home.maxX + home.minY,
                                  scale: min(Double(settings.width) / 480, Double(settings.height) / 800),
                                  legibleSize: legibleTextSize)
        now = start
        self.start = start - (settings.resuming?.elapsed ?? 0)
        lastActivity = start
        random = SeededGenerator(seed: settings.seed)
        if let r = settings.resuming {
            lastActivity = start - r.idleFor
            tiltReference = r.tiltReference
            gravity = r.gravity
        }
        // Swift wants every property set before the closures below can capture `self`: an
        // empty launcher, with gestures of its own, stands in until the first screen replaces it.
        showing = .launcher(Launcher(width: settings.width, height: settings.height, fonts: fonts, exhibits: [], text: text,
                                     top: 0, legibleSize: legibleTextSize, gestures: GestureEnvironment()) { _ in })
        commands.reserveCapacity(1024)
        chromeGestures.add(TapGestureRecognizer(region: home, name: "home") { [unowned(unsafe) self] tap in
            if tap.state == .ended && self.showsHomeControl { self.goHome() }
        })
        for button in languageBar.buttons {
            let code = button.language.code
            chromeGestures.add(TapGestureRecognizer(region: button.frame, name: "language \(code)") { [unowned(unsafe) self] tap in
                if tap.state == .ended { self.selectLanguage(code) }
            })
        }
        if let code = settings.resuming?.language { text.select(code) }
        let idleBefore = lastActivity
        if let demo = settings.resuming?.attract {
            showLauncher()
            startAttract(demo)
        } else if let locked = settings.locked {
            markRestart(attract: nil)
            open(locked)
        } else if let initial = settings.initialExhibit {
            open(initial)
        } else {
            showLauncher()
            markRestart(attract: nil)
        }
        // Opening a screen counts as activity; resuming keeps the idle time it started with.
        if settings.resuming != nil { lastActivity = idleBefore }
    }

    /// Notes a restart point now, when nothing is held (a finger down, a tap about to end)
    /// that a fresh app would not have. Called before the new screen draws from `random`.
    private func markRestart(attract: String?) {
        guard heldSince.isEmpty, touchGoesToChrome.isEmpty, chromeGestures.nextDeadline == nil else {
            restartPoint = nil
            return
        }
        restartPoint = RestartPoint(time: now, seed: random.resumingSeed,
                                    resumption: Resumption(elapsed: now - start, idleFor: now - lastActivity, attract: attract,
                                                           language: text.current.code, tiltReference: tiltReference, gravity: gravity))
    }

    // MARK: Layout

    private var scale: Double { Double(settings.width) / 480 }

    /// The home control: top-left, at least 64 px (72 at 480 wide), out of every exhibit's way.
    public var homeControlFrame: Rect { KioskApp.homeControlFrame(width: settings.width) }

    static func homeControlFrame(width: Int) -> Rect {
        let scale = Double(width) / 480
        let side = max(64, (72 * scale).rounded())
        let margin = (8 * scale).rounded()
        return Rect(x: margin, y: margin, width: side, height: side)
    }

    private var showsHomeControl: Bool {
        if settings.locked != nil { return false }
        if case .exhibit = showing { return true }
        return false
    }

    /// What visitors see, for callers (logs, summaries, tests).
    public var screen: Screen {
        switch showing {
        case .launcher: .launcher
        case .exhibit(let name, _): .exhibit(name: name)
        case .attract(let playback, _): .attract(name: playback.name)
        }
    }

    /// "launcher" or the exhibit a visitor has open (the attract loop counts as the launcher).
    private var screenName: String {
        if case .exhibit(let name, _) = showing { return name }
        return "launcher"
    }

    /// How visitors used the stand since it started (counts only), for its health metrics.
    public var visitorCounts: VisitorCounts {
        var c = counts
        c.showing = screenName
        c.stuckTouches = stuckSlots.count
        return c
    }

    /// The exhibit on the glass, opened or playing its demo; nil on the launcher.
    private var currentExhibit: (any Exhibit)? {
        switch showing {
        case .launcher: nil
        case .exhibit(_, let exhibit), .attract(_, let exhibit): exhibit
        }
    }

    private var showsLanguageBar: Bool {
        switch showing {
        case .launcher, .exhibit: !languageBar.buttons.isEmpty
        case .attract: false
        }
    }

    private func environment() -> ExhibitEnvironment {
        var e = ExhibitEnvironment(width: settings.width, height: settings.height, fonts: fonts, options: settings.options,
                                   log: log, startTime: now, homeControl: settings.locked == nil ? homeControlFrame : nil)
        e.devices = settings.devices
        e.touchPanel = settings.panelScreen.map { TouchPanel(screen: $0, calibration: settings.touchCalibration) }
        e.chrome = languageBar.frames
        e.text = text
        e.legibleTextSize = legibleTextSize
        return e
    }

    /// A visitor picked a language: every screen's text follows at once.
    public func selectLanguage(_ code: String) {
        guard code != text.current.code, text.select(code) else { return }
        log.info("language \(code)")
    }

    /// Back to the stand's first language, for the next visitor.
    private func resetLanguage() {
        if text.current != text.defaultLanguage { text.select(text.defaultLanguage.code) }
    }

    // MARK: Screens

    private func beginSession(_ exhibit: String) {
        endSession()
        session = VisitorSession(exhibit: exhibit, start: now, end: now, touches: 0, language: text.current.code)
    }

    /// The visit ends where the visitor's last touch was (an idle reset comes much later).
    private func endSession() {
        guard var s = session else { return }
        s.end = max(s.start, min(now, latestActivity))
        s.language = text.current.code
        visitorEvents.sessions.append(s)
        session = nil
    }

    /// Finished visits and converted demos since the last call (the visitor statistics);
    /// `endingVisit` closes the visit in progress too (the kiosk is stopping).
    public func takeVisitorEvents(endingVisit: Bool = false) -> VisitorEvents {
        if endingVisit { endSession() }
        defer { visitorEvents = VisitorEvents() }
        return visitorEvents
    }

    private func showLauncher() {
        endSession()
        chromePress.release()
        touchMarks.removeAll()
        gestures.cancelAll(at: now)
        gestures = GestureEnvironment()
        let bottom = languageBar.frames.map { $0.maxY }.max() ?? 0
        showing = .launcher(Launcher(width: settings.width, height: settings.height, fonts: fonts,
                                     exhibits: settings.order.compactMap(ExhibitCatalog.type(named:)).map { $0.info },
                                     text: text, top: bottom + (8 * scale).rounded(), legibleSize: legibleTextSize,
                                     gestures: gestures) { [unowned(unsafe) self] name in
            self.counts.sessions[name, default: 0] += 1
            self.open(name)
            self.beginSession(name)
        })
        if let hold = settings.commissioningPress {
            // Installers only: a long press where no tile is, in the top-left corner.
            let corner = Rect(x: 0, y: 0, width: 96 * scale, height: 80 * scale)
            let press = LongPressGestureRecognizer(region: corner, name: "commissioning") { [unowned(unsafe) self] p in
                if p.state == .began { self.open(Commissioning.info.name) }
            }
            press.minimumPressDuration = hold
            press.allowableMovement = 20 * scale
            gestures.add(press)
        }
    }

    /// Opens exhibit `name` fresh (also how an exhibit is reset).
    public func open(_ name: String) {
        guard let type = ExhibitCatalog.type(named: name) else {
            log.error("no exhibit named '\(name)'; showing the launcher")
            showLauncher()
            return
        }
        endSession()
        gestures.cancelAll(at: now)
        gestures = GestureEnvironment()
        touchGoesToChrome.removeAll()
        chromePress.release()
        touchMarks.removeAll()
        let stream = SeededGenerator(seed: random.next())
        let e = type.make(environment: environment(), gestures: gestures, random: stream)
        e.motion(gravity: gravity, altitude: altitude)
        showing = .exhibit(name: name, e)
        lockedSessionPending = true
        lastActivity = now
        log.info("exhibit \(name) open")
    }

    /// The display went on or off; at opening the stand starts fresh for the day's first
    /// visitor (launcher or the locked exhibit, first language).
    public func displayPowerChanged(on: Bool, opening: Bool) {
        displayOn = on
        guard opening else { return }
        log.info("opening: the exhibits start fresh")
        resetLanguage()
        if let locked = settings.locked { open(locked) } else { showLauncher() }
        lastActivity = now
        heldSince.removeAll()
        stuckSlots.removeAll()
    }

    public func goHome() {
        if settings.locked != nil { return }
        log.info("home")
        showLauncher()
        lastActivity = now
    }

    // MARK: Input

    /// Touches of one libinput frame (portrait pixels).
    public func handle(_ input: TouchFrame) {
        // A stuck finger's events are no one's until it lifts.
        var frame = input
        if !stuckSlots.isEmpty {
            frame.events = []
            for e in input.events {
                guard stuckSlots.contains(e.slot) else { frame.events.append(e); continue }
                if e.phase == .up || e.phase == .cancel { stuckSlots.remove(e.slot) }
            }
            if frame.events.isEmpty { return }
        }
        lastActivity = max(lastActivity, frame.time)
        for e in frame.events {
            switch e.phase {
            case .down: if heldSince[e.slot] == nil { heldSince[e.slot] = (e.time, e.position) }
            case .up, .cancel: heldSince[e.slot] = nil
            case .move:
                if let held = heldSince[e.slot], e.position.distance(to: held.at) > stillAllowance { heldSince[e.slot] = (e.time, e.position) }
            }
        }
        let downs = frame.events.reduce(0) { $0 + ($1.phase == .down ? 1 : 0) }
        if downs > 0 {
            counts.touches[screenName, default: 0] += downs
            if let locked = settings.locked, lockedSessionPending, case .exhibit = showing {
                counts.sessions[locked, default: 0] += 1
                lockedSessionPending = false
                beginSession(locked)
            }
            if case .exhibit = showing { session?.touches += downs }
        }
        if case .attract = showing {
            // A visitor: the demo stops and the launcher is theirs.
            counts.attractConversions += 1
            if case .attract(let playback, _) = showing { visitorEvents.conversions.append((playback.name, frame.time)) }
            showLauncher()
            for e in frame.events where e.phase == .down { touchGoesToChrome[e.slot] = false }
            return
        }
        route(frame)
    }

    /// Touches to the app's controls or to the screen, as each finger was decided when it landed.
    private func route(_ frame: TouchFrame) {
        var toChrome: [TouchEvent] = []
        var toScreen: [TouchEvent] = []
        for e in frame.events {
            if e.phase == .down && touchGoesToChrome[e.slot] == nil {
                touchGoesToChrome[e.slot] = isOnChrome(e.position)
            }
            if touchGoesToChrome[e.slot] == true { toChrome.append(e) } else { toScreen.append(e) }
            if e.phase == .up || e.phase == .cancel { touchGoesToChrome[e.slot] = nil }
        }
        if !toChrome.isEmpty {
            let f = TouchFrame(time: frame.time, events: toChrome)
            chromePress.follow(f, regions: chromeRegions)
            chromeGestures.handle(f)
        }
        if !toScreen.isEmpty {
            let f = TouchFrame(time: frame.time, events: toScreen)
            followTouchMarks(f)
            currentExhibit?.touches(f)
            if case .launcher(let launcher) = showing { launcher.touches(f) }
            gestures.handle(f)
        }
    }

    private func followTouchMarks(_ frame: TouchFrame) {
        guard case .exhibit(_, let exhibit) = showing, exhibit.actsOnTapsAnywhere else { return }
        for e in frame.events {
            switch e.phase {
            case .down: touchMarks[e.slot] = e.position
            case .move: if let from = touchMarks[e.slot], e.position.distance(to: from) > tapAllowance { touchMarks[e.slot] = nil }
            case .up, .cancel: touchMarks[e.slot] = nil
            }
        }
    }

    /// The app's controls on this screen, in `chromePress`'s order: home (where shown),
    /// then the language buttons.
    private var chromeRegions: [Rect] {
        (showsHomeControl ? [homeControlFrame] : []) + (showsLanguageBar ? languageBar.frames : [])
    }

    private func isOnChrome(_ p: Vec2) -> Bool {
        if showsHomeControl && homeControlFrame.contains(p) { return true }
        return showsLanguageBar && languageBar.frames.contains { $0.contains(p) }
    }

    /// A touchscreen went away: its touches end as cancelled.
    public func deviceRemoved(_ device: Int, at time: Microseconds) {
        chromeGestures.deviceRemoved(device, at: time)
        gestures.deviceRemoved(device, at: time)
        touchGoesToChrome.removeAll()
        heldSince.removeAll()
        stuckSlots.removeAll()
        touchMarks.removeAll()
        chromePress.release()
    }

    /// Fingers held still past `settings.stuckTouchAfter` by `time` are cancelled where they
    /// went and ignored until they lift; the visitor counts report them while they stay.
    private func dropStuckTouches(at time: Microseconds) {
        guard let after = settings.stuckTouchAfter else { return }
        let stuck = heldSince.filter { time - $0.value.time >= after }.sorted { $0.key < $1.key }
        guard !stuck.isEmpty else { return }
        var cancels: [TouchEvent] = []
        // Held still counted as play until now; idle is measured from here.
        lastActivity = max(lastActivity, time)
        for (slot, held) in stuck {
            heldSince[slot] = nil
            stuckSlots.insert(slot)
            cancels.append(TouchEvent(slot: slot, phase: .cancel, position: held.at, time: time))
        }
        log.warning("\(stuck.count) touch\(stuck.count == 1 ? "" : "es") held still for \(after / 1_000_000) s: dropped as stuck until lifted")
        route(TouchFrame(time: time, events: cancels))
    }

    public func motion(gravity g: Vec2, altitude a: Double?) {
        if let reference = tiltReference, (g - reference).length <= Self.tiltActivity {
            // Noise, or a stand at rest: not a visitor.
        } else {
            if tiltReference != nil { lastActivity = max(lastActivity, now) }
            tiltReference = g
        }
        gravity = g
        altitude = a
        currentExhibit?.motion(gravity: g, altitude: a)
    }

    public func shake() { currentExhibit?.shake() }

    // MARK: Time

    /// Moves the kiosk to `time`: recognizer deadlines, idle reset, attract, the exhibit's physics.
    public func advance(to time: Microseconds) {
        guard time >= now else { return }
        now = time
        dropStuckTouches(at: time)
        chromeGestures.advance(to: time)
        gestures.advance(to: time)
        switch showing {
        case .attract(let playback, _):
            playback.advance(to: time)
            if playback.isFinished { startAttract(after: playback.name) }
        case .exhibit(let name, _):
            if let idle = settings.idleTimeout, time - latestActivity >= idle {
                log.info("idle for \(idle / 1_000_000) s: \(settings.locked != nil ? "resetting \(name)" : "back to the launcher")")
                resetLanguage()
                counts.idleResets += 1
                if settings.locked != nil {
                    lastActivity = time
                    markRestart(attract: nil)
                    open(name)
                } else {
                    showLauncher()
                    lastActivity = time
                    markRestart(attract: nil)
                }
            }
        case .launcher:
            if let idle = settings.idleTimeout, time - latestActivity >= idle, text.current != text.defaultLanguage {
                log.info("idle for \(idle / 1_000_000) s: back to \(text.defaultLanguage.code)")
                resetLanguage()
            }
            if let after = settings.attractAfter, time - latestActivity >= after { resetLanguage(); startAttract(after: nil) }
        }
        // The screen may have changed above: what is showing now catches up to `time`.
        currentExhibit?.advance(to: time)
    }

    private func startAttract(after previous: String?) {
        let names = settings.order.filter { ExhibitCatalog.type(named: $0) != nil }
        guard !names.isEmpty else { return }
        let next: String
        if let previous, let i = names.firstIndex(of: previous) { next = names[(i + 1) % names.count] } else { next = names[0] }
        markRestart(attract: next)
        startAttract(next)
    }

    private func startAttract(_ next: String) {
        guard let type = ExhibitCatalog.type(named: next) else { return }
        gestures = GestureEnvironment()
        let e = type.make(environment: environment(), gestures: gestures, random: SeededGenerator(seed: random.next()))
        e.motion(gravity: gravity, altitude: altitude)
        let playback = AttractPlayback(name: next, frames: type.demoFrames(width: settings.width, height: settings.height),
                                       gestures: gestures, start: now)
        showing = .attract(playback, e)
    }

    /// True while frames must keep coming.
    public var isAnimating: Bool {
        switch showing {
        case .launcher: false
        case .exhibit(_, let exhibit): exhibit.isAnimating
        case .attract: true
        }
    }

    /// The last moment a visitor was active: a touch, a clear tilt, or now while a finger is
    /// held (until it is stuck).
    private var latestActivity: Microseconds {
        var latest = lastActivity
        for held in heldSince.values { latest = max(latest, settings.stuckTouchAfter.map { min(now, held.time + $0) } ?? now) }
        return latest
    }

    /// The next moment the kiosk must wake with no input (timers, idle, attract); nil = none.
    public var nextDeadline: Microseconds? {
        var deadlines: [Microseconds] = []
        if let d = gestures.nextDeadline { deadlines.append(d) }
        if let d = chromeGestures.nextDeadline { deadlines.append(d) }
        if let d = currentExhibit?.nextDeadline { deadlines.append(d) }
        if let after = settings.stuckTouchAfter, let still = heldSince.values.map({ $0.time }).min() { deadlines.append(still + after) }
        switch showing {
        case .exhibit: if let idle = settings.idleTimeout { deadlines.append(latestActivity + idle) }
        case .launcher:
            if let after = settings.attractAfter { deadlines.append(latestActivity + after) }
            if let idle = settings.idleTimeout, text.current != text.defaultLanguage { deadlines.append(latestActivity + idle) }
        case .attract(let playback, _): if let d = playback.nextDeadline { deadlines.append(d) }
        }
        return deadlines.min()
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
            // A soft disc under each finger that may be a tap (iOS's touch marks).
            let radius = 22 * min(Double(settings.width) / 480, Double(settings.height) / 800)
            for (_, at) in touchMarks.sorted(by: { $0.key < $1.key }) {
                commands.append(.circle(center: at, radius: radius, color: Color(r: 0, g: 0, b: 0, a: 56)))
            }
        case .attract(let playback, let exhibit):
            background = exhibit.draw(into: &commands)
            drawAttractBanner(playback.name, into: &commands)
        }
        let homeShown = showsHomeControl
        let pressed = chromePress.index
        if homeShown { drawHomeControl(pressed: pressed == 0, into: &commands) }
        if showsLanguageBar {
            languageBar.draw(current: text.current, pressed: pressed.map { $0 - (homeShown ? 1 : 0) }, into: &commands)
        }
        return background
    }

    private func drawHomeControl(pressed: Bool, into list: inout [DrawCommand]) {
        let f = homeControlFrame
        let c = f.center, s = f.width
        // Pressed: lighter, since the control is dark already.
        let disc = pressed ? Color(r: 84, g: 84, b: 96) : Color(r: 40, g: 40, b: 48)
        list.append(.circle(center: c, radius: s / 2, color: disc))
        // A little house: roof and body. The roof is the upper half of a square turned by 45°,
        // its lower half painted over in the disc's colour: convex shapes only, since a general
        // polygon makes the canvas keep its whole-canvas cells (8 B per pixel, 7.4 MB at
        // 720×1280) for the rest of the run, for one triangle.
        let w = s * 0.44
        let eaves = w * 0.62, base = c.y - w * 0.02
        let half = eaves / 2.0.squareRoot()
        list.append(.rect(Rect(x: -half, y: -half, width: 2 * half, height: 2 * half),
                          transform: AffineTransform.rotation(Double.pi / 4).translated(c.x, base), color: .white))
        list.append(.rect(Rect(x: c.x - eaves - 1, y: base, width: 2 * eaves + 2, height: eaves + 1), transform: .identity, color: disc))
        list.append(.rect(Rect(x: c.x - w * 0.4, y: c.y - w * 0.05, width: w * 0.8, height: w * 0.6), transform: .identity, color: .white))
        list.append(.rect(Rect(x: c.x - w * 0.11, y: c.y + w * 0.2, width: w * 0.22, height: w * 0.35), transform: .identity,
                          color: Color(r: 40, g: 40, b: 48)))
    }

    private func drawAttractBanner(_ name: String, into list: inout [DrawCommand]) {
        let h = (96 * scale).rounded()
        let y = Double(settings.height) - h
        list.append(.fillPixels(PixelRect(x: 0, y: Int(y), width: settings.width, height: Int(h)), Color(r: 20, g: 20, b: 28)))
        let language = text.current.code
        let margin = (12 * scale).rounded()
        let box = Rect(x: margin, y: y + margin / 2, width: Double(settings.width) - 2 * margin, height: h - margin)
        let call = fonts.block(text[TextKey.attractCall], in: Rect(x: 0, y: 0, width: box.width, height: box.height * 0.6),
                               size: max(26 * scale, legibleTextSize * 1.3), minimumSize: legibleTextSize * 1.2, bold: true,
                               alignment: .center, language: language)
        let title = fonts.block(text[TextKey.title(name)], in: Rect(x: 0, y: 0, width: box.width, height: box.height - call.height),
                                size: max(18 * scale, legibleTextSize), minimumSize: legibleTextSize, alignment: .center, language: language)
        let top = (box.minY + max(0, box.height - call.height - title.height) / 2).rounded()
        let clip = PixelRect(centresIn: box)
        list.append(.text(call, origin: Vec2(box.minX, top), clip: clip, color: .white))
        list.append(.text(title, origin: Vec2(box.minX, top + call.height), clip: clip, color: Color(r: 200, g: 200, b: 210)))
    }

    /// The state dump of issue 7: exhibit, time, size, background, items, controls, extras.
    public func state() -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        let s: ExhibitState
        let name: String
        switch showing {
        case .launcher(let launcher):
            name = "launcher"; s = launcher.state()
        case .exhibit(let n, let exhibit):
            name = n; s = exhibit.state()
        case .attract(let playback, let exhibit):
            name = "launcher"; s = exhibit.state()
            pairs.append(("attract", .string(playback.name)))
        }
        var controls = s.controls
        if showsHomeControl { controls.insert(ControlState(id: "home", frame: homeControlFrame), at: 0) }
        if showsLanguageBar { controls.append(contentsOf: languageBar.controls(current: text.current)) }
        if text.languages.count > 1 { pairs.append(("language", .string(text.current.code))) }
        pairs.append(("display_on", .bool(displayOn)))
        pairs.insert(contentsOf: [
            ("exhibit", .string(name)),
            ("time_ms", .number(Double(now - start) / 1000)),
            ("width", .int(settings.width)),
            ("height", .int(settings.height)),
            ("background", .string(s.background.hex)),
            ("items", .array(s.items.map { item in
                .object([("id", .int(item.id)), ("shape", .string(item.shape)), ("x", .number(item.center.x)),
                         ("y", .number(item.center.y)), ("width", .number(item.width)), ("height", .number(item.height)),
                         ("rotation", .number(item.rotation)), ("color", .string(item.color.hex))])
            })),
            ("controls", .array(controls.map { c in
                .object([("id", .string(c.id)), ("x", .number(c.frame.center.x)), ("y", .number(c.frame.center.y)),
                         ("width", .number(c.frame.width)), ("height", .number(c.frame.height)), ("selected", .bool(c.selected))])
            })),
        ], at: 0)
        pairs.append(contentsOf: s.extras)
        return .object(pairs)
    }
}

/// Feeds an exhibit's built-in demo to it, as if a visitor were playing.
final class AttractPlayback {
    let name: String
    private let frames: [TouchFrame]
    private let gestures: GestureEnvironment
    private let start: Microseconds
    private var next = 0
    private var now: Microseconds
    /// A pause after the demo's last touch, so that its ending can be seen.
    private let tail: Microseconds = 2_500_000

    init(name: String, frames: [TouchFrame], gestures: GestureEnvironment, start: Microseconds) {
        self.name = name; self.frames = frames; self.gestures = gestures; self.start = start; now = start
    }

    func advance(to time: Microseconds) {
        now = time
        while next < frames.count, start + frames[next].time <= time {
            var f = frames[next]
            f.time += start
            // Device -1: no real touchscreen, so unplugging one never cancels the demo.
            for i in f.events.indices { f.events[i].time += start; f.events[i].device = -1 }
            gestures.handle(f)
            next += 1
        }
    }

    private var end: Microseconds { start + (frames.last?.time ?? 0) + tail }
    var isFinished: Bool { next >= frames.count && now >= end }
    var nextDeadline: Microseconds? { next < frames.count ? start + frames[next].time : end }
}
