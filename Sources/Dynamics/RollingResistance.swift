/// Rolling resistance at contacts with a circle (Box2D v3's idea): a torque against the two
/// bodies' relative spin, bounded by `Tuning.rollingResistance` × radius × normal impulse, as a
/// real ball flattens a little where it touches. Without it rolling contact loses no energy: a
/// box balanced on a ball, or wedged by friction between a ball and a wall, rocks for ever
/// instead of coming to rest (and its pile never sleeps).
struct RollingConstraint {
    /// The two bodies' solver slots (slot 0, the still body, has iA or iB 0 and is not changed).
    var sa: Int32 = 0, sb: Int32 = 0
    var iA = 0.0, iB = 0.0
    /// 1 / (iA + iB): the angular impulse that stops the relative spin.
    var mass = 0.0
    /// The largest angular impulse per substep.
    var limit = 0.0
}

extension DynamicsWorld {
    /// One rolling constraint per prepared contact constraint with a circle and some normal
    /// impulse. The bound takes the normal impulse the contact carried into this step: at rest,
    /// where the resistance matters, it is the one the step will find.
    func prepareRolling() {
        rollingCount = 0
        let coefficient = tuning.rollingResistance
        guard coefficient > 0 else { return }
        let n = constraintCount
        rolling.reserve(n)
        let cc = constraints.base, cp = points.base, outline = bodies.outline, rows = rolling.base
        var count = 0
        for i in 0..<n {
            let k = cc + i
            let a = Int(k.pointee.a), b = Int(k.pointee.b)
            // Polygons and walls have radius 0: only circles roll.
            let radius = max(outline[a].radius, outline[b].radius)
            let spinInverse = k.pointee.iA + k.pointee.iB
            if radius == 0 || spinInverse == 0 { continue }
            var normalImpulse = cp[2 * i].normalImpulse
            if k.pointee.pointCount > 1 { normalImpulse += cp[2 * i + 1].normalImpulse }
            if normalImpulse <= 0 { continue }
            rows[count] = RollingConstraint(sa: k.pointee.sa, sb: k.pointee.sb, iA: k.pointee.iA, iB: k.pointee.iB,
                                            mass: 1 / spinInverse, limit: coefficient * radius * normalImpulse)
            count += 1
        }
        rollingCount = count
    }

    /// Once per substep, without warm start: a bounded impulse per substep is the resistance
    /// (solving it in every pass, warm-started, settled piles no better and cost ~14 % of the
    /// step in kiosk500).
    func solveRolling() {
        let motion = solverBodies.base, rows = rolling.base
        for i in 0..<rollingCount {
            let r = rows + i
            let a = Int(r.pointee.sa), b = Int(r.pointee.sb)
            let limit = r.pointee.limit
            var impulse = -r.pointee.mass * (motion[b].w - motion[a].w)
            if impulse > limit { impulse = limit } else if impulse < -limit { impulse = -limit }
            motion[a].w -= r.pointee.iA * impulse
            motion[b].w += r.pointee.iB * impulse
        }
    }
}
