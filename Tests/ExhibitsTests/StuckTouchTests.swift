import Testing
import Diagnostics
import Geometry
@testable import Exhibits

/// A finger held still past `stuckTouchAfter` is dropped until it lifts.
@Suite struct StuckTouchTests {
    func app(stuckAfter: Microseconds?) throws -> KioskApp {
        var s = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        s.stuckTouchAfter = stuckAfter
        s.attractAfter = nil
        s.idleTimeout = 90_000_000
        let app = KioskApp(settings: s, fonts: try FontSet(), log: Log(minimum: .error))
        app.open("circle-draw")
        return app
    }
    func touch(_ app: KioskApp, _ phase: TouchPhase, _ p: Vec2, at t: Microseconds, slot: Int = 3) {
        app.advance(to: t)
        app.handle(TouchFrame(time: t, events: [TouchEvent(slot: slot, phase: phase, position: p, time: t)]))
    }
    func showing(_ app: KioskApp) -> String {
        if case .exhibit(let name) = app.screen { return name }
        return "launcher"
    }

    @Test func aFingerHeldStillIsDroppedOnTimeAndIgnoredUntilItLifts() throws {
        let app = try app(stuckAfter: 600_000_000)
        touch(app, .down, Vec2(240, 400), at: 1_000_000)
        // Wobbling within 2 mm is still held still.
        touch(app, .move, Vec2(243, 402), at: 300_000_000)
        app.advance(to: 600_999_999)
        #expect(app.visitorCounts.stuckTouches == 0)
        app.advance(to: 601_000_000)
        #expect(app.visitorCounts.stuckTouches == 1)
        // Its movement now is no visitor's: the idle reset comes 90 s after it was dropped.
        touch(app, .move, Vec2(100, 100), at: 650_000_000)
        app.advance(to: 690_000_000)
        #expect(showing(app) == "circle-draw")
        app.advance(to: 691_000_000)
        #expect(showing(app) == "launcher")
        #expect(app.visitorCounts.stuckTouches == 1)
        // Lifted: gone, and the slot is a finger like any other again.
        touch(app, .up, Vec2(100, 100), at: 700_000_000)
        #expect(app.visitorCounts.stuckTouches == 0)
        touch(app, .down, Vec2(240, 400), at: 701_000_000)
        app.advance(to: 702_000_000)
        #expect(app.visitorCounts.stuckTouches == 0)
    }

    @Test func aFingerThatMovesIsNeverStuck() throws {
        let app = try app(stuckAfter: 600_000_000)
        touch(app, .down, Vec2(240, 400), at: 1_000_000)
        var x = 240.0
        for k in 1...20 {
            x += k % 2 == 0 ? 30 : -30
            touch(app, .move, Vec2(x, 400), at: Microseconds(k) * 50_000_000)
        }
        app.advance(to: 1_000_000_000)
        #expect(app.visitorCounts.stuckTouches == 0)
    }

    @Test func offKeepsTheFingerHowEverLong() throws {
        let app = try app(stuckAfter: nil)
        touch(app, .down, Vec2(240, 400), at: 1_000_000)
        app.advance(to: 5_000_000_000)
        #expect(app.visitorCounts.stuckTouches == 0)
        #expect(showing(app) == "circle-draw", "held: still playing")
    }
}
