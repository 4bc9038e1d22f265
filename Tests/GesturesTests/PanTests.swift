import Geometry
import Testing
@testable import Gestures

@Suite("Pan")
struct PanTests {
    @Test("translation follows the finger and velocity is its speed", arguments: [25.0, 120.0], [0.0, 2.0])
    func drag(rate: Double, jitter: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        var velocities: [Vec2] = []
        pan.action = { [log = bench.log] r in log.record(r); if r.state == .ended { velocities.append(r.velocity) } }
        // 300 px right and 150 px down in 0.6 s: (500, 250) px/s.
        bench.run(TouchScript(rate: rate, jitter: jitter, [.line(from: Vec2(100, 200), to: Vec2(400, 350), duration: 600)]))
        #expect(bench.log.summary("pan") == "began changed ended")
        #expect(pan.state == .possible) // reset after the gesture
        #expect(velocities.count == 1)
        let v = velocities[0]
        #expect(near(v.x, 500, within: 500 * 0.1 + jitter * 15), "velocity \(v)")
        #expect(near(v.y, 250, within: 250 * 0.1 + jitter * 15), "velocity \(v)")
    }

    @Test("the translation at the end is the finger's travel", arguments: [25.0, 120.0])
    func translation(rate: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        var final = Vec2.zero
        pan.action = { if $0.state == .ended { final = $0.translation } }
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 200), to: Vec2(160, 120), duration: 300)]))
        #expect(final ~= Vec2(60, -80))
    }

    @Test("a finger that stops before lifting ends with zero velocity", arguments: [25.0, 120.0])
    func stopThenLift(rate: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        var endVelocity: Vec2?
        pan.action = { if $0.state == .ended { endVelocity = $0.velocity } }
        let move = Finger.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 300)
        let held = Finger(slot: 0, start: 0, end: 800) { u in u * 800 < 300 ? move.path(u * 800 / 300) : Vec2(300, 100) }
        bench.run(TouchScript(rate: rate, [held]))
        #expect(endVelocity == .zero)
    }

    @Test("does not begin on jitter alone", arguments: [25.0, 120.0])
    func jitterDoesNotPan(rate: Double) {
        let bench = Bench()
        bench.add(PanGestureRecognizer())
        bench.run(TouchScript(rate: rate, jitter: 2, [.hold(at: Vec2(200, 200), for: 1500)]))
        #expect(bench.log.summary("pan") == "")
    }

    @Test("minimum touches: a one-finger drag does not begin a two-finger pan", arguments: [25.0, 120.0])
    func minimumTouches(rate: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        pan.minimumNumberOfTouches = 2
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 300)]))
        #expect(bench.log.summary("pan") == "")
        bench.run(TouchScript(rate: rate, [
            .line(0, from: Vec2(100, 100), to: Vec2(300, 100), start: 2000, duration: 300),
            .line(1, from: Vec2(100, 200), to: Vec2(300, 200), start: 2000, duration: 300),
        ]))
        #expect(bench.log.summary("pan") == "began changed ended")
    }

    @Test("maximum touches: two fingers before it begins make a one-finger pan fail", arguments: [25.0, 120.0])
    func maximumTouches(rate: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        pan.maximumNumberOfTouches = 1
        bench.run(TouchScript(rate: rate, [
            .line(0, from: Vec2(100, 100), to: Vec2(300, 100), duration: 300),
            .line(1, from: Vec2(100, 200), to: Vec2(300, 200), duration: 300),
        ]))
        #expect(bench.log.summary("pan") == "")
    }

    @Test("a second finger joining and leaving does not make the translation jump", arguments: [25.0, 120.0])
    func fingersJoinAndLeave(rate: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        var translations: [Vec2] = []
        pan.action = { [log = bench.log] r in log.record(r); translations.append(r.translation) }
        // Finger 0 drags 200 px right over 1 s; finger 1 lands 150 px below at 0.2 s, moves
        // along with it, lifts at 0.6 s (times on both polling grids).
        let speed = 200.0 / 1000
        bench.run(TouchScript(rate: rate, [
            .line(0, from: Vec2(100, 100), to: Vec2(300, 100), duration: 1000),
            .line(1, from: Vec2(100 + 200 * speed, 250), to: Vec2(100 + 600 * speed, 250), start: 200, duration: 400),
        ]))
        #expect(bench.log.summary("pan") == "began changed ended")
        let steps = zip(translations, translations.dropFirst()).map { ($1 - $0).length }
        let largest = steps.max() ?? 0
        // One poll of finger motion at most (200 px/s), never the 75 px centroid jump.
        #expect(largest <= 200 / rate * 1.5 + 0.5, "largest step \(largest)")
        // Finger 1 rests for the one poll between its last sample and its lift while finger 0
        // moves on: the centroid follows at half speed for that poll.
        #expect(translations.last!.distance(to: Vec2(200, 0)) <= 200 / rate / 2 + 1e-6)
    }

    @Test("setTranslation re-bases the translation and keeps the velocity", arguments: [25.0, 120.0])
    func setTranslation(rate: Double) {
        let bench = Bench()
        let pan = bench.add(PanGestureRecognizer())
        var applied = Vec2.zero, release = Vec2.zero
        pan.action = { r in
            applied += r.translation
            r.setTranslation(.zero)
            if r.state == .ended { release = r.velocity }
        }
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(250, 40), duration: 400)]))
        #expect(applied.distance(to: Vec2(150, -60)) < 1e-6)
        #expect(release.distance(to: Vec2(375, -150)) < 375 * 0.1, "velocity \(release)")
    }
}
