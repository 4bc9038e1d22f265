import Geometry

/// A per-step constraint built from an attachment, a snap or a held item. `b < 0` means the
/// fixed world (an anchor point or a target).
struct JointConstraint {
    enum Kind { case distance, snap, hold }
    var kind: Kind
    var a: Int, b: Int = -1
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
    private func isActive(_ b: Int) -> Bool { b >= 0 && bodies.awake[b] && !bodies.isStatic[b] }

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
                let c = bodies.cosA[a], s = bodies.sinA[a]
                j.rAx = c * att.offset.x - s * att.offset.y; j.rAy = s * att.offset.x + c * att.offset.y
                if b >= 0 {
                    let cb = bodies.cosA[b], sb = bodies.sinA[b]
                    j.rBx = cb * att.attachedOffset.x - sb * att.attachedOffset.y
                    j.rBy = sb * att.attachedOffset.x + cb * att.attachedOffset.y
                    j.cBx = bodies.px[b]; j.cBy = bodies.py[b]
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
                if let t = snap.targetRotation, bodies.invI[a] > 0 { j.hasAngle = true; j.targetAngle = t }
                j.impulseX = snap.impulseX; j.impulseY = snap.impulseY; j.angularImpulse = snap.angularImpulse
                joints.append(j)
            }
        }
        for (index, hold) in holds.enumerated() {
            let a = hold.body
            var j = JointConstraint(kind: .hold, a: a, holdIndex: index)
            setBodies(&j)
            j.cBx = hold.targetX; j.cBy = hold.targetY
            if let t = hold.targetAngle, bodies.invI[a] > 0 {
                j.hasAngle = true
                // The nearest turn to the current angle.
                j.targetAngle = bodies.angle[a] + normalizeAngle(t - bodies.angle[a])
            }
            j.maxImpulse = bodies.mass[a] * tuning.maxHeldAcceleration * h
            j.maxAngularImpulse = bodies.inertia[a] * tuning.maxHeldAngularAcceleration * h
            joints.append(j)
        }
    }

    private func setBodies(_ j: inout JointConstraint) {
        let a = j.a, b = j.b
        j.cAx = bodies.px[a]; j.cAy = bodies.py[a]; j.angleA0 = bodies.angle[a]
        if isActive(a) { j.mA = bodies.invMass[a]; j.iA = bodies.invI[a] }
        if isActive(b) { j.mB = bodies.invMass[b]; j.iB = bodies.invI[b] }
    }

    /// Current anchor offsets (rotated by the motion since the step began).
    @inline(__always)
    private func currentArms(_ j: JointConstraint) -> (Double, Double, Double, Double) {
        let a = j.a, b = j.b
        let c = bodies.dqc[a], s = bodies.dqs[a]
        let rAx = c * j.rAx - s * j.rAy, rAy = s * j.rAx + c * j.rAy
        var rBx = j.rBx, rBy = j.rBy
        if b >= 0 { let cb = bodies.dqc[b], sb = bodies.dqs[b]; rBx = cb * j.rBx - sb * j.rBy; rBy = sb * j.rBx + cb * j.rBy }
        return (rAx, rAy, rBx, rBy)
    }

    @inline(__always)
    private func applyLinear(_ j: JointConstraint, _ Px: Double, _ Py: Double, _ rAx: Double, _ rAy: Double, _ rBx: Double, _ rBy: Double) {
        let a = j.a, b = j.b
        if j.mA > 0 || j.iA > 0 {
            bodies.vx[a] -= j.mA * Px; bodies.vy[a] -= j.mA * Py
            bodies.w[a] -= j.iA * (rAx * Py - rAy * Px)
        }
        if b >= 0 && (j.mB > 0 || j.iB > 0) {
            bodies.vx[b] += j.mB * Px; bodies.vy[b] += j.mB * Py
            bodies.w[b] += j.iB * (rBx * Py - rBy * Px)
        }
    }

    /// Vector from anchor A to anchor B now.
    @inline(__always)
    private func separation(_ j: JointConstraint, _ arms: (Double, Double, Double, Double)) -> (Double, Double) {
        let a = j.a, b = j.b
        var bx = j.cBx + arms.2, by = j.cBy + arms.3
        if b >= 0 { bx += bodies.dpx[b]; by += bodies.dpy[b] }
        let ax = j.cAx + bodies.dpx[a] + arms.0, ay = j.cAy + bodies.dpy[a] + arms.1
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
                if j.hasAngle { bodies.w[j.a] += j.iA * j.angularImpulse }
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
        let a = j.a, b = j.b
        var dvx = -(bodies.vx[a] - bodies.w[a] * rAy), dvy = -(bodies.vy[a] + bodies.w[a] * rAx)
        if b >= 0 { dvx += bodies.vx[b] - bodies.w[b] * rBy; dvy += bodies.vy[b] + bodies.w[b] * rBx }
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
        let a = j.a
        guard j.mA > 0 else { return }
        let cx = j.cAx + bodies.dpx[a] - j.cBx, cy = j.cAy + bodies.dpy[a] - j.cBy
        let m = 1 / j.mA
        let ix = -j.soft.massScale * m * (bodies.vx[a] + j.soft.biasRate * cx) - j.soft.impulseScale * j.impulseX
        let iy = -j.soft.massScale * m * (bodies.vy[a] + j.soft.biasRate * cy) - j.soft.impulseScale * j.impulseY
        joints[index].impulseX += ix; joints[index].impulseY += iy
        bodies.vx[a] += j.mA * ix; bodies.vy[a] += j.mA * iy
        if j.hasAngle && j.iA > 0 {
            let angle = j.angleA0 + atan2d(bodies.dqs[a], bodies.dqc[a])
            let ca = angle - j.targetAngle
            let ia = 1 / j.iA
            let imp = -j.soft.massScale * ia * (bodies.w[a] + j.soft.biasRate * ca) - j.soft.impulseScale * j.angularImpulse
            joints[index].angularImpulse += imp
            bodies.w[a] += j.iA * imp
        }
    }

    private func solveHold(_ index: Int, remaining: Double) {
        let j = joints[index]
        let a = j.a
        guard j.mA > 0 else { return }
        // Velocity that reaches the target by the end of the step, bounded.
        var tx = (j.cBx - (j.cAx + bodies.dpx[a])) / remaining
        var ty = (j.cBy - (j.cAy + bodies.dpy[a])) / remaining
        let speed = (tx * tx + ty * ty).squareRoot()
        if speed > tuning.maxHeldSpeed { tx *= tuning.maxHeldSpeed / speed; ty *= tuning.maxHeldSpeed / speed }
        let m = 1 / j.mA
        var nx = j.impulseX + m * (tx - bodies.vx[a]), ny = j.impulseY + m * (ty - bodies.vy[a])
        let total = (nx * nx + ny * ny).squareRoot()
        if total > j.maxImpulse { nx *= j.maxImpulse / total; ny *= j.maxImpulse / total }
        bodies.vx[a] += j.mA * (nx - j.impulseX); bodies.vy[a] += j.mA * (ny - j.impulseY)
        joints[index].impulseX = nx; joints[index].impulseY = ny
        if j.hasAngle && j.iA > 0 {
            let angle = j.angleA0 + atan2d(bodies.dqs[a], bodies.dqc[a])
            var wt = (j.targetAngle - angle) / remaining
            wt = min(max(wt, -tuning.maxHeldAngularSpeed), tuning.maxHeldAngularSpeed)
            let ia = 1 / j.iA
            let na = min(max(j.angularImpulse + ia * (wt - bodies.w[a]), -j.maxAngularImpulse), j.maxAngularImpulse)
            bodies.w[a] += j.iA * (na - j.angularImpulse)
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
