import Geometry

/// Items held by a finger (pan, pinch, rotate): the gesture sets a target; the item follows it
/// through the solver, still colliding, and keeps its velocity when let go (a fling).
extension DynamicsWorld {
    /// Starts holding `id` where it is. Anchored items cannot be held.
    public func hold(_ id: ItemID) {
        guard let b = body(id), !bodies.isStatic[b], bodies.holdIndex[b] < 0 else { return }
        holds.append(Hold(body: b, targetX: bodies.px[b], targetY: bodies.py[b], targetAngle: nil))
        bodies.holdIndex[b] = Int32(holds.count - 1)
        wake(b)
    }

    public func isHeld(_ id: ItemID) -> Bool { body(id).map { bodies.holdIndex[$0] >= 0 } ?? false }

    /// Moves the target of a held item. `rotation` (radians) turns it toward an absolute angle;
    /// `size` resizes it at once (mass follows density), as a pinch does.
    public func moveHeld(_ id: ItemID, to center: Vec2, rotation: Double? = nil, size: Vec2? = nil) {
        guard let b = body(id), bodies.holdIndex[b] >= 0, center.isFinite else { return }
        let i = Int(bodies.holdIndex[b])
        holds[i].targetX = center.x; holds[i].targetY = center.y
        if let r = rotation, r.isFinite { holds[i].targetAngle = r }
        if let s = size { setSize(s, of: id) }
        wake(b)
    }

    /// Lets go. With `velocity` (the finger's, px/s) the item is flung at that velocity, capped
    /// at the held-speed limit; otherwise it keeps the velocity it had while following.
    public func release(_ id: ItemID, velocity: Vec2? = nil, angularVelocity: Double? = nil) {
        guard let b = body(id), bodies.holdIndex[b] >= 0 else { return }
        let i = Int(bodies.holdIndex[b])
        holds.remove(at: i)
        bodies.holdIndex[b] = -1
        for k in i..<holds.count { bodies.holdIndex[holds[k].body] = Int32(k) }
        if let v = velocity, v.isFinite {
            let limit = tuning.maxHeldSpeed, l = v.length
            let capped = l > limit ? v * (limit / l) : v
            bodies.vx[b] = capped.x; bodies.vy[b] = capped.y
        }
        if let w = angularVelocity, w.isFinite, bodies.invI[b] > 0 {
            bodies.w[b] = min(max(w, -tuning.maxHeldAngularSpeed), tuning.maxHeldAngularSpeed)
        }
        wake(b)
    }
}
