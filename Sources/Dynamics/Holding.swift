import Geometry

/// Items held by a finger (pan, pinch, rotate): the gesture sets a target; the item follows it
/// through the solver, still colliding, and keeps its velocity when let go (a fling).
extension DynamicsWorld {
    /// Starts holding `id` where it is. Anchored items cannot be held.
    public func hold(_ id: ItemID) {
        guard let b = body(id), !bodies.slot[b].isStatic, bodies.slot[b].holdIndex < 0 else { return }
        holds.append(Hold(body: b, targetX: bodies.pose[b].x, targetY: bodies.pose[b].y, targetAngle: nil))
        bodies.slot[b].holdIndex = Int32(holds.count - 1)
        wake(b)
    }

    public func isHeld(_ id: ItemID) -> Bool { body(id).map { bodies.slot[$0].holdIndex >= 0 } ?? false }

    /// Moves the target of a held item. `rotation` (radians) turns it toward an absolute angle;
    /// `size` resizes it at once (mass follows density), as a pinch does.
    public func moveHeld(_ id: ItemID, to center: Vec2, rotation: Double? = nil, size: Vec2? = nil) {
        guard let b = body(id), bodies.slot[b].holdIndex >= 0, center.isFinite else { return }
        let i = Int(bodies.slot[b].holdIndex)
        holds[i].targetX = center.x; holds[i].targetY = center.y
        if let r = rotation, r.isFinite { holds[i].targetAngle = r }
        if let s = size { setSize(s, of: id) }
        wake(b)
    }

    /// Lets go. With `velocity` (the finger's, px/s) the item is flung at that velocity, capped
    /// at the held-speed limit; otherwise it keeps the velocity it had while following.
    public func release(_ id: ItemID, velocity: Vec2? = nil, angularVelocity: Double? = nil) {
        guard let b = body(id), bodies.slot[b].holdIndex >= 0 else { return }
        let i = Int(bodies.slot[b].holdIndex)
        holds.remove(at: i)
        bodies.slot[b].holdIndex = -1
        for k in i..<holds.count { bodies.slot[holds[k].body].holdIndex = Int32(k) }
        if let v = velocity, v.isFinite {
            let limit = tuning.maxHeldSpeed, l = v.length
            let capped = l > limit ? v * (limit / l) : v
            bodies.motion[b].vx = capped.x; bodies.motion[b].vy = capped.y
        }
        if let w = angularVelocity, w.isFinite, bodies.material[b].invI > 0 {
            bodies.motion[b].w = min(max(w, -tuning.maxHeldAngularSpeed), tuning.maxHeldAngularSpeed)
        }
        wake(b)
    }
}
