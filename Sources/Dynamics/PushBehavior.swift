import Geometry

public enum PushMode: Sendable { case continuous, instantaneous }

/// A force (continuous) or an impulse (instantaneous) on its items, in UIKit's units: magnitude
/// 1 accelerates a 100×100 item of density 1 at 100 px/s² (or changes its speed by 100 px/s).
/// A target offset from the centre (in the item's frame) adds torque.
public final class PushBehavior: ItemsBehavior {
    public let mode: PushMode
    /// Direction scaled by magnitude (UIKit's `pushDirection`).
    public var pushDirection = Vec2.zero {
        didSet {
            if !pushDirection.isFinite { pushDirection = oldValue }
            if pushDirection != oldValue { changed() }
        }
    }
    public var angle: Double {
        get { pushDirection.angle }
        set { setAngle(newValue, magnitude: magnitude) }
    }
    public var magnitude: Double {
        get { pushDirection.length }
        set { setAngle(angle, magnitude: newValue) }
    }
    public func setAngle(_ angle: Double, magnitude: Double) {
        pushDirection = Vec2(angle: angle, length: magnitude)
    }
    /// Continuous pushes act while active; an instantaneous push fires once on the next step
    /// after becoming active, then turns itself off.
    public var active = true { didSet { if active != oldValue { changed() } } }
    private var offsets: [(ItemID, Vec2)] = []

    public init(items: [ItemID] = [], mode: PushMode) {
        self.mode = mode
        super.init(items: items)
    }

    public func setTargetOffsetFromCenter(_ offset: Vec2, for id: ItemID) {
        offsets.removeAll { $0.0 == id }
        if offset != .zero && offset.isFinite { offsets.append((id, offset)) }
        changed()
    }

    public func targetOffsetFromCenter(for id: ItemID) -> Vec2 { offsets.first { $0.0 == id }?.1 ?? .zero }

    /// Used by the world at the start of a step.
    func consume() { if mode == .instantaneous { active = false } }
}

extension DynamicsWorld {
    func applyPush(_ push: PushBehavior) {
        guard push.active, push.pushDirection != .zero else { return }
        let f = push.pushDirection
        for id in push.items {
            guard let b = body(id), !bodies.slot[b].isStatic else { continue }
            let o = push.targetOffsetFromCenter(for: id)
            let c = bodies.pose[b].cosA, s = bodies.pose[b].sinA
            let r = Vec2(c * o.x - s * o.y, s * o.x + c * o.y)
            let torque = r.cross(f)
            if push.mode == .continuous {
                // Like gravity: a steady push does not keep a resting item awake (changing the
                // push wakes everything).
                bodies.forces[b].ax += f.x * bodies.material[b].invMass; bodies.forces[b].ay += f.y * bodies.material[b].invMass
                bodies.forces[b].alpha += torque * bodies.material[b].invI
            } else {
                let v = cappedSpeed(Vec2(bodies.motion[b].vx + f.x * bodies.material[b].invMass,
                                         bodies.motion[b].vy + f.y * bodies.material[b].invMass))
                bodies.motion[b].vx = v.x; bodies.motion[b].vy = v.y
                let w = bodies.motion[b].w + torque * bodies.material[b].invI
                if w.isFinite { bodies.motion[b].w = w }
                if !bodies.slot[b].awake { bodies.slot[b].awake = true; bodies.slot[b].sleepTime = 0 }
            }
        }
        if push.mode == .instantaneous {
            // Turning itself off is not a change that should wake the world again.
            let w = push.world
            push.world = nil
            push.consume()
            push.world = w
        }
    }
}
