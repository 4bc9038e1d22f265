import Geometry
import Gestures
import Raster
import VisitorText

/// The app's own controls over every screen, and what it draws for the visitor's fingers:
/// the home control, the language buttons, the touch marks. It decides, when a finger lands,
/// whether its touches go to these controls or to the screen.
final class KioskChrome {
    /// Which of the controls the screen shows now.
    struct Visibility {
        var home: Bool
        var languages: Bool
    }

    let homeFrame: Rect
    let languageBar: LanguageBar
    let gestures = GestureEnvironment()
    /// Where each touch slot's events go (the app's controls or the screen), decided when
    /// the finger lands.
    private var touchGoesToChrome: [Int: Bool] = [:]
    /// The app's own control a finger is pressing (home first, then the language buttons).
    private var press = PressTracker()
    /// Fingers down on an exhibit that acts on taps anywhere, by slot: where each landed,
    /// marked until it strays past a tap's allowance or lifts.
    private var touchMarks: [Int: Vec2] = [:]
    private let tapAllowance = TapGestureRecognizer().allowableMovement
    private let markRadius: Double

    init(width: Int, height: Int, text: TextBook, fonts: FontSet, legibleSize: Double) {
        homeFrame = KioskChrome.homeControlFrame(width: width)
        languageBar = LanguageBar(text: text, fonts: fonts, width: Double(width), top: homeFrame.minY,
                                  leftLimit: homeFrame.maxX + homeFrame.minY,
                                  scale: min(Double(width) / 480, Double(height) / 800),
                                  legibleSize: legibleSize)
        markRadius = 22 * min(Double(width) / 480, Double(height) / 800)
    }

    /// The home control: top-left, at least 64 px (72 at 480 wide), out of every exhibit's way.
    static func homeControlFrame(width: Int) -> Rect {
        let scale = Double(width) / 480
        let side = max(64, (72 * scale).rounded())
        let margin = (8 * scale).rounded()
        return Rect(x: margin, y: margin, width: side, height: side)
    }

    /// The controls' taps: `home`, and `language` with the code of the button tapped.
    func addControls(home: @escaping () -> Void, language: @escaping (String) -> Void) {
        gestures.add(TapGestureRecognizer(region: homeFrame, name: "home") { tap in
            if tap.state == .ended { home() }
        })
        for button in languageBar.buttons {
            let code = button.language.code
            gestures.add(TapGestureRecognizer(region: button.frame, name: "language \(code)") { tap in
                if tap.state == .ended { language(code) }
            })
        }
    }

    /// No finger on a control, no tap pending.
    var isIdle: Bool { touchGoesToChrome.isEmpty && gestures.nextDeadline == nil }

    // MARK: Touches

    /// Hands the controls their part of `frame` and returns the screen's (nil: none).
    /// `marksTaps`: the screen is an exhibit that acts on taps anywhere.
    func route(_ frame: TouchFrame, showing: Visibility, marksTaps: Bool) -> TouchFrame? {
        var toChrome: [TouchEvent] = []
        var toScreen: [TouchEvent] = []
        for e in frame.events {
            if e.phase == .down && touchGoesToChrome[e.slot] == nil {
                touchGoesToChrome[e.slot] = isOnChrome(e.position, showing: showing)
            }
            if touchGoesToChrome[e.slot] == true { toChrome.append(e) } else { toScreen.append(e) }
            if e.phase == .up || e.phase == .cancel { touchGoesToChrome[e.slot] = nil }
        }
        if !toChrome.isEmpty {
            let f = TouchFrame(time: frame.time, events: toChrome)
            press.follow(f, regions: regions(showing))
            gestures.handle(f)
        }
        guard !toScreen.isEmpty else { return nil }
        let f = TouchFrame(time: frame.time, events: toScreen)
        if marksTaps { followTouchMarks(f) }
        return f
    }

    /// The fingers of `frame` that go down belong to the screen for their whole life (a
    /// visitor stopping the attract loop).
    func giveToScreen(_ frame: TouchFrame) {
        for e in frame.events where e.phase == .down { touchGoesToChrome[e.slot] = false }
    }

    private func followTouchMarks(_ frame: TouchFrame) {
        for e in frame.events {
            switch e.phase {
            case .down: touchMarks[e.slot] = e.position
            case .move: if let from = touchMarks[e.slot], e.position.distance(to: from) > tapAllowance { touchMarks[e.slot] = nil }
            case .up, .cancel: touchMarks[e.slot] = nil
            }
        }
    }

    /// The controls on this screen, in `press`'s order: home (where shown), then the
    /// language buttons.
    private func regions(_ showing: Visibility) -> [Rect] {
        (showing.home ? [homeFrame] : []) + (showing.languages ? languageBar.frames : [])
    }

    private func isOnChrome(_ p: Vec2, showing: Visibility) -> Bool {
        if showing.home && homeFrame.contains(p) { return true }
        return showing.languages && languageBar.frames.contains { $0.contains(p) }
    }

    /// The screen changed: no control is pressed, no finger marked.
    func screenChanged() {
        press.release()
        touchMarks.removeAll()
    }

    /// Fingers already down go to no one any more (a new exhibit opened under them).
    func forgetFingers() { touchGoesToChrome.removeAll() }

    /// A touchscreen went away: its touches end as cancelled.
    func deviceRemoved(_ device: Int, at time: Microseconds) {
        gestures.deviceRemoved(device, at: time)
        touchGoesToChrome.removeAll()
        touchMarks.removeAll()
        press.release()
    }

    // MARK: Drawing

    /// A soft disc under each finger that may be a tap (iOS's touch marks).
    func drawTouchMarks(into list: inout [DrawCommand]) {
        for (_, at) in touchMarks.sorted(by: { $0.key < $1.key }) {
            list.append(.circle(center: at, radius: markRadius, color: Color(r: 0, g: 0, b: 0, a: 56)))
        }
    }

    func drawControls(_ showing: Visibility, language: Language, into list: inout [DrawCommand]) {
        let pressed = press.index
        if showing.home { drawHomeControl(pressed: pressed == 0, into: &list) }
        if showing.languages {
            languageBar.draw(current: language, pressed: pressed.map { $0 - (showing.home ? 1 : 0) }, into: &list)
        }
    }

    private func drawHomeControl(pressed: Bool, into list: inout [DrawCommand]) {
        let f = homeFrame
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

    /// The controls as the state dump lists them: home first, the language buttons last.
    func controls(_ showing: Visibility, language: Language, around screen: [ControlState]) -> [ControlState] {
        var controls = screen
        if showing.home { controls.insert(ControlState(id: "home", frame: homeFrame), at: 0) }
        if showing.languages { controls.append(contentsOf: languageBar.controls(current: language)) }
        return controls
    }
}
