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
}
