import Geometry
import Testing
@testable import Gestures

@Suite("Long press")
struct LongPressTests {
    @Test("begins after 0.5 s with no new event, changes on moves, ends at lift", arguments: [25.0, 120.0], [0.0, 2.0])
    func longPress(rate: Double, jitter: Double) {
        let bench = Bench()
        let press = bench.add(LongPressGestureRecognizer())
        let env = bench.environment
        // Finger down at 0 and held still: after the down frame nothing arrives.
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(240, 400), time: 0)]))
        #expect(env.nextDeadline == 500_000)
        env.advance(to: 499_999)
        #expect(press.state == .possible)
        env.advance(to: 520_000)
        #expect(bench.log.summary("long-press") == "began")
        #expect(bench.log.times("long-press", .began) == [500_000])
        #expect(env.nextDeadline == nil)
        // Then it moves (freely: the allowance only holds before it begins) and lifts.
        var script = TouchScript(rate: rate, jitter: jitter, [.line(from: Vec2(240, 400), to: Vec2(300, 460), start: 600, duration: 200)])
        script.seed = 3
        let frames = script.frames().map { frame in
            TouchFrame(time: frame.time, events: frame.events.map { e in var e = e; if e.phase == .down { e.phase = .move }; return e })
        }
        env.handle(frames)
        env.advance(to: 2_000_000)
        #expect(bench.log.summary("long-press") == "began changed ended")
        #expect(press.location.distance(to: Vec2(300, 460)) <= 3)
        #expect(env.isAtRest)
    }

    @Test("through a whole script at both rates", arguments: [25.0, 120.0], [0.0, 2.0])
    func heldFinger(rate: Double, jitter: Double) {
        let bench = Bench()
        bench.add(LongPressGestureRecognizer())
        bench.run(TouchScript(rate: rate, jitter: jitter, [.hold(at: Vec2(100, 100), for: 800)]))
        // Jitter after it began is reported as changes.
        #expect(bench.log.summary("long-press") == (jitter > 0 ? "began changed ended" : "began ended"))
        let began = bench.log.times("long-press", .began)[0]
        #expect(began >= 500_000 && began <= 500_000 + Microseconds(1_000_000 / rate) + 1)
    }

    @Test("fails when lifted early or moved beyond the allowance", arguments: [25.0, 120.0])
    func failures(rate: Double) {
        let bench = Bench()
        bench.add(LongPressGestureRecognizer())
        bench.run(TouchScript(rate: rate, [.hold(at: Vec2(100, 100), for: 300)]))
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(100, 140), start: 2000, duration: 300)]))
        #expect(bench.log.summary("long-press") == "")
        #expect(bench.environment.isAtRest)
    }

    @Test("a finger lifted during the debounce time just before 0.5 s does not fire it")
    func liftJustBeforeDeadline() {
        let bench = Bench()
        bench.add(LongPressGestureRecognizer())
        let env = bench.environment
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(10, 10), time: 0)]))
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .up, position: Vec2(10, 10), time: 480_000)]))
        env.advance(to: 1_000_000)
        #expect(bench.log.summary("long-press") == "")
    }

    @Test("a custom duration and two fingers")
    func twoFingers() {
        let bench = Bench()
        let press = bench.add(LongPressGestureRecognizer())
        press.numberOfTouchesRequired = 2
        press.minimumPressDuration = 1_000_000
        bench.run(TouchScript(rate: 120, [.hold(0, at: Vec2(100, 100), for: 1500), .hold(1, at: Vec2(200, 100), from: 20, for: 1480)]))
        #expect(bench.log.summary("long-press") == "began ended")
        let began = bench.log.times("long-press", .began)[0]
        #expect(began >= 1_020_000 && began < 1_040_000)
    }
}
