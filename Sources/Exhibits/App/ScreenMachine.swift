import Diagnostics
import Geometry
import Gestures
import VisitorText

extension KioskApp {
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
    enum Showing {
        case launcher(Launcher)
        case exhibit(ExhibitType, any Exhibit)
        case attract(AttractPlayback, any Exhibit)

        var screen: Screen {
            switch self {
            case .launcher: .launcher
            case .exhibit(let type, _): .exhibit(name: type.name)
            case .attract(let playback, _): .attract(name: playback.name)
            }
        }

        /// "launcher" or the exhibit a visitor has open (the attract loop counts as the launcher).
        var visitorScreen: String {
            if case .exhibit(let type, _) = self { return type.name }
            return "launcher"
        }

        var isExhibit: Bool {
            if case .exhibit = self { return true }
            return false
        }

        /// The exhibit on the glass, opened or playing its demo; nil on the launcher.
        var exhibit: (any Exhibit)? {
            switch self {
            case .launcher: nil
            case .exhibit(_, let exhibit), .attract(_, let exhibit): exhibit
            }
        }

        /// True while frames must keep coming.
        var isAnimating: Bool {
            switch self {
            case .launcher: false
            case .exhibit(_, let exhibit): exhibit.isAnimating
            case .attract: true
            }
        }
    }

    /// What visitors see, for callers (logs, summaries, tests).
    public var screen: Screen { showing.screen }

    var showsHomeControl: Bool { settings.locked == nil && showing.isExhibit }

    var showsLanguageBar: Bool {
        if case .attract = showing { return false }
        return !chrome.languageBar.buttons.isEmpty
    }

    var chromeShown: KioskChrome.Visibility { KioskChrome.Visibility(home: showsHomeControl, languages: showsLanguageBar) }

    // MARK: Transitions

    func showLauncher() {
        endVisit()
        chrome.screenChanged()
        gestures.cancelAll(at: now)
        gestures = GestureEnvironment()
        let bottom = chrome.languageBar.frames.map { $0.maxY }.max() ?? 0
        showing = .launcher(Launcher(width: settings.width, height: settings.height, fonts: fonts,
                                     exhibits: settings.order,
                                     text: text, top: bottom + (8 * scale).rounded(), legibleSize: legibleTextSize,
                                     gestures: gestures) { [unowned(unsafe) self] exhibit in
            self.ledger.opened(exhibit.name)
            self.open(exhibit)
            self.beginVisit(exhibit.name)
        })
        if let hold = settings.commissioningPress {
            // Installers only: a long press where no tile is, in the top-left corner.
            let corner = Rect(x: 0, y: 0, width: 96 * scale, height: 80 * scale)
            let press = LongPressGestureRecognizer(region: corner, name: Commissioning.profile.name) { [unowned(unsafe) self] p in
                if p.state == .began { self.open(Commissioning.exhibitType) }
            }
            press.minimumPressDuration = hold
            press.allowableMovement = 20 * scale
            gestures.add(press)
        }
    }

    /// Opens exhibit `type` fresh (also how an exhibit is reset).
    public func open(_ type: ExhibitType) { open(type, playingDemo: false) }

    func open(_ type: ExhibitType, playingDemo: Bool) {
        let name = type.name
        endVisit()
        gestures.cancelAll(at: now)
        gestures = GestureEnvironment()
        chrome.forgetFingers()
        chrome.screenChanged()
        let stream = KioskApp.exhibitGenerator(type, drawn: random.next(), playingDemo: playingDemo)
        let e = type.make(environment: environment(for: type), gestures: gestures, random: stream)
        e.motion(gravity: gravity, altitude: altitude)
        showing = .exhibit(type, e)
        ledger.lockedSessionPending = true
        activity.lastActivity = now
        log.info("exhibit \(name) open")
    }

    func startAttract(after previous: ExhibitType?) {
        let order = settings.order
        guard !order.isEmpty else { return }
        let next: ExhibitType
        if let previous, let i = order.firstIndex(of: previous) { next = order[(i + 1) % order.count] } else { next = order[0] }
        markRestart(attract: next)
        startAttract(next)
    }

    func startAttract(_ type: ExhibitType) {
        gestures = GestureEnvironment()
        let stream = KioskApp.exhibitGenerator(type, drawn: random.next(), playingDemo: true)
        let e = type.make(environment: environment(for: type), gestures: gestures, random: stream)
        e.motion(gravity: gravity, altitude: altitude)
        let playback = AttractPlayback(exhibit: type, frames: type.demoFrames(width: settings.width, height: settings.height),
                                       playing: e, gestures: gestures, start: now)
        showing = .attract(playback, e)
    }

    /// The display went on or off; at opening the stand starts fresh for the day's first
    /// visitor (launcher or the locked exhibit, first language).
    public func displayPowerChanged(on: Bool, opening: Bool) {
        displayOn = on
        guard opening else { return }
        log.info("opening: the exhibits start fresh")
        resetLanguage()
        if let locked = settings.locked { open(locked) } else { showLauncher() }
        activity.lastActivity = now
        activity.releaseAll()
    }

    public func goHome() {
        if settings.locked != nil { return }
        log.info("home")
        showLauncher()
        activity.lastActivity = now
    }

    /// The screen's own moves at `time`: the attract loop's next demo, the idle reset, the
    /// attract loop starting.
    func advanceScreen(to time: Microseconds) {
        switch showing {
        case .attract(let playback, _):
            playback.advance(to: time)
            if playback.isFinished { startAttract(after: playback.exhibit) }
        case .exhibit(let type, _):
            if let idle = settings.idleTimeout, time - latestActivity >= idle {
                log.info("idle for \(idle / 1_000_000) s: \(settings.locked != nil ? "resetting \(type.name)" : "back to the launcher")")
                resetLanguage()
                ledger.idleReset()
                if settings.locked != nil {
                    activity.lastActivity = time
                    markRestart(attract: nil)
                    open(type)
                } else {
                    showLauncher()
                    activity.lastActivity = time
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
    }

    /// When the screen next moves on its own (idle reset, attract, the demo's next touch).
    var screenDeadline: Microseconds? {
        switch showing {
        case .exhibit: return settings.idleTimeout.map { latestActivity + $0 }
        case .launcher:
            // No exhibit to show, no attract loop to start (a deadline that would stay due).
            let attract = ledger.counts.exhibits.isEmpty ? nil : settings.attractAfter.map { latestActivity + $0 }
            let language = text.current != text.defaultLanguage ? settings.idleTimeout.map { latestActivity + $0 } : nil
            return earliest(attract, language)
        case .attract(let playback, _): return playback.nextDeadline
        }
    }
}

/// The earlier of two optional moments (nil: none).
func earliest(_ a: Microseconds?, _ b: Microseconds?) -> Microseconds? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

extension KioskApp {
    /// An exhibit's own generator: its demo's seed while the demo plays, else `drawn` from the
    /// kiosk's (drawn either way, so that what follows draws the same).
    static func exhibitGenerator(_ type: ExhibitType, drawn: UInt64, playingDemo: Bool) -> SeededGenerator {
        SeededGenerator(seed: playingDemo ? type.profile.demoSeed ?? drawn : drawn)
    }
}
