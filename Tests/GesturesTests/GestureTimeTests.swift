import Geometry
import Testing
@testable import Gestures

/// A recognised gesture carries the time it happened, not the time its action happened to
/// run: content that schedules from it (a grid's steps) does not depend on when the kiosk
/// woke up.
@Suite("Gesture time")
struct GestureTimeTests {
    static func touch(_ phase: TouchPhase, at ms: Microseconds) -> TouchFrame {
        TouchFrame(time: ms * 1000, events: [TouchEvent(slot: 0, phase: phase, position: Vec2(100, 100), time: ms * 1000, device: 0)])
    }

    /// The states a tap and a long press went through, with their times, when the
    /// environment is advanced to 2 s in `steps` of equal length.
    static func run(steps: Int) -> [String] {
        let environment = GestureEnvironment()
        var seen: [String] = []
        environment.add(TapGestureRecognizer(region: Rect(x: 0, y: 0, width: 200, height: 200)) { seen.append("tap \($0.state) \($0.time)") })
        let press = LongPressGestureRecognizer(region: Rect(x: 0, y: 300, width: 200, height: 200)) { seen.append("press \($0.state) \($0.time)") }
        environment.add(press)
        environment.handle(touch(.down, at: 500))
        environment.handle(touch(.up, at: 560))
        environment.handle(TouchFrame(time: 1_000_000, events: [TouchEvent(slot: 1, phase: .down, position: Vec2(100, 400), time: 1_000_000, device: 0)]))
        for k in 1...steps { environment.advance(to: 1_000_000 + 1_000_000 * Microseconds(k) / Microseconds(steps)) }
        return seen
    }

    @Test func aTapCarriesItsLiftsTimeAndALongPressItsDeadlinesHoweverTimeIsStepped() {
        // The tap is recognised once its lift is confirmed (45 ms of debounce), but happened
        // at the lift; the long press began when it had been held 0.5 s.
        let expected = ["tap ended 560000", "press began 1500000"]
        #expect(Self.run(steps: 1) == expected)
        #expect(Self.run(steps: 100) == expected)
        #expect(Self.run(steps: 997) == expected)
    }
}
