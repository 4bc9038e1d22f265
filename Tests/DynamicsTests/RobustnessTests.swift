import Testing
import Geometry
@testable import Dynamics

/// Random visitors: drags (with wild finger jumps), pinches, rotations, flings, gravity tilts,
/// spawns, removals, attachments, boundary edits, material changes.
final class Visitor {
    let scene: Scene
    var rng: SeededGenerator
    var items: [ItemID] = []
    var held: ItemID?
    var heldBase = Vec2(40, 40)
    var target = Vec2.zero
    var attachments: [AttachmentBehavior] = []
    var segmentNames: [String] = []
    var maxItems: Int
    let bounds = Rect(x: 0, y: 0, width: 480, height: 800)

    init(seed: UInt64, maxItems: Int) {
        rng = SeededGenerator(seed: seed)
        scene = Scene(bounds: bounds)
        self.maxItems = maxItems
    }

    func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * rng.unit() }
    func chance(_ p: Double) -> Bool { rng.unit() < p }
    func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
    func point() -> Vec2 { Vec2(uniform(bounds.minX, bounds.maxX), uniform(bounds.minY, bounds.maxY)) }

    func spawn() {
        let shape: ItemShape
        switch rng.next() % 3 {
        case 0: shape = .circle(radius: uniform(2.5, 60))
        case 1: shape = .rectangle(width: uniform(5, 120), height: uniform(5, 120))
        default:
            let n = 3 + Int(rng.next() % 6), r = uniform(8, 60)
            shape = .polygon((0..<n).map { i in
                let a = Double(i) * 2 * .pi / Double(n) + uniform(-0.3, 0.3)
                return Vec2(_cos(a), _sin(a)) * (r * uniform(0.6, 1))
            })
        }
        let id = scene.add(shape, at: point(), rotation: uniform(-3, 3))
        scene.world.setVelocity(Vec2(uniform(-3000, 3000), uniform(-3000, 3000)), of: id)
        scene.world.setAngularVelocity(uniform(-20, 20), of: id)
        items.append(id)
    }

    func remove() {
        let id = pick(items)
        if id == held { held = nil }
        scene.world.removeItem(id)
        items.removeAll { $0 == id }
        for a in attachments where a.item == id || a.attachedItem == id { scene.world.removeBehavior(a) }
        attachments.removeAll { $0.item == id || $0.attachedItem == id }
    }

    /// One frame of a visitor's doing, then one step.
    func act() {
        let world = scene.world
        if items.count < maxItems && chance(0.02) { spawn() }
        if items.count > 2 && chance(0.01) { remove() }
        if chance(0.01) { scene.gravity.setAngle(uniform(-.pi, .pi), magnitude: uniform(0, 3)) }
        if chance(0.005) { scene.material.elasticity = uniform(0, 1); scene.material.friction = uniform(0, 1) }
        if chance(0.003) {
            if segmentNames.count < 3 {
                let name = "s\(rng.next() % 1000)"
                scene.collision.addBoundary(identifier: name, from: point(), to: point())
                segmentNames.append(name)
            } else {
                scene.collision.removeBoundary(identifier: segmentNames.removeFirst())
            }
        }
        if items.count >= 2 && chance(0.003) {
            if attachments.count < 3 {
                let a = pick(items), b = pick(items)
                let att = a == b || chance(0.3)
                    ? AttachmentBehavior(item: a, offsetFromCenter: Vec2(uniform(-5, 5), 0), attachedToAnchor: point())
                    : AttachmentBehavior(item: a, attachedTo: b)
                if chance(0.5) { att.frequency = uniform(0.5, 5); att.damping = uniform(0, 1) }
                world.addBehavior(att)
                attachments.append(att)
            } else {
                world.removeBehavior(attachments.removeFirst())
            }
        }
        if !items.isEmpty && chance(0.002) {
            let push = PushBehavior(items: [pick(items)], mode: .instantaneous)
            push.setAngle(uniform(-.pi, .pi), magnitude: uniform(0, 50))
            world.addBehavior(push)
        }
        if let id = held {
            if chance(0.1) {
                // The finger jumps anywhere, even far off the screen.
                target = Vec2(uniform(-2000, 2500), uniform(-2000, 3000))
            } else {
                target += Vec2(uniform(-40, 40), uniform(-40, 40))
            }
            let scale = uniform(0.5, 2)
            world.moveHeld(id, to: target, rotation: uniform(-6, 6), size: Vec2(min(heldBase.x * scale, 200), min(heldBase.y * scale, 200)))
            if chance(0.01) {
                world.release(id, velocity: Vec2(uniform(-10_000, 10_000), uniform(-10_000, 10_000)), angularVelocity: uniform(-50, 50))
                scene.gravity.addItem(id)
                held = nil
            }
        } else if !items.isEmpty && chance(0.02) {
            let id = pick(items)
            scene.gravity.removeItem(id)
            world.hold(id)
            held = id
            heldBase = world.size(of: id)!
            target = world.center(of: id)!
        }
        world.step()
    }

    /// Items outside the bounds by more than the tolerance, or not finite. Reads the body
    /// table directly: this runs every step of a long debug-build test.
    func violations() -> [String] {
        var out: [String] = []
        let world = scene.world, t = world.bodies
        let tolerance = world.tuning.boundsTolerance + 1e-6
        for id in items {
            guard let b = world.body(id) else { out.append("\(id) lost"); continue }
            let pose = t.pose[b], motion = t.motion[b]
            let x = pose.x, y = pose.y
            if !(x.isFinite && y.isFinite && motion.vx.isFinite && motion.vy.isFinite && pose.angle.isFinite && motion.w.isFinite) {
                out.append("\(id) not finite: \(world.state(of: id)!)")
                continue
            }
            let e = world.extents(b)
            if x + e.minX < bounds.minX - tolerance || x + e.maxX > bounds.maxX + tolerance
                || y + e.minY < bounds.minY - tolerance || y + e.maxY > bounds.maxY + tolerance {
                out.append("\(id) outside at \(Vec2(x, y)) size \(world.size(of: id)!)")
            }
        }
        return out
    }

    /// Positions, rotations and velocities, bit for bit.
    func fingerprint() -> [UInt64] {
        items.flatMap { id -> [UInt64] in
            let s = scene.world.state(of: id)!
            return [s.center.x, s.center.y, s.rotation, s.velocity.x, s.velocity.y, s.angularVelocity].map(\.bitPattern)
        }
    }
}

@Suite struct RobustnessTests {
    @Test func fuzzHundredThousandStepsOfVisitors() {
        let visitor = Visitor(seed: 2024, maxItems: 8)
        var failures: [String] = []
        var failedSteps = 0
        for step in 0..<100_000 {
            visitor.act()
            let v = visitor.violations()
            if !v.isEmpty {
                failedSteps += 1
                if failures.count < 5 { failures.append("step \(step): \(v.joined(separator: "; "))") }
            }
        }
        #expect(failedSteps == 0, "\(failedSteps) bad steps, first: \(failures)")
        #expect(visitor.scene.world.stepCount == 100_000)
        print("fuzz: \(visitor.items.count) items at the end, bounds corrections \(visitor.scene.world.boundsCorrections)")
    }

    @Test func sameInputsGiveBitIdenticalResults() {
        func simulate() -> [UInt64] {
            let visitor = Visitor(seed: 99, maxItems: 20)
            for _ in 0..<4000 { visitor.act() }
            return visitor.fingerprint()
        }
        let first = simulate(), second = simulate()
        #expect(!first.isEmpty)
        #expect(first == second)
        // Pinned: a change of the engine's results shows here (and must be meant). The same
        // bits on arm64 and armhf are checked by board/cross/compare-cpus.sh.
        // Re-pinned for the contact rows of four and the solver body state in Float (was
        // 0x6e8f_be8f_c9c1_57bf): other, equally valid results.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for v in first { hash = (hash ^ v) &* 0x0000_0100_0000_01b3 }
        #expect(hash == 0x57df_5622_7fb4_1ba2, "hash \(String(hash, radix: 16))")
    }
}
