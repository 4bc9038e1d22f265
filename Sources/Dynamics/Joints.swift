import Geometry

/// A per-step constraint built from an attachment, a snap or a held item. `b < 0` means the
/// fixed world (an anchor point or a target).
struct JointConstraint {
    enum Kind { case distance, snap, hold }
    var kind: Kind
    var a: Int, b: Int = -1
    /// The bodies' slots in `solverBodies` (0 for b < 0).
    var sa = 0, sb = 0
    var owner: DynamicBehavior?
    var holdIndex = -1
    // Offsets from the centres in world orientation at the step start.
    var rAx = 0.0, rAy = 0.0, rBx = 0.0, rBy = 0.0
    // Start-of-step centres; the fixed point for b < 0.
    var cAx = 0.0, cAy = 0.0, cBx = 0.0, cBy = 0.0
    var mA = 0.0, iA = 0.0, mB = 0.0, iB = 0.0
    var length = 0.0
    var soft = Softness()
    var spring = false
    var impulse = 0.0, impulseX = 0.0, impulseY = 0.0, angularImpulse = 0.0
    var targetAngle = 0.0, hasAngle = false
    var maxImpulse = 0.0, maxAngularImpulse = 0.0
    var angleA0 = 0.0
}

/// An item held by a finger: it is driven toward the target with bounded speed and force, so
/// contacts (solved after it) always win: it cannot be dragged through walls or items.
struct Hold {
    var body: Int
    var targetX: Double, targetY: Double
    var targetAngle: Double?
}

extension DynamicsWorld {
    private func isActive(_ b: Int) -> Bool { b >= 0 && bodies.slot[b].isActive }

    func prepareJoints(_ h: Double, _ hs: Double) {
        joints.removeAll(keepingCapacity: true)
        let jointSoft = Softness(hertz: min(tuning.jointHertz, 0.25 / hs), dampingRatio: tuning.jointDampingRatio, h: hs)
        for behavior in flatBehaviors {
            if let att = behavior as? AttachmentBehavior {
                guard let a = body(att.item) else { continue }
                var b = -1
                if let other = att.attachedItem { guard let ob = body(other) else { continue }; b = ob }
                if !isActive(a) && !isActive(b) { continue }
                var j = JointConstraint(kind: .distance, a: a, b: b, owner: att)
                setBodies(&j)
                let c = bodies.pose[a].cosA, s = bodies.pose[a].sinA
                j.rAx = c * att.offset.x - s * att.offset.y; j.rAy = s * att.offset.x + c * att.offset.y
                if b >= 0 {
                    let cb = bodies.pose[b].cosA, sb = bodies.pose[b].sinA
                    j.rBx = cb * att.attachedOffset.x - sb * att.attachedOffset.y
                    j.rBy = sb * att.attachedOffset.x + cb * att.attachedOffset.y
                    j.cBx = bodies.pose[b].x; j.cBy = bodies.pose[b].y
                } else {
                    j.cBx = att.anchorPoint.x; j.cBy = att.anchorPoint.y
                }
                j.length = att.length
                j.spring = att.frequency > 0
                j.soft = j.spring ? Softness(hertz: att.frequency, dampingRatio: att.damping, h: hs) : jointSoft
                j.impulse = att.impulse
                joints.append(j)
            } else if let snap = behavior as? SnapBehavior {
                guard let a = body(snap.item), isActive(a) else { continue }
                var j = JointConstraint(kind: .snap, a: a, owner: snap)
                setBodies(&j)
                j.cBx = snap.snapPoint.x; j.cBy = snap.snapPoint.y
                j.soft = Softness(hertz: 3, dampingRatio: 0.1 + 0.9 * snap.damping, h: hs)
                if let t = snap.targetRotation, bodies.material[a].invI > 0 { j.hasAngle = true; j.targetAngle = t }
                j.impulseX = snap.impulseX; j.impulseY = snap.impulseY; j.angularImpulse = snap.angularImpulse
                joints.append(j)
            }
        }
        for (index, hold) in holds.enumerated() {
            let a = hold.body
            var j = JointConstraint(kind: .hold, a: a, holdIndex: index)
            setBodies(&j)
            j.cBx = hold.targetX; j.cBy = hold.targetY
            if let t = hold.targetAngle, bodies.material[a].invI > 0 {
                j.hasAngle = true
                // The nearest turn to the current angle.
                j.targetAngle = bodies.pose[a].angle + normalizeAngle(t - bodies.pose[a].angle)
            }
            j.maxImpulse = bodies.material[a].mass * tuning.maxHeldAcceleration * h
            j.maxAngularImpulse = bodies.material[a].inertia * tuning.maxHeldAngularAcceleration * h
            joints.append(j)
        }
    }

    private func setBodies(_ j: inout JointConstraint) {
        let a = j.a, b = j.b
        j.sa = Int(solverSlot[a]); j.sb = b >= 0 ? Int(solverSlot[b]) : 0
        j.cAx = bodies.pose[a].x; j.cAy = bodies.pose[a].y; j.angleA0 = bodies.pose[a].angle
        if isActive(a) { j.mA = bodies.material[a].invMass; j.iA = bodies.material[a].invI }
        if isActive(b) { j.mB = bodies.material[b].invMass; j.iB = bodies.material[b].invI }
    }

    /// Current anchor offsets (rotated by the motion since the step began).
    @inline(__always)
    private func currentArms(_ j: JointConstraint) -> (Double, Double, Double, Double) {
        let b = j.b
        let c = solverBodies[j.sa].dqc, s = solverBodies[j.sa].dqs
        let rAx = c * j.rAx - s * j.rAy, rAy = s * j.rAx + c * j.rAy
        var rBx = j.rBx, rBy = j.rBy
        if b >= 0 { let cb = solverBodies[j.sb].dqc, sb = solverBodies[j.sb].dqs; rBx = cb * j.rBx - sb * j.rBy; rBy = sb * j.rBx + cb * j.rBy }
        return (rAx, rAy, rBx, rBy)
    }

    @inline(__always)
    private func applyLinear(_ j: JointConstraint, _ Px: Double, _ Py: Double, _ rAx: Double, _ rAy: Double, _ rBx: Double, _ rBy: Double) {
        let b = j.b
        if j.mA > 0 || j.iA > 0 {
            solverBodies[j.sa].vx -= j.mA * Px; solverBodies[j.sa].vy -= j.mA * Py
            solverBodies[j.sa].w -= j.iA * (rAx * Py - rAy * Px)
        }
        if b >= 0 && (j.mB > 0 || j.iB > 0) {
            solverBodies[j.sb].vx += j.mB * Px; solverBodies[j.sb].vy += j.mB * Py
            solverBodies[j.sb].w += j.iB * (rBx * Py - rBy * Px)
        }
    }

    /// Vector from anchor A to anchor B now.
    @inline(__always)
    private func separation(_ j: JointConstraint, _ arms: (Double, Double, Double, Double)) -> (Double, Double) {
        let b = j.b
        var bx = j.cBx + arms.2, by = j.cBy + arms.3
        if b >= 0 { bx += solverBodies[j.sb].dpx; by += solverBodies[j.sb].dpy }
        let ax = j.cAx + solverBodies[j.sa].dpx + arms.0, ay = j.cAy + solverBodies[j.sa].dpy + arms.1
        return (bx - ax, by - ay)
    }

    func warmStartJoints() {
        for j in joints {
            switch j.kind {
            case .distance:
                let arms = currentArms(j)
                let (dx, dy) = separation(j, arms)
                let l = (dx * dx + dy * dy).squareRoot()
                guard l > 1e-9 else { continue }
                applyLinear(j, j.impulse * dx / l, j.impulse * dy / l, arms.0, arms.1, arms.2, arms.3)
            case .snap:
                applyLinear(j, -j.impulseX, -j.impulseY, 0, 0, 0, 0)
                if j.hasAngle { solverBodies[j.sa].w += j.iA * j.angularImpulse }
            case .hold:
                break
            }
        }
    }

    func solveJoints(_ hs: Double, remaining: Double, useBias: Bool) {
        for index in joints.indices {
            switch joints[index].kind {
            case .distance: solveDistance(index, useBias: useBias)
            case .snap: solveSnap(index)
            case .hold: if useBias { solveHold(index, remaining: remaining) }
            }
        }
    }

    private func solveDistance(_ index: Int, useBias: Bool) {
        let j = joints[index]
        let arms = currentArms(j)
        let (dx, dy) = separation(j, arms)
        let l = (dx * dx + dy * dy).squareRoot()
        guard l > 1e-9 else { return }
        let ux = dx / l, uy = dy / l
        let (rAx, rAy, rBx, rBy) = arms
        let b = j.b
        var dvx = -(solverBodies[j.sa].vx - solverBodies[j.sa].w * rAy), dvy = -(solverBodies[j.sa].vy + solverBodies[j.sa].w * rAx)
        if b >= 0 { dvx += solverBodies[j.sb].vx - solverBodies[j.sb].w * rBy; dvy += solverBodies[j.sb].vy + solverBodies[j.sb].w * rBx }
        let cdot = dvx * ux + dvy * uy
        let crA = rAx * uy - rAy * ux, crB = rBx * uy - rBy * ux
        let k = j.mA + j.mB + j.iA * crA * crA + j.iB * crB * crB
        guard k > 0 else { return }
        let mass = 1 / k
        let c = l - j.length
        var bias = 0.0, massScale = 1.0, impulseScale = 0.0
        if j.spring || useBias {
            bias = j.soft.biasRate * c; massScale = j.soft.massScale; impulseScale = j.soft.impulseScale
        }
        let impulse = -massScale * mass * (cdot + bias) - impulseScale * j.impulse
        joints[index].impulse += impulse
        applyLinear(j, impulse * ux, impulse * uy, rAx, rAy, rBx, rBy)
    }

    private func solveSnap(_ index: Int) {
        let j = joints[index]
        guard j.mA > 0 else { return }
        let cx = j.cAx + solverBodies[j.sa].dpx - j.cBx, cy = j.cAy + solverBodies[j.sa].dpy - j.cBy
        let m = 1 / j.mA
        let ix = -j.soft.massScale * m * (solverBodies[j.sa].vx + j.soft.biasRate * cx) - j.soft.impulseScale * j.impulseX
        let iy = -j.soft.massScale * m * (solverBodies[j.sa].vy + j.soft.biasRate * cy) - j.soft.impulseScale * j.impulseY
        joints[index].impulseX += ix; joints[index].impulseY += iy
        solverBodies[j.sa].vx += j.mA * ix; solverBodies[j.sa].vy += j.mA * iy
        if j.hasAngle && j.iA > 0 {
            let angle = j.angleA0 + atan2d(solverBodies[j.sa].dqs, solverBodies[j.sa].dqc)
            let ca = angle - j.targetAngle
            let ia = 1 / j.iA
            let imp = -j.soft.massScale * ia * (solverBodies[j.sa].w + j.soft.biasRate * ca) - j.soft.impulseScale * j.angularImpulse
            joints[index].angularImpulse += imp
            solverBodies[j.sa].w += j.iA * imp
        }
    }

    private func solveHold(_ index: Int, remaining: Double) {
        let j = joints[index]
        guard j.mA > 0 else { return }
        // Velocity that reaches the target by the end of the step, bounded.
        var tx = (j.cBx - (j.cAx + solverBodies[j.sa].dpx)) / remaining
        var ty = (j.cBy - (j.cAy + solverBodies[j.sa].dpy)) / remaining
        let speed = (tx * tx + ty * ty).squareRoot()
        if speed > tuning.maxHeldSpeed { tx *= tuning.maxHeldSpeed / speed; ty *= tuning.maxHeldSpeed / speed }
        let m = 1 / j.mA
        var nx = j.impulseX + m * (tx - solverBodies[j.sa].vx), ny = j.impulseY + m * (ty - solverBodies[j.sa].vy)
        let total = (nx * nx + ny * ny).squareRoot()
        if total > j.maxImpulse { nx *= j.maxImpulse / total; ny *= j.maxImpulse / total }
        solverBodies[j.sa].vx += j.mA * (nx - j.impulseX); solverBodies[j.sa].vy += j.mA * (ny - j.impulseY)
        joints[index].impulseX = nx; joints[index].impulseY = ny
        if j.hasAngle && j.iA > 0 {
            let angle = j.angleA0 + atan2d(solverBodies[j.sa].dqs, solverBodies[j.sa].dqc)
            var wt = (j.targetAngle - angle) / remaining
            wt = min(max(wt, -tuning.maxHeldAngularSpeed), tuning.maxHeldAngularSpeed)
            let ia = 1 / j.iA
            let na = min(max(j.angularImpulse + ia * (wt - solverBodies[j.sa].w), -j.maxAngularImpulse), j.maxAngularImpulse)
            solverBodies[j.sa].w += j.iA * (na - j.angularImpulse)
            joints[index].angularImpulse = na
        }
    }

    func storeJointImpulses() {
        for j in joints {
            if let att = j.owner as? AttachmentBehavior { att.impulse = j.impulse }
            else if let snap = j.owner as? SnapBehavior {
                snap.impulseX = j.impulseX; snap.impulseY = j.impulseY; snap.angularImpulse = j.angularImpulse
            }
        }
    }
}
