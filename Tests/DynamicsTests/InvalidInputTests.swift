import Testing
import Geometry
@testable import Dynamics

/// Every public constructor and setter of the engine fed NaN, ±infinity, negative and huge
/// values (Box2D's `test_invalid_input.c` is the model): each is either refused or leaves a
/// world whose items are finite and inside their bounds after 1,000 steps. An exhibit hands
/// the engine numbers that come from sensors, fingers and configuration files; none of them
/// may poison the world.
@Suite struct InvalidInputTests {
    static let badNumbers: [Double] = [.nan, .infinity, -.infinity, -1, -1e300, 1e300, 0, 1e-300]
    static let badPoints: [Vec2] = badNumbers.flatMap { [Vec2($0, 100), Vec2(100, $0)] }
    static let bounds = Rect(x: 0, y: 0, width: 480, height: 800)

    /// A small world with every kind of behavior an exhibit uses.
    final class Fixture {
        let scene = Scene(bounds: InvalidInputTests.bounds)
        let circle: ItemID, box: ItemID, polygon: ItemID, anchored: ItemID
        let rope: AttachmentBehavior, spring: AttachmentBehavior
        let snap: SnapBehavior
        let push: PushBehavior
        var world: DynamicsWorld { scene.world }

        init() {
            circle = scene.add(.circle(radius: 30), at: Vec2(120, 200))
            box = scene.add(.rectangle(width: 80, height: 60), at: Vec2(300, 300), rotation: 0.3)
            polygon = scene.add(.polygon([Vec2(-30, -20), Vec2(30, -25), Vec2(0, 35)]), at: Vec2(240, 600))
            anchored = scene.add(.rectangle(width: 100, height: 20), at: Vec2(240, 700), gravity: false)
            let fixed = ItemBehavior(items: [anchored])
            fixed.isAnchored = true
            scene.world.addBehavior(fixed)
            rope = AttachmentBehavior(item: circle, attachedToAnchor: Vec2(120, 50))
            spring = AttachmentBehavior(item: box, attachedTo: polygon)
            spring.frequency = 2; spring.damping = 0.5
            snap = SnapBehavior(item: polygon, snapTo: Vec2(240, 500))
            push = PushBehavior(items: [box], mode: .continuous)
            push.setAngle(0.5, magnitude: 0.2)
            for b in [rope, spring, snap, push] as [DynamicBehavior] { scene.world.addBehavior(b) }
            // Damped, so that a world no input upsets comes to rest and its remaining steps
            // are cheap: the table runs a thousand steps for each of its ~700 inputs.
            scene.material.resistance = 3
            scene.material.angularResistance = 3
        }

        /// What is wrong with the world after `steps` more steps; empty when nothing.
        func problemsAfter(steps: Int = 1000) -> [String] {
            for _ in 0..<steps { world.step() }
            var out: [String] = []
            let tolerance = world.tuning.boundsTolerance + 1
            for id in world.itemIDs {
                guard let s = world.state(of: id) else { out.append("\(id) has no state"); continue }
                let anchored = s.isAnchored
                guard s.center.isFinite, s.rotation.isFinite, s.velocity.isFinite, s.angularVelocity.isFinite,
                      s.size.isFinite, s.size.x > 0, s.size.y > 0 else {
                    out.append("\(id) not finite or empty: \(s)"); continue
                }
                let half = max(s.size.x, s.size.y) * 0.75
                let b = world.referenceBounds
                if !anchored, s.center.x < b.minX - tolerance - half || s.center.x > b.maxX + tolerance + half
                    || s.center.y < b.minY - tolerance - half || s.center.y > b.maxY + tolerance + half {
                    out.append("\(id) left the bounds: \(s.center)")
                }
            }
            if world.stepCount <= 0 { out.append("the world stopped stepping") }
            return out
        }
    }

    struct Input: CustomStringConvertible, Sendable {
        let name: String
        let apply: @Sendable (Fixture) -> Void
        var description: String { name }
    }

    static func numbers(_ name: String, _ set: @escaping @Sendable (Fixture, Double) -> Void) -> [Input] {
        badNumbers.map { v in Input(name: "\(name)(\(v))") { set($0, v) } }
    }

    static func points(_ name: String, _ set: @escaping @Sendable (Fixture, Vec2) -> Void) -> [Input] {
        badPoints.map { p in Input(name: "\(name)(\(p.x), \(p.y))") { set($0, p) } }
    }

    static func tuning(_ name: String, _ set: @escaping @Sendable (inout Tuning, Double) -> Void) -> [Input] {
        numbers("tuning.\(name)") { f, v in var t = f.world.tuning; set(&t, v); f.world.tuning = t }
    }

    static let inputs: [Input] = {
        var all: [Input] = []
        // The world.
        all += points("addItem(center:)") { f, p in f.scene.add(.circle(radius: 10), at: p) }
        all += numbers("addItem(rotation:)") { f, v in f.scene.add(.rectangle(width: 20, height: 10), at: Vec2(200, 100), rotation: v) }
        all += numbers("addItem(.circle(radius:))") { f, v in f.scene.add(.circle(radius: v), at: Vec2(200, 100)) }
        all += numbers("addItem(.rectangle(width:))") { f, v in f.scene.add(.rectangle(width: v, height: 10), at: Vec2(200, 100)) }
        all += numbers("addItem(.rectangle(height:))") { f, v in f.scene.add(.rectangle(width: 10, height: v), at: Vec2(200, 100)) }
        all += points("addItem(.polygon)") { f, p in f.scene.add(.polygon([Vec2(-10, -10), Vec2(10, -10), p]), at: Vec2(200, 100)) }
        all.append(Input(name: "addItem(.polygon([]))") { f in f.scene.add(.polygon([]), at: Vec2(200, 100)) })
        all.append(Input(name: "addItem(.polygon(collinear))") { f in
            f.scene.add(.polygon([Vec2(0, 0), Vec2(10, 0), Vec2(20, 0)]), at: Vec2(200, 100))
        })
        all += points("setCenter") { f, p in f.world.setCenter(p, of: f.circle) }
        all += points("setCenter(anchored)") { f, p in f.world.setCenter(p, of: f.anchored) }
        all += numbers("setRotation") { f, v in f.world.setRotation(v, of: f.polygon) }
        all += points("setVelocity") { f, p in f.world.setVelocity(p, of: f.circle) }
        all += numbers("setAngularVelocity") { f, v in f.world.setAngularVelocity(v, of: f.polygon) }
        all += numbers("setShape(.circle)") { f, v in f.world.setShape(.circle(radius: v), of: f.circle) }
        all += numbers("setShape(.rectangle)") { f, v in f.world.setShape(.rectangle(width: v, height: v), of: f.polygon) }
        all += points("setSize") { f, p in f.world.setSize(p, of: f.polygon) }
        all += numbers("referenceBounds.width") { f, v in f.world.referenceBounds = Rect(x: 0, y: 0, width: v, height: 800) }
        all += [0.5, 10, 50].map { side in Input(name: "referenceBounds smaller than the items (\(side))") { f in
            f.world.referenceBounds = Rect(x: 200, y: 200, width: side, height: side)
        } }
        all += points("DynamicsWorld(bounds:)") { _, p in
            let world = DynamicsWorld(bounds: Rect(x: 0, y: 0, width: p.x, height: p.y))
            let id = world.addItem(.circle(radius: 5), center: Vec2(2, 2))
            let gravity = GravityBehavior(items: [id]), collision = CollisionBehavior(items: [id])
            collision.translatesReferenceBoundsIntoBoundary = true
            world.addBehavior(gravity); world.addBehavior(collision)
            for _ in 0..<100 { world.step() }
            if let c = world.center(of: id), c.isFinite { return }
            Issue.record("DynamicsWorld(bounds: \(p)) left its item at \(String(describing: world.center(of: id)))")
        }
        all += numbers("DynamicsWorld(timeStep:)") { _, v in
            let world = DynamicsWorld(bounds: InvalidInputTests.bounds, timeStep: v)
            #expect(world.timeStep.isFinite && world.timeStep > 0)
        }
        all += numbers("referenceBounds.x") { f, v in f.world.referenceBounds = Rect(x: v, y: 0, width: 480, height: 800) }
        all += numbers("timeStep") { f, v in f.world.timeStep = v }
        all += [Int.min, -1, 0, 1 << 20, Int.max].map { n in Input(name: "substeps(\(n))") { $0.world.substeps = n } }
        all += [Int.min, -1, 0, Int.max].map { n in Input(name: "maxStepsPerAdvance(\(n))") { f in
            f.world.maxStepsPerAdvance = n; f.world.advance(by: 0.1)
        } }
        all += numbers("advance(by:)") { f, v in f.world.advance(by: v) }
        all += numbers("items(in:)") { f, v in _ = f.world.items(in: Rect(x: v, y: v, width: v, height: v)) }
        all += tuning("lengthUnit") { $0.lengthUnit = $1 }
        all += tuning("boundsTolerance") { $0.boundsTolerance = $1 }
        all += tuning("contactHertz") { $0.contactHertz = $1 }
        all += tuning("contactDampingRatio") { $0.contactDampingRatio = $1 }
        all += tuning("jointHertz") { $0.jointHertz = $1 }
        all += tuning("jointDampingRatio") { $0.jointDampingRatio = $1 }
        all += tuning("rollingResistance") { $0.rollingResistance = $1 }
        all += tuning("timeToSleep") { $0.timeToSleep = $1 }
        all += tuning("maxLinearSpeed") { $0.maxLinearSpeed = $1 }
        all += tuning("maxRotationPerSubstep") { $0.maxRotationPerSubstep = $1 }
        all += tuning("maxHeldSpeed") { $0.maxHeldSpeed = $1 }
        all += tuning("maxHeldAngularSpeed") { $0.maxHeldAngularSpeed = $1 }
        all += tuning("maxHeldAcceleration") { $0.maxHeldAcceleration = $1 }
        all += tuning("maxHeldAngularAcceleration") { $0.maxHeldAngularAcceleration = $1 }
        // Holding.
        all += points("moveHeld(to:)") { f, p in f.world.hold(f.box); f.world.moveHeld(f.box, to: p) }
        all += numbers("moveHeld(rotation:)") { f, v in f.world.hold(f.box); f.world.moveHeld(f.box, to: Vec2(300, 300), rotation: v) }
        all += points("moveHeld(size:)") { f, p in f.world.hold(f.box); f.world.moveHeld(f.box, to: Vec2(300, 300), size: p) }
        all += points("release(velocity:)") { f, p in f.world.hold(f.box); f.world.release(f.box, velocity: p) }
        all += numbers("release(angularVelocity:)") { f, v in f.world.hold(f.box); f.world.release(f.box, angularVelocity: v) }
        // Behaviors.
        all += points("gravityDirection") { f, p in f.scene.gravity.gravityDirection = p }
        all += numbers("gravity.angle") { f, v in f.scene.gravity.angle = v }
        all += numbers("gravity.magnitude") { f, v in f.scene.gravity.magnitude = v }
        all += numbers("gravity.setAngle(magnitude:)") { f, v in f.scene.gravity.setAngle(v, magnitude: v) }
        all += points("pushDirection") { f, p in f.push.pushDirection = p }
        all += numbers("push.magnitude") { f, v in f.push.magnitude = v }
        all += numbers("push.angle") { f, v in f.push.angle = v }
        all += points("push.setTargetOffsetFromCenter") { f, p in f.push.setTargetOffsetFromCenter(p, for: f.box) }
        all += numbers("instantaneous push") { f, v in
            let push = PushBehavior(items: [f.circle], mode: .instantaneous)
            push.setAngle(v, magnitude: v)
            f.world.addBehavior(push)
        }
        all += numbers("material.elasticity") { f, v in f.scene.material.elasticity = v }
        all += numbers("material.friction") { f, v in f.scene.material.friction = v }
        all += numbers("material.density") { f, v in f.scene.material.density = v }
        all += numbers("material.resistance") { f, v in f.scene.material.resistance = v }
        all += numbers("material.angularResistance") { f, v in f.scene.material.angularResistance = v }
        all += points("addLinearVelocity") { f, p in f.scene.material.addLinearVelocity(p, for: f.circle) }
        all += numbers("addAngularVelocity") { f, v in f.scene.material.addAngularVelocity(v, for: f.polygon) }
        all += points("attachment.anchorPoint") { f, p in f.rope.anchorPoint = p }
        all += numbers("attachment.length") { f, v in f.rope.length = v }
        all += numbers("attachment.frequency") { f, v in f.spring.frequency = v }
        all += numbers("attachment.damping") { f, v in f.spring.damping = v }
        all += points("AttachmentBehavior(anchor:)") { f, p in f.world.addBehavior(AttachmentBehavior(item: f.polygon, attachedToAnchor: p)) }
        all += points("AttachmentBehavior(offset:)") { f, p in
            f.world.addBehavior(AttachmentBehavior(item: f.polygon, offsetFromCenter: p, attachedToAnchor: Vec2(240, 400)))
        }
        all += numbers("AttachmentBehavior(length:)") { f, v in
            f.world.addBehavior(AttachmentBehavior(item: f.circle, attachedTo: f.polygon, length: v))
        }
        all += points("snap.snapPoint") { f, p in f.snap.snapPoint = p }
        all += numbers("snap.damping") { f, v in f.snap.damping = v }
        all += numbers("snap.targetRotation") { f, v in f.snap.targetRotation = v }
        all += points("SnapBehavior(snapTo:)") { f, p in f.world.addBehavior(SnapBehavior(item: f.circle, snapTo: p)) }
        all += numbers("boundary insets") { f, v in
            f.scene.collision.setTranslatesReferenceBoundsIntoBoundary(insets: EdgeInsets(top: v, left: v, bottom: v, right: v))
        }
        all += points("addBoundary(from:)") { f, p in f.scene.collision.addBoundary(identifier: "s", from: p, to: Vec2(400, 400)) }
        all += numbers("addBoundary(rect:)") { f, v in f.scene.collision.addBoundary(identifier: "r", rect: Rect(x: v, y: 100, width: v, height: 50)) }
        return all
    }()

    @Test(arguments: inputs)
    func leavesTheWorldFinite(_ input: Input) {
        let fixture = Fixture()
        for _ in 0..<10 { fixture.world.step() }
        input.apply(fixture)
        let problems = fixture.problemsAfter()
        #expect(problems.isEmpty, "\(input): \(problems.prefix(3))")
    }

    /// Values that must be refused outright: the setting keeps its old value.
    @Test func refusedValuesKeepTheOldOnes() {
        let f = Fixture()
        for v in [Double.nan, .infinity, -.infinity] {
            f.scene.gravity.gravityDirection = Vec2(v, 1)
            #expect(f.scene.gravity.gravityDirection == Vec2(0, 1))
            f.push.pushDirection = Vec2(1, v)
            #expect(f.push.pushDirection.isFinite)
            f.rope.length = v
            #expect(f.rope.length.isFinite)
            f.world.timeStep = v
            #expect(f.world.timeStep.isFinite && f.world.timeStep > 0)
            f.world.setVelocity(Vec2(v, v), of: f.circle)
            #expect(f.world.velocity(of: f.circle)!.isFinite)
            f.world.setCenter(Vec2(v, 0), of: f.circle)
            #expect(f.world.center(of: f.circle)!.isFinite)
            f.snap.damping = v
            #expect(f.snap.damping >= 0 && f.snap.damping <= 1)
        }
    }

    /// The disc world of circle-draw: its own constructor, appends, launches and gravity.
    @Test func discWorldStaysFinite() {
        let area = Rect(x: 0, y: 0, width: 480, height: 800)
        for v in InvalidInputTests.badNumbers {
            var world = DiscWorld(area: area, scale: 1)
            world.append(id: 1, center: Vec2(100, 100), radius: 20)
            world.append(id: 2, center: Vec2(v, v), radius: 20)
            world.append(id: 3, center: Vec2(200, 200), radius: v)
            world.launch(0, velocity: Vec2(v, -v))
            for _ in 0..<1000 { world.step(gravity: Vec2(v, v)) }
            for i in 0..<world.count {
                let p = Vec2(world.px[i], world.py[i]), r = world.radius[i]
                #expect(p.isFinite && world.vx[i].isFinite && world.vy[i].isFinite && r.isFinite && r > 0,
                        "value \(v): disc \(i) at \(p) r \(r)")
                #expect(p.x >= area.minX - 1 && p.x <= area.maxX + 1 && p.y >= area.minY - 1 && p.y <= area.maxY + 1,
                        "value \(v): disc \(i) left the area at \(p)")
            }
        }
        let tunings: [(String, @Sendable (inout DiscTuning, Double) -> Void)] = [
            ("wallRestitution", { $0.wallRestitution = $1 }), ("discRestitution", { $0.discRestitution = $1 }),
            ("gravityPixels", { $0.gravityPixels = $1 }), ("restSpeed", { $0.restSpeed = $1 }),
            ("contactSpeed", { $0.contactSpeed = $1 }), ("maximumSpeed", { $0.maximumSpeed = $1 }),
            ("contactSlop", { $0.contactSlop = $1 }), ("edgeFriction", { $0.edgeFriction = $1 }),
            ("cellSize", { $0.cellSize = $1 }),
            ("stepInterval", { $0.stepInterval = $1.isFinite ? Microseconds(max(min($1, 1e18), -1e18)) : 0 }),
            ("restTime", { $0.restTime = $1.isFinite ? Microseconds(max(min($1, 1e18), -1e18)) : -1 }),
        ]
        for (name, set) in tunings {
            for v in InvalidInputTests.badNumbers {
                var tuning = DiscTuning()
                set(&tuning, v)
                var world = DiscWorld(area: area, scale: 1, tuning: tuning)
                for i in 0..<20 { world.append(id: i, center: Vec2(Double(20 + i * 20), 300), radius: 15) }
                for i in 0..<20 { world.launch(i, velocity: Vec2(Double(i * 300 - 3000), -2000)) }
                for _ in 0..<1000 { world.step(gravity: Vec2(0.3, 1)) }
                for i in 0..<world.count {
                    #expect(world.px[i].isFinite && world.py[i].isFinite && world.vx[i].isFinite && world.vy[i].isFinite,
                            "tuning.\(name) = \(v): disc \(i) not finite")
                }
            }
        }
        for area in [Rect(x: .nan, y: 0, width: 100, height: 100), Rect(x: 0, y: 0, width: -5, height: 100),
                     Rect(x: 0, y: 0, width: 1e300, height: 1e300), Rect(x: -.infinity, y: 0, width: .infinity, height: 10)] {
            var world = DiscWorld(area: area, scale: 1)
            world.append(id: 1, center: Vec2(10, 10), radius: 5)
            world.launch(0, velocity: Vec2(100, 100))
            for _ in 0..<100 { world.step(gravity: Vec2(0, 1)) }
            #expect(world.px[0].isFinite && world.py[0].isFinite, "area \(area)")
        }
        for scale in InvalidInputTests.badNumbers {
            var world = DiscWorld(area: area, scale: scale)
            world.append(id: 1, center: Vec2(100, 100), radius: 20)
            for _ in 0..<1000 { world.step(gravity: Vec2(0, 1)) }
            #expect(world.count == 0 || (world.px[0].isFinite && world.py[0].isFinite), "scale \(scale)")
        }
    }
}
