import Geometry
import Testing
@testable import Exhibits

/// A finger on a launcher tile shows at once (the tile darkens on touch-down), before the
/// tap is recognised on lifting; a finger that strays lets it go and opens nothing.
@Suite struct LauncherPressTests {
    func tileColours(_ app: KioskApp) -> [Color] {
        app.displayList().commands.compactMap { if case .rect(_, _, let color) = $0 { color } else { nil } }
    }

    func onLauncher(_ app: KioskApp) -> Bool { if case .launcher = app.screen { true } else { false } }

    @Test func aTileDarkensOnTouchDownAndStraysBack() throws {
        var settings = KioskApp.Settings()
        settings.attractAfter = nil
        let app = KioskApp(settings: settings, fonts: try FontSet(), log: .init(minimum: .error), start: 0)
        let tile = try #require(app.state()["controls"].flatMap { v -> Rect? in
            guard case .array(let list) = v, case .object(let first)? = list.first,
                  case .number(let x)? = first.first(where: { $0.0 == "x" })?.1, case .number(let y)? = first.first(where: { $0.0 == "y" })?.1,
                  case .number(let w)? = first.first(where: { $0.0 == "width" })?.1, case .number(let h)? = first.first(where: { $0.0 == "height" })?.1
            else { return nil }
            return Rect(center: Vec2(x, y), width: w, height: h)
        })
        let resting = tileColours(app)
        func touch(_ phase: TouchPhase, _ p: Vec2, _ t: Microseconds) {
            app.advance(to: t)
            app.handle(TouchFrame(time: t, events: [TouchEvent(slot: 0, phase: phase, position: p, time: t)]))
        }
        touch(.down, tile.center, 100_000)
        let pressed = tileColours(app)
        #expect(pressed != resting, "the touched tile changes on touch-down")
        #expect(pressed.count == resting.count)
        if let i = resting.indices.first(where: { resting[$0] != pressed[$0] }) {
            #expect(Int(pressed[i].r) + Int(pressed[i].g) + Int(pressed[i].b) < Int(resting[i].r) + Int(resting[i].g) + Int(resting[i].b))
        }
        // Strays past the tap's allowance: released, and lifting opens nothing.
        touch(.move, tile.center + Vec2(40, 0), 150_000)
        #expect(tileColours(app) == resting)
        touch(.up, tile.center + Vec2(40, 0), 200_000)
        app.advance(to: 600_000)
        #expect(onLauncher(app))
        // A tap: pressed while down, then the exhibit opens.
        touch(.down, tile.center, 700_000)
        #expect(tileColours(app) == pressed)
        touch(.up, tile.center, 760_000)
        app.advance(to: 1_000_000)
        #expect(!onLauncher(app))
    }

    /// The home control and the language buttons show the press too.
    @Test func theAppsOwnControlsShowThePress() throws {
        var settings = KioskApp.Settings()
        settings.attractAfter = nil
        settings.languages = ["en", "fr"]
        settings.initialExhibit = "grid-block"
        let app = KioskApp(settings: settings, fonts: try FontSet(), log: .init(minimum: .error), start: 0)
        func fills(_ app: KioskApp) -> [Color] {
            app.displayList().commands.compactMap {
                switch $0 {
                case .circle(_, _, let color), .rect(_, _, let color): color
                default: nil
                }
            }
        }
        func touch(_ phase: TouchPhase, _ p: Vec2, _ t: Microseconds) {
            app.advance(to: t)
            app.handle(TouchFrame(time: t, events: [TouchEvent(slot: 0, phase: phase, position: p, time: t)]))
        }
        let resting = fills(app)
        touch(.down, app.homeControlFrame.center, 100_000)
        let homePressed = fills(app)
        #expect(homePressed != resting)
        touch(.move, app.homeControlFrame.center + Vec2(0, 30), 150_000)
        #expect(fills(app) == resting)
        touch(.up, app.homeControlFrame.center + Vec2(0, 30), 200_000)
        guard case .array(let controls)? = app.state()["controls"],
              let french = controls.first(where: { if case .string("language.fr")? = $0["id"] { true } else { false } }),
              case .number(let x)? = french["x"], case .number(let y)? = french["y"] else {
            Issue.record("no language.fr control"); return
        }
        touch(.down, Vec2(x, y), 300_000)
        let languagePressed = fills(app)
        #expect(languagePressed != resting && languagePressed != homePressed)
        touch(.up, Vec2(x, y), 350_000)
        app.advance(to: 600_000)
        #expect(fills(app) != languagePressed)
    }

    /// On an exhibit that acts on taps anywhere, a finger is marked from touch-down until it
    /// strays (a drag) or lifts; an exhibit of buttons only (circle-draw) is not marked.
    @Test func aFingerThatMayTapIsMarkedAtOnce() throws {
        func app(_ exhibit: ExhibitType) throws -> KioskApp {
            var settings = KioskApp.Settings()
            settings.attractAfter = nil
            settings.initialExhibit = exhibit
            return KioskApp(settings: settings, fonts: try FontSet(), log: .init(minimum: .error), start: 0)
        }
        func marks(_ app: KioskApp) -> Int {
            app.displayList().commands.filter { if case .circle(_, _, let c) = $0 { c.a == 56 } else { false } }.count
        }
        func touch(_ app: KioskApp, _ phase: TouchPhase, _ p: Vec2, _ t: Microseconds) {
            app.advance(to: t)
            app.handle(TouchFrame(time: t, events: [TouchEvent(slot: 0, phase: phase, position: p, time: t)]))
        }
        for exhibit: ExhibitType in ["motion-cube", "grid-block", "tilt-box"] {
            let a = try app(exhibit)
            #expect(marks(a) == 0)
            touch(a, .down, Vec2(240, 650), 100_000)
            #expect(marks(a) == 1, "\(exhibit): marked on touch-down")
            touch(a, .up, Vec2(240, 650), 150_000)
            #expect(marks(a) == 0, "\(exhibit): gone on lifting")
            touch(a, .down, Vec2(240, 650), 300_000)
            touch(a, .move, Vec2(240, 700), 350_000)
            #expect(marks(a) == 0, "\(exhibit): gone once it is a drag")
        }
        let buttons = try app("circle-draw")
        touch(buttons, .down, Vec2(240, 500), 100_000)
        #expect(marks(buttons) == 0)
        touch(buttons, .up, Vec2(240, 500), 150_000)
        // Its own buttons shade on touch-down instead.
        guard case .array(let controls)? = buttons.state()["controls"],
              let mode = controls.first(where: { if case .string(let id)? = $0["id"] { id.hasPrefix("mode.") } else { false } }),
              case .number(let x)? = mode["x"], case .number(let y)? = mode["y"] else {
            Issue.record("no mode control"); return
        }
        let before = buttons.displayList().commands.count
        touch(buttons, .down, Vec2(x, y), 300_000)
        #expect(buttons.displayList().commands.count == before + 1, "the mode segment is shaded")
        touch(buttons, .up, Vec2(x, y), 350_000)
        buttons.advance(to: 600_000)
        let shaded = buttons.displayList().commands.contains { if case .rect(_, _, let c) = $0 { c.a == 64 } else { false } }
        #expect(!shaded, "the shade goes when the finger lifts")
    }
}
