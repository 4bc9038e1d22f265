import Geometry
import Testing
@testable import Gestures

@Suite("Tap")
struct TapTests {
    @Test("a single tap is recognized where the finger was", arguments: [25.0, 120.0], [0.0, 2.0])
    func singleTap(rate: Double, jitter: Double) {
        let bench = Bench()
        let tap = bench.add(TapGestureRecognizer())
        bench.run(TouchScript(rate: rate, jitter: jitter, [.hold(at: Vec2(240, 400), for: 80)]))
        #expect(bench.log.summary("tap") == "ended")
        #expect(tap.location.distance(to: Vec2(240, 400)) <= 3)
        #expect(bench.environment.isAtRest)
    }

    @Test("a tap fails when the finger travels beyond the allowance", arguments: [25.0, 120.0])
    func travellingFingerFails(rate: Double) {
        let bench = Bench()
        bench.add(TapGestureRecognizer())
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(130, 100), duration: 120)]))
        #expect(bench.log.summary("tap") == "")
    }

    @Test("a double tap is recognized once, at the second lift", arguments: [25.0, 120.0], [0.0, 2.0])
    func doubleTap(rate: Double, jitter: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        bench.run(TouchScript(rate: rate, jitter: jitter, [
            .hold(0, at: Vec2(200, 300), from: 0, for: 60),
            .hold(0, at: Vec2(204, 302), from: 200, for: 60),
        ]))
        #expect(bench.log.summary("double") == "ended")
        #expect(double.tapCount == 0) // reset after recognition
    }

    @Test("a second tap too late makes a double tap fail", arguments: [25.0, 120.0])
    func doubleTapTooSlow(rate: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        bench.run(TouchScript(rate: rate, [
            .hold(0, at: Vec2(200, 300), from: 0, for: 60),
            .hold(0, at: Vec2(200, 300), from: 600, for: 60),
        ]))
        #expect(bench.log.summary("double") == "")
    }

    @Test("a second tap too far away makes a double tap fail", arguments: [25.0, 120.0])
    func doubleTapTooFar(rate: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        bench.run(TouchScript(rate: rate, [
            .hold(0, at: Vec2(200, 300), from: 0, for: 60),
            .hold(0, at: Vec2(300, 300), from: 200, for: 60),
        ]))
        #expect(bench.log.summary("double") == "")
    }

    @Test("a two-finger tap needs both fingers; a one-finger tap fails on two", arguments: [25.0, 120.0], [0.0, 2.0])
    func twoFingerTap(rate: Double, jitter: Double) {
        let bench = Bench()
        let two = bench.add(TapGestureRecognizer(name: "two"))
        two.numberOfTouchesRequired = 2
        bench.add(TapGestureRecognizer(name: "one"))
        bench.run(TouchScript(rate: rate, jitter: jitter, [
            .hold(0, at: Vec2(200, 300), from: 0, for: 100),
            .hold(1, at: Vec2(260, 300), from: 10, for: 100),
        ]))
        #expect(bench.log.summary("two") == "ended")
        #expect(bench.log.summary("one") == "")
        #expect(two.location.distance(to: Vec2(230, 300)) <= 3)
    }

    @Test("a two-finger tap fails with one finger", arguments: [25.0, 120.0])
    func twoFingerTapWithOneFinger(rate: Double) {
        let bench = Bench()
        let two = bench.add(TapGestureRecognizer(name: "two"))
        two.numberOfTouchesRequired = 2
        bench.run(TouchScript(rate: rate, [.hold(at: Vec2(200, 300), for: 80)]))
        #expect(bench.log.summary("two") == "")
        #expect(bench.environment.isAtRest)
    }

    @Test("a tap held in a region is only seen by the recognizer of that region")
    func regions() {
        let bench = Bench()
        bench.add(TapGestureRecognizer(region: Rect(x: 0, y: 0, width: 480, height: 400), name: "top"))
        bench.add(TapGestureRecognizer(region: Rect(x: 0, y: 400, width: 480, height: 400), name: "bottom"))
        bench.run(TouchScript(rate: 120, [.hold(at: Vec2(100, 600), for: 80)]))
        #expect(bench.log.summary("top") == "")
        #expect(bench.log.summary("bottom") == "ended")
    }

    @Test("shouldReceiveTouch keeps touches away from a recognizer")
    func shouldReceive() {
        let bench = Bench()
        let tap = bench.add(TapGestureRecognizer())
        tap.shouldReceiveTouch = { $0.x > 200 }
        bench.run(TouchScript(rate: 120, [.hold(at: Vec2(100, 600), for: 80), .hold(1, at: Vec2(300, 600), from: 300, for: 80)]))
        #expect(bench.log.summary("tap") == "ended")
        #expect(tap.location.x == 300)
    }

    @Test("a disabled recognizer gets no touches")
    func disabled() {
        let bench = Bench()
        let tap = bench.add(TapGestureRecognizer())
        tap.isEnabled = false
        bench.run(TouchScript(rate: 120, [.hold(at: Vec2(100, 600), for: 80)]))
        #expect(bench.log.summary("tap") == "")
    }
}
