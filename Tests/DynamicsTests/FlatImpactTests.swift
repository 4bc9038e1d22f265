import Testing
import Geometry
@testable import Dynamics

/// A face landing flat on the floor bounces as one: both of its contact points get their
/// elastic impulses together, so the body neither starts spinning nor rebounds low.
@Suite struct FlatImpactTests {
    /// Drops `shape` from (240, 200) in a 480×800 world and returns the first rebound's height
    /// above the resting centre, the largest spin, the rebound speed and where it finally rests.
    func drop(_ shape: ItemShape, rotation: Double = 0, friction: Double = 0, steps: Int = 240)
        -> (rebound: Double, spin: Double, reboundSpeed: Double, rest: Vec2, rotation: Double) {
        let scene = Scene(bounds: Rect(x: 0, y: 0, width: 480, height: 800))
        scene.material.elasticity = 0.5
        scene.material.friction = friction
        let item = scene.add(shape, at: Vec2(240, 200), rotation: rotation)
        let world = scene.world
        var bounced = false, peak = Double.infinity, spin = 0.0, reboundSpeed = 0.0
        run(world, steps: steps) { _ in
            let v = world.velocity(of: item)!.y
            if !bounced && v < 0 { bounced = true; reboundSpeed = -v }
            if bounced { peak = min(peak, world.center(of: item)!.y) }
            spin = max(spin, abs(world.angularVelocity(of: item)!))
        }
        return (750 - peak, spin, reboundSpeed, world.center(of: item)!, world.rotation(of: item)!)
    }

    @Test func aSquareLandingFlatBouncesLikeABallWithoutSpinning() {
        let circle = drop(.circle(radius: 50))
        let square = drop(.rectangle(width: 100, height: 100))
        // Dropped 550 px, elasticity 0.5: a quarter of the drop height.
        #expect(abs(circle.rebound / (0.25 * 550) - 1) < 0.02, "circle rebound \(circle.rebound)")
        #expect(square.spin < 0.05, "square spins at \(square.spin) rad/s")
        #expect(abs(square.rebound / (0.25 * 550) - 1) < 0.02, "square rebound \(square.rebound)")
        #expect(abs(square.reboundSpeed / circle.reboundSpeed - 1) < 0.02,
                "rebound speed \(square.reboundSpeed) vs the circle's \(circle.reboundSpeed)")
    }

    @Test func aSquareDroppedFlatWithFrictionDoesNotWalk() {
        let square = drop(.rectangle(width: 100, height: 100), friction: 0.5, steps: 600)
        #expect(abs(square.rest.x - 240) < 1, "rests at x = \(square.rest.x)")
        #expect(abs(square.rest.y - 750) < 1, "rests at y = \(square.rest.y)")
        #expect(abs(square.rotation) < 0.01, "turned \(square.rotation) rad")
    }

    /// Landing on a corner is a one-point impact off the centre line: it must spin.
    @Test func aSquareLandingOnACornerSpins() {
        let tilted = drop(.rectangle(width: 100, height: 100), rotation: 0.3)
        #expect(tilted.spin > 1, "spin \(tilted.spin) rad/s")
        let diamond = drop(.rectangle(width: 100, height: 100), rotation: .pi / 4 + 0.05)
        #expect(diamond.spin > 0.5, "spin \(diamond.spin) rad/s")
    }
}
