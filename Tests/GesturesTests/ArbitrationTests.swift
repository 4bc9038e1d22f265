import Geometry
import Testing
@testable import Gestures

@Suite("Arbitration")
struct ArbitrationTests {
    @Test("a single tap waiting for a double tap fires after the interval when no second tap comes", arguments: [25.0, 120.0], [0.0, 2.0])
    func singleWaitsForDoubleToFail(rate: Double, jitter: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        let single = bench.add(TapGestureRecognizer(name: "single"))
        single.requireToFail(double)
        let script = TouchScript(rate: rate, jitter: jitter, [.hold(at: Vec2(200, 300), for: 60)])
        let env = bench.environment
        env.handle(script.frames())
        env.advance(to: script.endTime + 45_001) // the lift is confirmed
        #expect(single.isWaitingForFailure)
        #expect(bench.log.summary("single") == "")
        let upTime = script.endTime
        #expect(env.nextDeadline == upTime + double.maximumTapInterval)
        env.advance(to: upTime + double.maximumTapInterval)
        #expect(bench.log.summary("single") == "ended")
        #expect(bench.log.summary("double") == "")
        #expect(bench.log.times("single", .ended) == [upTime + double.maximumTapInterval])
        #expect(env.isAtRest)
    }

    @Test("a double tap makes the waiting single tap fail", arguments: [25.0, 120.0], [0.0, 2.0])
    func doubleBeatsSingle(rate: Double, jitter: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        let single = bench.add(TapGestureRecognizer(name: "single"))
        single.requireToFail(double)
        bench.run(TouchScript(rate: rate, jitter: jitter, [
            .hold(0, at: Vec2(200, 300), from: 0, for: 60),
            .hold(0, at: Vec2(200, 300), from: 180, for: 60),
        ]))
        #expect(bench.log.summary("double") == "ended")
        #expect(bench.log.summary("single") == "")
    }

    @Test("a drag fails the taps and begins the pan", arguments: [25.0, 120.0])
    func dragIsNoTap(rate: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        let single = bench.add(TapGestureRecognizer(name: "single"))
        single.requireToFail(double)
        bench.add(PanGestureRecognizer())
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(200, 100), duration: 300)]))
        #expect(bench.log.summary("pan") == "began changed ended")
        #expect(bench.log.summary("single") == "")
        #expect(bench.log.summary("double") == "")
    }

    @Test("pan, pinch and rotation run together when allowed", arguments: [25.0, 120.0], [0.0, 2.0])
    func simultaneous(rate: Double, jitter: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        let pinch = bench.add(PinchGestureRecognizer())
        let rotation = bench.add(RotationGestureRecognizer())
        pan.recognizeSimultaneously(with: pinch)
        pan.recognizeSimultaneously(with: rotation)
        pinch.recognizeSimultaneously(with: rotation)
        bench.run(TouchScript(rate: rate, jitter: jitter, twoFingerManipulation(center: Vec2(240, 400))))
        #expect(bench.log.summary("pan") == "began changed ended")
        #expect(bench.log.summary("pinch") == "began changed ended")
        #expect(bench.log.summary("rotation") == "began changed ended")
    }

    @Test("without simultaneity the first to begin wins", arguments: [25.0, 120.0])
    func exclusive(rate: Double) {
        let bench = Bench()
        bench.add(PanGestureRecognizer())
        bench.add(PinchGestureRecognizer())
        bench.add(RotationGestureRecognizer())
        bench.run(TouchScript(rate: rate, twoFingerManipulation(center: Vec2(240, 400))))
        let began = ["pan", "pinch", "rotation"].filter { bench.log.count($0, .began) > 0 }
        #expect(began.count == 1, "began: \(began)")
    }

    @Test("shouldRecognizeSimultaneously lets a recognizer run with any other")
    func simultaneityClosure() {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        bench.add(PinchGestureRecognizer())
        pan.shouldRecognizeSimultaneously = { _ in true }
        bench.run(TouchScript(rate: 120, twoFingerManipulation(center: Vec2(240, 400))))
        #expect(bench.log.summary("pan") == "began changed ended")
        #expect(bench.log.summary("pinch") == "began changed ended")
    }

    @Test("a pan that requires a swipe to fail waits, then begins when the swipe fails")
    func panRequiresSwipeToFail() {
        let bench = Bench()
        let swipe = bench.add(SwipeGestureRecognizer(direction: .right))
        let pan = bench.add(PanGestureRecognizer())
        pan.requireToFail(swipe)
        // Slow drag: the swipe fails once the finger is 50 px away too slowly; then the pan begins.
        bench.run(TouchScript(rate: 120, [.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 1000)]))
        #expect(bench.log.summary("swipe") == "")
        #expect(bench.log.summary("pan") == "began changed ended")
        // Fast flick: the swipe wins and the pan fails.
        bench.run(TouchScript(rate: 120, [.line(from: Vec2(100, 100), to: Vec2(300, 100), start: 3000, duration: 150)]))
        #expect(bench.log.summary("swipe") == "ended")
        #expect(bench.log.count("pan", .began) == 1)
    }

    @Test("a recognizer that recognized blocks later ones sharing its touches")
    func recognizedBlocks() {
        let bench = Bench()
        bench.add(LongPressGestureRecognizer())
        bench.add(PanGestureRecognizer())
        // Held 0.6 s, then dragged: the long press began first, so the pan never begins.
        let drag = Finger.line(from: Vec2(100, 100), to: Vec2(200, 100), duration: 300)
        bench.run(TouchScript(rate: 120, [Finger(slot: 0, start: 0, end: 900) { u in u * 900 < 600 ? Vec2(100, 100) : drag.path((u * 900 - 600) / 300) }]))
        #expect(bench.log.summary("long-press") == "began changed ended")
        #expect(bench.log.summary("pan") == "")
    }
}

/// Two fingers 160 px apart turning a quarter turn, spreading to 240 px and moving 100 px
/// right together: enough for pan, pinch and rotation each.
func twoFingerManipulation(center: Vec2, start: Double = 0) -> [Finger] {
    func finger(_ slot: Int, _ a0: Double) -> Finger {
        Finger(slot: slot, start: start, end: start + 600) { u in
            let a = a0 + .pi / 2 * u
            return center + Vec2(100 * u, 0) + Vec2(_cos(a), _sin(a)) * (80 + 40 * u)
        }
    }
    return [finger(0, .pi), finger(1, 0)]
}
