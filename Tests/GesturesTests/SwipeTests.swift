import Geometry
import Testing
@testable import Gestures

@Suite("Swipe")
struct SwipeTests {
    static let flicks: [(SwipeDirections, Vec2)] = [(.right, Vec2(1, 0)), (.left, Vec2(-1, 0)), (.up, Vec2(0, -1)), (.down, Vec2(0, 1))]

    @Test("each direction is recognized by its own recognizer only", arguments: [25.0, 120.0], [0.0, 2.0])
    func fourDirections(rate: Double, jitter: Double) {
        for (direction, unit) in SwipeTests.flicks {
            let bench = Bench()
            var names: [String] = []
            for (d, _) in SwipeTests.flicks {
                let swipe = bench.add(SwipeGestureRecognizer(direction: d, name: "\(d.rawValue)"))
                swipe.action = { names.append($0.name) }
            }
            let start = Vec2(240, 400)
            bench.run(TouchScript(rate: rate, jitter: jitter, [.line(from: start, to: start + unit * 200, duration: 200)]))
            #expect(names == ["\(direction.rawValue)"], "swipe \(direction.rawValue) at \(rate) Hz gave \(names)")
        }
    }

    @Test("reports direction, translation and velocity; all directions with a π/4 tolerance take any heading", arguments: [25.0, 120.0])
    func anyDirection(rate: Double) {
        let bench = Bench()
        let swipe = bench.add(SwipeGestureRecognizer(direction: .all))
        swipe.directionTolerance = .pi / 4
        var seen: (SwipeDirections?, Vec2, Vec2)?
        swipe.action = { seen = ($0.recognizedDirection, $0.translation, $0.velocity) }
        // 40° below the +x axis, 1000 px/s.
        let heading = Vec2(_cos(0.7), _sin(0.7))
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(100, 100) + heading * 300, duration: 300)]))
        #expect(seen?.0 == .right)
        #expect((seen?.1.length ?? 0) >= 50)
        let v = seen?.2 ?? .zero
        #expect(near(v.length, 1000, within: 100), "velocity \(v)")
        #expect(abs(atan2d(v.y, v.x) - 0.7) < 0.05)
    }

    @Test("too slow fails", arguments: [25.0, 120.0])
    func tooSlow(rate: Double) {
        let bench = Bench()
        bench.add(SwipeGestureRecognizer(direction: .right))
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 1500)]))
        #expect(bench.log.summary("swipe") == "")
    }

    @Test("off direction beyond the tolerance fails", arguments: [25.0, 120.0])
    func offDirection(rate: Double) {
        let bench = Bench()
        bench.add(SwipeGestureRecognizer(direction: .right))
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(250, 250), duration: 200)]))
        #expect(bench.log.summary("swipe") == "")
    }

    @Test("too short fails", arguments: [25.0, 120.0])
    func tooShort(rate: Double) {
        let bench = Bench()
        bench.add(SwipeGestureRecognizer(direction: .right))
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 100), to: Vec2(140, 100), duration: 40)]))
        #expect(bench.log.summary("swipe") == "")
        #expect(bench.environment.isAtRest)
    }

    @Test("a resting finger then a flick fails after the maximum duration")
    func restThenFlick() {
        let bench = Bench()
        bench.add(SwipeGestureRecognizer(direction: .right))
        let flick = Finger.line(from: Vec2(100, 100), to: Vec2(300, 100), duration: 200)
        bench.run(TouchScript(rate: 120, [Finger(slot: 0, start: 0, end: 1200) { u in u < 1000.0 / 1200 ? Vec2(100, 100) : flick.path((u * 1200 - 1000) / 200) }]))
        #expect(bench.log.summary("swipe") == "")
    }

    @Test("two-finger swipe needs two fingers", arguments: [25.0, 120.0])
    func twoFingers(rate: Double) {
        let bench = Bench()
        let two = bench.add(SwipeGestureRecognizer(direction: .up, name: "two"))
        two.numberOfTouchesRequired = 2
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(100, 500), to: Vec2(100, 300), duration: 200)]))
        #expect(bench.log.summary("two") == "")
        bench.run(TouchScript(rate: rate, [
            .line(0, from: Vec2(100, 500), to: Vec2(100, 300), start: 2000, duration: 200),
            .line(1, from: Vec2(160, 500), to: Vec2(160, 300), start: 2000, duration: 200),
        ]))
        #expect(bench.log.summary("two") == "ended")
    }

    @Test("a fast flick of a few polls at 25 Hz is still a swipe")
    func shortFlickAt25Hz() {
        let bench = Bench()
        let swipe = bench.add(SwipeGestureRecognizer(direction: .left))
        // 120 px in 80 ms: down, two moves, up.
        bench.run(TouchScript(rate: 25, [.line(from: Vec2(300, 300), to: Vec2(180, 300), duration: 80)]))
        #expect(bench.log.summary("swipe") == "ended")
        #expect(swipe.state == .possible)
    }
}
