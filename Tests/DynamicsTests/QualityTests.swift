import Testing
import Geometry
@testable import Dynamics

@Suite struct QualityTests {
    @Test func ballReboundsTo25PercentOfDropHeight() {
        for drop in [600.0, 433.0, 250.0] {
            let scene = Scene(bounds: Rect(x: 0, y: 0, width: 400, height: 800))
            scene.material.elasticity = 0.5
            let floorY = 800.0, r = 10.0
            let ball = scene.add(.circle(radius: r), at: Vec2(200, floorY - r - drop))
            var bounced = false, peak = Double.infinity
            run(scene.world, steps: 600) { _ in
                let v = scene.world.velocity(of: ball)!.y
                let y = scene.world.center(of: ball)!.y
                if !bounced && v < 0 { bounced = true }
                if bounced && v <= 0 { peak = min(peak, y) }
            }
            let rebound = floorY - r - peak
            #expect(abs(rebound / (0.25 * drop) - 1) < 0.01, "drop \(drop): rebound \(rebound)")
        }
    }
}

extension QualityTests {
    @Test func rigidPendulumPeriodMatchesTheory() {
        for length in [150.0, 300.0] {
            let scene = Scene(bounds: Rect(x: 0, y: 0, width: 800, height: 800), boundary: false)
            let anchor = Vec2(400, 100), amplitude = 0.05
            let ball = scene.add(.circle(radius: 10), at: anchor + Vec2(length * _sin(amplitude), length * _cos(amplitude)))
            let rod = AttachmentBehavior(item: ball, attachedToAnchor: anchor)
            scene.world.addBehavior(rod)
            var crossings: [Double] = []
            var previous = scene.world.center(of: ball)!.x - anchor.x
            run(scene.world, steps: 120 * 12) { i in
                let x = scene.world.center(of: ball)!.x - anchor.x
                if previous > 0 && x <= 0 || previous < 0 && x >= 0 {
                    // Linear interpolation of the crossing time.
                    let t = (Double(i) + previous / (previous - x)) * scene.world.timeStep
                    crossings.append(t)
                }
                previous = x
            }
            #expect(crossings.count >= 6)
            let measured = (crossings.last! - crossings.first!) / Double(crossings.count - 1) * 2
            let expected = 2 * Double.pi * (length / 1000).squareRoot()
            #expect(abs(measured / expected - 1) < 0.01, "L \(length): \(measured) s vs \(expected) s")
            // The rod stays rigid.
            #expect(abs(scene.world.center(of: ball)!.distance(to: anchor) - length) < 0.5)
        }
    }

    /// Five balls on rods, 0.5 px apart as in a real cradle; `lifted` balls start raised.
    func cradle(lifted: Int) -> (Scene, [ItemID], [Vec2]) {
        let scene = Scene(bounds: Rect(x: 0, y: 0, width: 800, height: 800), boundary: false)
        scene.material.elasticity = 1
        scene.material.allowsRotation = false
        let r = 20.0, gap = 0.5, length = 250.0, lift = 0.6
        var balls: [ItemID] = [], anchors: [Vec2] = []
        for i in 0..<5 {
            let anchor = Vec2(300 + Double(i) * (2 * r + gap), 100)
            var p = anchor + Vec2(0, length)
            if i < lifted { p = anchor + Vec2(-length * _sin(lift), length * _cos(lift)) }
            let ball = scene.add(.circle(radius: r), at: p)
            scene.world.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: anchor))
            balls.append(ball); anchors.append(anchor)
        }
        return (scene, balls, anchors)
    }

    @Test(arguments: [1, 2]) func newtonsCradleTransfersMomentum(lifted: Int) {
        let (scene, balls, _) = cradle(lifted: lifted)
        let world = scene.world
        // Swing down until the first impact.
        var impactSpeed = 0.0
        var steps = 0
        while steps < 240 {
            world.step(); steps += 1
            let v = world.velocity(of: balls[lifted - 1])!.x
            if v < impactSpeed * 0.5 { break }   // the lifted ball stopped: impact happened
            impactSpeed = max(impactSpeed, v)
        }
        #expect(impactSpeed > 250)
        // Just after the impact: the far `lifted` balls leave, the rest stay nearly still.
        var leaving = [Double](repeating: 0, count: 5), still = [Double](repeating: 0, count: 5)
        for _ in 0..<6 {
            world.step()
            for i in 0..<5 {
                let v = world.velocity(of: balls[i])!.length
                leaving[i] = max(leaving[i], v); still[i] = max(still[i], v)
            }
        }
        for i in (5 - lifted)..<5 {
            #expect(leaving[i] >= 0.9 * impactSpeed, "ball \(i) leaves at \(leaving[i]) of \(impactSpeed)")
        }
        for i in 0..<(5 - lifted) {
            #expect(still[i] < 0.05 * impactSpeed, "ball \(i) moves at \(still[i]) of \(impactSpeed)")
        }
    }

    @Test func stackOfTenBoxesStandsThenSleeps() {
        let scene = Scene(bounds: Rect(x: 0, y: 0, width: 480, height: 800))
        scene.material.friction = 0.6
        scene.world.sleepingEnabled = false
        let side = 40.0
        let boxes = (0..<10).map { i in
            scene.add(.rectangle(width: side, height: side), at: Vec2(240, 800 - side / 2 - Double(i) * side))
        }
        let start = boxes.map { scene.world.center(of: $0)! }
        run(scene.world, steps: 120)
        let settled = boxes.map { scene.world.center(of: $0)! }
        for i in 0..<10 { #expect(settled[i].distance(to: start[i]) < 4, "box \(i) sank to \(settled[i])") }
        run(scene.world, steps: 120 * 10)
        for i in 0..<10 {
            let p = scene.world.center(of: boxes[i])!
            #expect(p.distance(to: settled[i]) < 1, "box \(i) drifted from \(settled[i]) to \(p)")
            #expect(abs(scene.world.rotation(of: boxes[i])!) < 0.01)
        }
        scene.world.sleepingEnabled = true
        var pausedAt: Int?
        scene.world.onPause = { pausedAt = scene.world.stepCount }
        run(scene.world, steps: 240)
        #expect(pausedAt != nil)
        #expect(scene.world.isPaused)
        #expect(boxes.allSatisfy { scene.world.isAsleep($0) })
    }

    @Test func fastSmallBallNeverLeavesTheBounds() {
        var rng = SeededGenerator(seed: 7)
        for trial in 0..<8 {
            let bounds = Rect(x: 0, y: 0, width: 480, height: 800)
            let scene = Scene(bounds: bounds)
            scene.material.elasticity = trial % 2 == 0 ? 1 : 0.5
            let ball = scene.add(.circle(radius: 2.5), at: Vec2(40 + 400 * rng.unit(), 40 + 720 * rng.unit()))
            let angle = 2 * Double.pi * rng.unit()
            scene.world.setVelocity(Vec2(_cos(angle), _sin(angle)) * 20_000, of: ball)
            var worst = 0.0
            run(scene.world, steps: 600) { _ in
                let p = scene.world.center(of: ball)!
                worst = max(worst, bounds.minX - (p.x - 2.5), (p.x + 2.5) - bounds.maxX, bounds.minY - (p.y - 2.5), (p.y + 2.5) - bounds.maxY)
            }
            #expect(worst <= 0.5, "trial \(trial): \(worst) px outside")
            // The solver did it (speculative contacts, impacts at their time), not the clamp.
            #expect(scene.world.boundsCorrections == 0)
        }
    }
}

extension QualityTests {
    /// The cradle keeps going as a cradle: after many impacts back and forth the middle balls
    /// still hang nearly still and the end balls keep their speed (elasticity 1, no resistance).
    @Test(arguments: [1.0, 10.0]) func newtonsCradleKeepsSwinging(gravity: Double) {
        let (scene, balls, _) = cradle(lifted: 1)
        scene.gravity.magnitude = gravity
        var first = 0.0, middle = 0.0, ends = 0.0
        run(scene.world, steps: 120 * 8) { i in
            let v = balls.map { scene.world.velocity(of: $0)!.length }
            if i < 120 { first = max(first, v[0]) }
            if i > 120 * 7 { middle = max(middle, v[1], v[2], v[3]); ends = max(ends, v[0], v[4]) }
        }
        #expect(ends >= 0.95 * first, "end balls at \(ends) of \(first)")
        #expect(middle < 0.02 * first, "middle balls at \(middle) of \(first)")
        #expect(!scene.world.isPaused)
    }
}

extension QualityTests {
    @Test func fastSmallBallDoesNotTunnelThroughANamedSegment() {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<8 {
            let scene = Scene()
            scene.gravity.magnitude = 0
            scene.material.elasticity = 0.8
            scene.collision.addBoundary(identifier: "divider", from: Vec2(0, 400), to: Vec2(480, 400))
            let ball = scene.add(.circle(radius: 2.5), at: Vec2(40 + 400 * rng.unit(), 100 + 250 * rng.unit()))
            let angle = .pi / 6 + 2 * .pi / 3 * rng.unit()    // downward, toward the divider
            scene.world.setVelocity(Vec2(_cos(angle), _sin(angle)) * 20_000, of: ball)
            var lowest = 0.0
            run(scene.world, steps: 240) { _ in lowest = max(lowest, scene.world.center(of: ball)!.y) }
            #expect(lowest < 400, "ball reached y \(lowest)")
        }
    }
}

extension QualityTests {
    /// 150 mixed circles and boxes dropped at random (overlapping) into the screen settle and
    /// sleep, also at the seed's gravity of 10, without the bounds clamp fighting the pile.
    @Test(arguments: [(1.0, 0.0, 0.5), (10.0, 0.2, 0.5), (3.0, 0.5, 0.3)])
    func randomPilesSettleAndSleep(gravity: Double, elasticity: Double, friction: Double) {
        let scene = Scene()
        scene.gravity.magnitude = gravity
        scene.material.elasticity = elasticity
        scene.material.friction = friction
        var rng = SeededGenerator(seed: 5)
        var items: [ItemID] = []
        for i in 0..<150 {
            let p = Vec2(30 + 420 * rng.unit(), 30 + 740 * rng.unit())
            let s = 20 + 40 * rng.unit()
            items.append(scene.add(i % 2 == 0 ? .circle(radius: s / 2) : .rectangle(width: s, height: s), at: p, rotation: rng.unit()))
        }
        var pausedAt: Double?
        scene.world.onPause = { pausedAt = scene.world.elapsedTime }
        for _ in 0..<(120 * 6) where pausedAt == nil { scene.world.step() }
        #expect(pausedAt != nil && pausedAt! < 6, "paused at \(String(describing: pausedAt))")
        #expect(scene.world.boundsCorrections < 100)
        for id in items {
            let c = scene.world.center(of: id)!
            #expect(c.x > 0 && c.x < 480 && c.y > 0 && c.y < 800)
        }
    }
}

extension QualityTests {
    /// UIKit complaints: bounces with elasticity 0, trembling when a push holds an item against
    /// a wall, drift at high gravity.
    @Test(arguments: [1.0, 10.0]) func noBounceWithoutElasticityAndNoTrembling(gravity: Double) {
        let scene = Scene()
        scene.gravity.magnitude = gravity
        let box = scene.add(.rectangle(width: 60, height: 60), at: Vec2(100, 100), rotation: 0.2)
        let ball = scene.add(.circle(radius: 20), at: Vec2(300, 100))
        var landed = [false, false], lowest = [0.0, 0.0], rise = [0.0, 0.0]
        run(scene.world, steps: 240) { _ in
            for (k, id) in [box, ball].enumerated() {
                let y = scene.world.center(of: id)!.y
                if y > lowest[k] { lowest[k] = y }
                if scene.world.velocity(of: id)!.y < 0 && lowest[k] > 700 { landed[k] = true }
                if landed[k] { rise[k] = max(rise[k], lowest[k] - y) }
            }
        }
        #expect(rise[0] < 2 && rise[1] < 1, "rebound \(rise)")
        // A push holding the ball against the right wall: it comes to rest and sleeps.
        let push = PushBehavior(items: [ball], mode: .continuous)
        push.setAngle(0, magnitude: 0.05)
        scene.world.addBehavior(push)
        run(scene.world, steps: 360)
        let p = scene.world.center(of: ball)!
        run(scene.world, steps: 120)
        #expect(scene.world.center(of: ball)!.distance(to: p) < 0.1)
        #expect(scene.world.isPaused, "\(scene.world.state(of: box)!) \(scene.world.state(of: ball)!)")
    }
}
