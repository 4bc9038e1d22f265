import Geometry
import Testing
@testable import Gestures

@Suite("Pinch and rotation")
struct PinchRotationTests {
    @Test("two fingers moving apart double the scale", arguments: [25.0, 120.0], [0.0, 2.0])
    func pinchOut(rate: Double, jitter: Double) {
        let bench = Bench()
        let pinch = bench.add(PinchGestureRecognizer())
        var scale = 0.0, velocities: [Double] = []
        pinch.action = { [log = bench.log] r in
            log.record(r)
            scale = r.scale
            if r.state == .changed { velocities.append(r.velocity) }
        }
        bench.run(TouchScript(rate: rate, jitter: jitter, [
            .line(0, from: Vec2(200, 400), to: Vec2(150, 400), duration: 500),
            .line(1, from: Vec2(300, 400), to: Vec2(350, 400), duration: 500),
        ]))
        #expect(bench.log.summary("pinch") == "began changed ended")
        #expect(near(scale, 2, within: 0.06), "scale \(scale)")
        // Scale grows by 1 in 0.5 s: 2 per second while the fingers move.
        let middle = velocities[velocities.count / 2]
        #expect(near(middle, 2, within: 0.3), "velocity \(middle)")
    }

    @Test("fingers moving together shrink it", arguments: [25.0, 120.0])
    func pinchIn(rate: Double) {
        let bench = Bench()
        let pinch = bench.add(PinchGestureRecognizer())
        var scale = 0.0
        pinch.action = { scale = $0.scale }
        bench.run(TouchScript(rate: rate, [
            .line(0, from: Vec2(100, 400), to: Vec2(175, 400), duration: 400),
            .line(1, from: Vec2(300, 400), to: Vec2(225, 400), duration: 400),
        ]))
        #expect(near(scale, 0.25, within: 1e-9))
    }

    @Test("does not begin on jitter or with one finger", arguments: [25.0, 120.0])
    func noPinch(rate: Double) {
        let bench = Bench()
        bench.add(PinchGestureRecognizer())
        bench.add(RotationGestureRecognizer())
        bench.run(TouchScript(rate: rate, jitter: 2, [.hold(0, at: Vec2(200, 400), for: 1000), .hold(1, at: Vec2(280, 400), for: 1000)]))
        bench.run(TouchScript(rate: rate, [.line(from: Vec2(200, 400), to: Vec2(400, 400), start: 3000, duration: 300)]))
        #expect(bench.log.summary("pinch") == "")
        #expect(bench.log.summary("rotation") == "")
    }

    @Test("lifting one finger freezes the scale; a new finger resumes it without a jump")
    func refinger() {
        let bench = Bench()
        let pinch = bench.add(PinchGestureRecognizer())
        var scales: [(time: Microseconds, scale: Double)] = []
        pinch.action = { [log = bench.log, env = bench.environment] r in log.record(r); scales.append((env.now, r.scale)) }
        bench.run(TouchScript(rate: 120, [
            .line(0, from: Vec2(200, 400), to: Vec2(150, 400), duration: 1200),
            .line(1, from: Vec2(300, 400), to: Vec2(350, 400), duration: 400),
            // Lands 100 px from finger 0 at 0.6 s, then moves to 200 px from it: ×2.
            .line(1, from: Vec2(275, 400), to: Vec2(350, 400), start: 600, duration: 600),
        ]))
        #expect(bench.log.summary("pinch") == "began changed ended")
        let steps = zip(scales, scales.dropFirst()).map { abs($1.scale - $0.scale) }
        #expect((steps.max() ?? 0) < 0.05)
        // The first pair went from 100 px to about 167 px apart (finger 0 keeps moving).
        let frozen = scales.last { $0.time < 600_000 }!.scale
        #expect(frozen > 1.6 && frozen < 1.75, "scale when the finger lifted: \(frozen)")
        #expect(near(scales.last!.scale, frozen * 2, within: 0.02), "final \(scales.last!.scale), frozen \(frozen)")
    }

    @Test("rotation is clockwise positive", arguments: [25.0, 120.0], [0.0, 2.0])
    func clockwise(rate: Double, jitter: Double) {
        let bench = Bench()
        let rotation = bench.add(RotationGestureRecognizer())
        var angle = 0.0, velocities: [Double] = []
        rotation.action = { [log = bench.log] r in
            log.record(r)
            angle = r.rotation
            if r.state == .changed { velocities.append(r.velocity) }
        }
        let center = Vec2(240, 400)
        bench.run(TouchScript(rate: rate, jitter: jitter, [
            .arc(0, center: center, radius: 80, from: .pi, to: .pi * 1.5, duration: 500),
            .arc(1, center: center, radius: 80, from: 0, to: .pi * 0.5, duration: 500),
        ]))
        #expect(bench.log.summary("rotation") == "began changed ended")
        #expect(near(angle, .pi / 2, within: 0.06), "angle \(angle)")
        let middle = velocities[velocities.count / 2]
        #expect(near(middle, .pi, within: 0.4), "velocity \(middle)") // π/2 in 0.5 s
    }

    @Test("re-based scale and rotation keep their velocities", arguments: [25.0, 120.0])
    func rebased(rate: Double) {
        let bench = Bench()
        let pinch = bench.add(PinchGestureRecognizer())
        let rotation = bench.add(RotationGestureRecognizer())
        pinch.recognizeSimultaneously(with: rotation)
        var totalScale = 1.0, totalAngle = 0.0
        var scaleVelocities: [Double] = [], angleVelocities: [Double] = []
        pinch.action = { r in
            totalScale *= r.scale
            if r.state == .changed { scaleVelocities.append(r.velocity / r.scale) }
            r.scale = 1
        }
        rotation.action = { r in
            totalAngle += r.rotation
            r.rotation = 0
            if r.state == .changed { angleVelocities.append(r.velocity) }
        }
        bench.run(TouchScript(rate: rate, twoFingerManipulation(center: Vec2(240, 400))))
        #expect(near(totalScale, 1.5, within: 1e-9) && near(totalAngle, .pi / 2, within: 1e-9))
        // Mid-gesture: angle grows at π/2 per 0.6 s; distance at 40 px/0.6 s over ~200 px.
        let midAngle = angleVelocities[angleVelocities.count / 2], midScale = scaleVelocities[scaleVelocities.count / 2]
        #expect(near(midAngle, .pi / 2 / 0.6, within: 0.3), "angular velocity \(midAngle)")
        #expect(near(midScale, (80.0 / 0.6) / 200, within: 0.15), "relative scale velocity \(midScale)")
    }

    @Test("counterclockwise is negative and goes past -π", arguments: [25.0, 120.0])
    func counterclockwiseBeyondHalfTurn(rate: Double) {
        let bench = Bench()
        let rotation = bench.add(RotationGestureRecognizer())
        var angle = 0.0
        rotation.action = { angle = $0.rotation }
        let center = Vec2(240, 400)
        bench.run(TouchScript(rate: rate, [
            .arc(0, center: center, radius: 80, from: .pi, to: -.pi * 0.25, duration: 1200),
            .arc(1, center: center, radius: 80, from: 0, to: -.pi * 1.25, duration: 1200),
        ]))
        #expect(near(angle, -.pi * 1.25, within: 0.02), "angle \(angle)")
    }
}
