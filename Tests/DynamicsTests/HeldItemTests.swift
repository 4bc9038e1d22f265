import Testing
import Geometry
@testable import Dynamics

@Suite struct HeldItemTests {
    @Test func aHeldItemFollowsTheFingerAndIsFlung() {
        let scene = Scene()
        let box = scene.add(.rectangle(width: 60, height: 60), at: Vec2(100, 400))
        scene.gravity.removeItem(box)        // as the exhibit does while holding
        scene.world.hold(box)
        var finger = Vec2(100, 400)
        for _ in 0..<30 {
            finger += Vec2(5, -2)               // 600, -240 px/s at 120 Hz
            scene.world.moveHeld(box, to: finger, rotation: 0.3)
            scene.world.step()
        }
        #expect(scene.world.center(of: box)!.distance(to: finger) < 6)
        #expect(abs(scene.world.rotation(of: box)! - 0.3) < 0.01)
        scene.world.release(box)
        scene.gravity.addItem(box)
        let v = scene.world.velocity(of: box)!
        #expect(abs(v.x - 600) < 30 && abs(v.y + 240) < 30, "fling \(v)")
        scene.world.step()
        #expect(scene.world.center(of: box)!.x > finger.x)
    }

    @Test func aHeldItemCannotBeDraggedThroughAWall() {
        let scene = Scene()
        let ball = scene.add(.circle(radius: 15), at: Vec2(240, 400), gravity: false)
        scene.world.hold(ball)
        for frame in 0..<60 {
            // The finger teleports far beyond the left and right edges.
            let target = frame % 2 == 0 ? Vec2(-5000, 400) : Vec2(9000, 410)
            scene.world.moveHeld(ball, to: target)
            for _ in 0..<2 {
                scene.world.step()
                let p = scene.world.center(of: ball)!
                #expect(p.x >= 15 - 0.6 && p.x <= 465 + 0.6, "ball at \(p)")
            }
        }
        #expect(scene.world.boundsCorrections == 0)
    }

    @Test func aHeldItemCannotBeDraggedThroughAnAnchoredBar() {
        let scene = Scene()
        let bar = scene.add(.rectangle(width: 6, height: 600), at: Vec2(240, 400), gravity: false)
        let anchor = ItemBehavior(items: [bar])
        anchor.isAnchored = true
        scene.world.addBehavior(anchor)
        let box = scene.add(.rectangle(width: 20, height: 20), at: Vec2(150, 400), gravity: false)
        scene.world.hold(box)
        for step in 0..<240 {
            scene.world.moveHeld(box, to: Vec2(400, 400), rotation: Double(step) * 0.2, size: Vec2(20 + Double(step % 7), 20))
            scene.world.step()
            #expect(scene.world.center(of: box)!.x < 240, "through the bar at step \(step)")
        }
    }

    @Test func aHeldItemPushesOtherItemsInsteadOfPassingThrough() {
        let scene = Scene()
        let small = scene.add(.circle(radius: 8), at: Vec2(240, 780))
        let big = scene.add(.rectangle(width: 80, height: 80), at: Vec2(80, 760))
        run(scene.world, steps: 60)
        scene.world.hold(big)
        var worst = 0.0
        for frame in 0..<40 {
            scene.world.moveHeld(big, to: Vec2(80 + Double(frame) * 200, 760))
            scene.world.step()
            scene.world.step()
            let s = scene.world.center(of: small)!, b = scene.world.center(of: big)!
            // Distance from the small ball's centre to the (unrotated enough) box.
            let r = scene.world.rotation(of: big)!
            let local = (s - b).rotated(by: -r)
            let dx = max(abs(local.x) - 40, 0), dy = max(abs(local.y) - 40, 0)
            let inside = abs(local.x) < 40 && abs(local.y) < 40
            let depth = inside ? 8 + min(40 - abs(local.x), 40 - abs(local.y)) : 8 - (dx * dx + dy * dy).squareRoot()
            worst = max(worst, depth)
        }
        #expect(worst < 2, "the ball overlapped the held box by \(worst) px")
        #expect(scene.world.center(of: small)!.x <= 472.6)
    }

    @Test func pinchChangesSizeAndMass() {
        let scene = Scene()
        let box = scene.add(.rectangle(width: 50, height: 50), at: Vec2(240, 400))
        scene.world.hold(box)
        scene.world.moveHeld(box, to: Vec2(240, 400), size: Vec2(100, 100))
        #expect(scene.world.size(of: box) == Vec2(100, 100))
        scene.world.step()
        scene.world.release(box)
        let b = scene.world.body(box)!
        #expect(abs(scene.world.bodies.material[b].mass - 0.01) < 1e-12)
    }
}

extension HeldItemTests {
    /// Dragging a cradle ball: the rod still holds, the ball moves on its circle toward the finger.
    @Test func aHeldPendulumBallStaysOnItsRod() {
        let scene = Scene(boundary: false)
        let anchor = Vec2(240, 100)
        let ball = scene.add(.circle(radius: 20), at: Vec2(240, 350))
        scene.world.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: anchor))
        scene.gravity.removeItem(ball)
        scene.world.hold(ball)
        var worst = 0.0
        for frame in 0..<60 {
            scene.world.moveHeld(ball, to: Vec2(240 - Double(frame) * 20, 350))   // far off the circle
            scene.world.step()
            worst = max(worst, abs(scene.world.center(of: ball)!.distance(to: anchor) - 250))
        }
        #expect(worst < 3, "rod stretched by \(worst)")
        #expect(scene.world.center(of: ball)!.x < 60)    // swung far to the left
        scene.world.release(ball)
        scene.gravity.addItem(ball)
        run(scene.world, steps: 120)
        #expect(abs(scene.world.center(of: ball)!.distance(to: anchor) - 250) < 1)
    }
}
