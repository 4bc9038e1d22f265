import Geometry
import Testing
@testable import Gestures

@Suite("Hardware noise")
struct RobustnessTests {
    /// A drag whose finger loses contact for `gapMs` halfway.
    func bouncingDrag(rate: Double, gapMs: Double, jitter: Double = 0) -> TouchScript {
        let whole = Finger.line(from: Vec2(100, 100), to: Vec2(400, 100), duration: 600)
        var script = TouchScript(rate: rate, jitter: jitter)
        let period = 1000 / rate
        // First contact ends on a poll; the lift shows one poll later; the finger is back
        // `gapMs` after that lift (on the next poll at or after it).
        let firstEnd = (300 / period).rounded(.down) * period
        script.fingers = [
            Finger(slot: 0, start: 0, end: firstEnd) { u in whole.path(u * firstEnd / 600) },
            Finger(slot: 0, start: firstEnd + period + gapMs, end: 600) { u in
                let t0 = firstEnd + period + gapMs
                return whole.path((t0 + u * (600 - t0)) / 600)
            },
        ]
        return script
    }

    @Test("a finger lifting and landing within 30 ms does not end a pan or make a tap", arguments: [25.0, 120.0], [0.0, 2.0])
    func liftAndLand(rate: Double, jitter: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        bench.add(TapGestureRecognizer())
        var final = Vec2.zero
        pan.action = { [log = bench.log] r in log.record(r); if r.state == .ended { final = r.translation } }
        let script = bouncingDrag(rate: rate, gapMs: 30, jitter: jitter)
        #expect(script.events().filter { $0.phase == .up }.count == 2)
        bench.run(script)
        #expect(bench.log.summary("pan") == "began changed ended")
        #expect(bench.log.summary("tap") == "")
        #expect(final.distance(to: Vec2(300, 0)) <= 1e-9 + 3 * jitter)
    }

    @Test("a quick lift and land on a still finger is one tap, not two")
    func bounceIsOneTap() {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        bench.add(TapGestureRecognizer(name: "single"))
        let env = bench.environment
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(50, 50), time: 0)]))
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .up, position: Vec2(50, 50), time: 40_000)]))
        env.handle(TouchFrame([TouchEvent(slot: 1, phase: .down, position: Vec2(51, 50), time: 60_000)]))
        env.handle(TouchFrame([TouchEvent(slot: 1, phase: .up, position: Vec2(51, 50), time: 100_000)]))
        env.advance(to: 1_000_000)
        #expect(bench.log.summary("single") == "ended")
        #expect(bench.log.summary("double") == "")
    }

    @Test("repeated identical events change nothing", arguments: [25.0, 120.0])
    func duplicates(rate: Double) {
        func outcome(duplicated: Bool) -> (String, String, Vec2) {
            let bench = Bench()
            let pan = bench.add(PanGestureRecognizer())
            var final = Vec2.zero
            pan.action = { [log = bench.log] r in log.record(r); if r.state == .ended { final = r.velocity } }
            bench.add(TapGestureRecognizer())
            let script = TouchScript(rate: rate, jitter: 2, [
                .line(from: Vec2(100, 100), to: Vec2(300, 200), duration: 400),
                .hold(1, at: Vec2(400, 700), from: 600, for: 80),
            ])
            var frames = script.frames()
            if duplicated {
                // Every event twice in its frame, and every frame twice.
                frames = frames.flatMap { f in
                    let doubled = TouchFrame(time: f.time, events: f.events.flatMap { [$0, $0] })
                    return [doubled, doubled]
                }
            }
            bench.environment.handle(frames)
            bench.environment.advance(to: 2_000_000)
            return (bench.log.summary("pan"), bench.log.summary("tap"), final)
        }
        let clean = outcome(duplicated: false), noisy = outcome(duplicated: true)
        #expect(clean.0 == "began changed ended" && clean.1 == "ended")
        #expect(noisy.0 == clean.0 && noisy.1 == clean.1)
        #expect(noisy.2 == clean.2)
    }

    @Test("stray events for unknown slots are ignored")
    func strayEvents() {
        let bench = Bench()
        bench.add(TapGestureRecognizer())
        let env = bench.environment
        env.handle(TouchFrame([TouchEvent(slot: 4, phase: .move, position: Vec2(1, 1), time: 0),
                               TouchEvent(slot: 5, phase: .up, position: Vec2(1, 1), time: 0),
                               TouchEvent(slot: 6, phase: .cancel, position: .zero, time: 0)]))
        env.advance(to: 1_000_000)
        #expect(bench.log.entries.isEmpty)
        #expect(env.isAtRest)
    }

    @Test("a cancelled touch cancels the pan and fails the tap", arguments: [25.0, 120.0])
    func cancelEvent(rate: Double) {
        let bench = Bench()
        bench.add(PanGestureRecognizer())
        let script = TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 400)])
        var events = script.events().filter { $0.time < 300_000 }
        events.append(TouchEvent(slot: 0, phase: .cancel, position: .zero, time: 300_000))
        bench.environment.handle(TouchScript.frames(events))
        bench.environment.advance(to: 2_000_000)
        #expect(bench.log.summary("pan") == "began changed cancelled")
        #expect(bench.environment.isAtRest)
    }

    @Test("a touch that never gets its up is cancelled when its device goes away", arguments: [25.0, 120.0])
    func deviceRemoved(rate: Double) {
        let bench = Bench()
        bench.add(PanGestureRecognizer())
        bench.add(LongPressGestureRecognizer())
        let script = TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 400)])
        bench.environment.handle(script.frames().filter { frame in !frame.events.contains { $0.phase == .up } })
        #expect(bench.environment.touchCount == 1)
        bench.environment.deviceRemoved(0, at: 2_000_000)
        #expect(bench.log.summary("pan") == "began changed cancelled")
        #expect(bench.environment.touchCount == 0)
        #expect(bench.environment.isAtRest)
        // The slot is free again for the next device's touches.
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(300, 100), start: 3000, duration: 400)]))
        #expect(bench.log.summary("pan") == "began changed cancelled began changed ended")
    }

    @Test("a finger that lifted just before its device went away still taps")
    func liftThenUnplug() {
        let bench = Bench()
        bench.add(TapGestureRecognizer(name: "tap"))
        let env = bench.environment
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(100, 100), time: 0, device: 3)]))
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .up, position: Vec2(100, 100), time: 60_000, device: 3)]))
        // Unplugged within the lift debounce: the "up" was real and nothing can land again.
        env.deviceRemoved(3, at: 70_000)
        #expect(bench.log.summary("tap") == "ended")
        #expect(env.isAtRest)
    }

    @Test("removing one device leaves the other's touches alone")
    func otherDevice() {
        let bench = Bench()
        bench.add(PanGestureRecognizer())
        let env = bench.environment
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(100, 100), time: 0, device: 1)]))
        env.deviceRemoved(2, at: 10_000)
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .move, position: Vec2(150, 100), time: 50_000, device: 1)]))
        env.handle(TouchFrame([TouchEvent(slot: 0, phase: .up, position: Vec2(150, 100), time: 90_000, device: 1)]))
        env.advance(to: 1_000_000)
        #expect(bench.log.summary("pan") == "began ended")
    }

    @Test("cancelAll cancels gestures in progress and taps waiting for a next tap")
    func cancelAll() {
        let bench = Bench()
        let top = Rect(x: 0, y: 0, width: 480, height: 400), bottom = Rect(x: 0, y: 400, width: 480, height: 400)
        let double = bench.add(TapGestureRecognizer(region: top, name: "double"))
        double.numberOfTapsRequired = 2
        let single = bench.add(TapGestureRecognizer(region: top, name: "single"))
        single.requireToFail(double)
        bench.add(LongPressGestureRecognizer(region: bottom))
        let env = bench.environment
        // The long press began at 0.6 s; the tap at 0.5 s waits for a second tap until ~0.9 s.
        env.handle(TouchScript(rate: 120, [.hold(at: Vec2(50, 50), from: 500, for: 40), .hold(1, at: Vec2(300, 600), from: 100, for: 2000)]).frames().filter { $0.time < 700_000 })
        #expect(bench.log.summary("long-press") == "began")
        #expect(single.isWaitingForFailure)
        env.cancelAll(at: 700_000)
        #expect(bench.log.summary("long-press") == "began cancelled")
        #expect(bench.log.summary("single") == "")
        #expect(env.isAtRest)
    }

    @Test("nothing pending at rest: no deadline, no touches", arguments: [25.0, 120.0])
    func zeroWakeupsAtRest(rate: Double) {
        let bench = Bench()
        let double = bench.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        bench.add(LongPressGestureRecognizer())
        bench.add(SwipeGestureRecognizer())
        bench.add(PanGestureRecognizer())
        #expect(bench.environment.nextDeadline == nil)
        bench.run(TouchScript(rate: rate, jitter: 2, [.hold(at: Vec2(50, 50), for: 60), .line(1, from: Vec2(100, 100), to: Vec2(300, 300), start: 1000, duration: 300)]))
        #expect(bench.environment.nextDeadline == nil)
        #expect(bench.environment.isAtRest)
    }
}

@Suite("Hardware noise, two fingers")
struct TwoFingerNoiseTests {
    @Test("a pinching finger that bounces keeps the pinch going and its motion counts", arguments: [25.0, 120.0])
    func pinchBounce(rate: Double) {
        let bench = Bench()
        let pinch = bench.add(PinchGestureRecognizer())
        let rotation = bench.add(RotationGestureRecognizer())
        pinch.recognizeSimultaneously(with: rotation)
        var scale = 0.0
        pinch.action = { [log = bench.log] r in log.record(r); scale = r.scale }
        // Finger 1 moves from 100 px to 200 px from finger 0 over 0.8 s, losing contact for a
        // poll plus up to 30 ms halfway; finger 0 is still.
        let period = 1000 / rate
        let lift = (400 / period).rounded(.down) * period
        let back = lift + period + 30
        func x(_ ms: Double) -> Double { 300 + 100 * ms / 800 }
        bench.run(TouchScript(rate: rate, [
            .hold(0, at: Vec2(200, 400), for: 800),
            Finger(slot: 1, start: 0, end: lift) { u in Vec2(x(u * lift), 400) },
            Finger(slot: 1, start: back, end: 800) { u in
                let first = (back / period).rounded(.up) * period
                return Vec2(x(first + u * (800 - first)), 400)
            },
        ]))
        #expect(bench.log.summary("pinch") == "began changed ended")
        #expect(near(scale, 2, within: 1e-9), "scale \(scale)")
        #expect(bench.log.summary("rotation") == "")
    }

    @Test("a pan waiting for a swipe to fail begins and ends when the finger lifts first")
    func pendingPanLifted() {
        let bench = Bench()
        let swipe = bench.add(SwipeGestureRecognizer(direction: .right))
        let pan = bench.add(PanGestureRecognizer())
        pan.requireToFail(swipe)
        // 40 px in 0.1 s: enough for the pan, too short for the swipe, which fails at the lift.
        bench.run(TouchScript(rate: 120, [.line(from: Vec2(100, 100), to: Vec2(140, 100), duration: 100)]))
        #expect(bench.log.summary("swipe") == "")
        #expect(bench.log.summary("pan") == "began ended")
        #expect(pan.state == .possible)
    }

    @Test("a long press of zero duration reports touch down at once (circle drawing)", arguments: [25.0, 120.0])
    func immediateTouch(rate: Double) {
        let bench = Bench()
        let press = bench.add(LongPressGestureRecognizer(name: "draw"))
        press.minimumPressDuration = 0
        press.allowableMovement = .infinity
        var radii: [Double] = []
        press.action = { [log = bench.log] r in log.record(r); radii.append(r.location.distance(to: Vec2(240, 400))) }
        let frames = TouchScript(rate: rate, [.line(from: Vec2(240, 400), to: Vec2(240, 480), duration: 400)]).frames()
        bench.environment.handle(frames[0])
        #expect(bench.log.summary("draw") == "began")
        #expect(bench.log.times("draw", .began) == [0])
        bench.environment.handle(frames.dropFirst())
        bench.environment.advance(to: 1_000_000)
        #expect(bench.log.summary("draw") == "began changed ended")
        #expect(radii.first == 0 && near(radii.last!, 80, within: 1e-9))
    }
}
