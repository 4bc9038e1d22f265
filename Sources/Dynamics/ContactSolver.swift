import Geometry

struct ContactConstraint {
    var a = 0, b = 0, contact = 0, pointCount = 0
    var mA = 0.0, iA = 0.0, mB = 0.0, iB = 0.0
    var nx = 0.0, ny = 0.0
    var friction = 0.0, restitution = 0.0
    var soft = Softness()
}

struct ConstraintPoint {
    var rAx = 0.0, rAy = 0.0, rBx = 0.0, rBy = 0.0
    /// Separation at the step start minus the anchors' offset along the normal; adding the
    /// bodies' motion since then gives the current separation.
    var baseSeparation = 0.0
    var normalImpulse = 0.0, tangentImpulse = 0.0
    var normalMass = 0.0, tangentMass = 0.0
}

/// The soft step (Box2D v3): per substep integrate velocities, resolve elastic impacts, warm
/// start, solve with soft position bias, integrate positions, relax without bias.
extension DynamicsWorld {
    func solve(_ h: Double) {
        let hs = h / Double(substeps)
        prepareContacts(hs)
        prepareJoints(h, hs)
        let bt = bodies
        let list = awakeList, n = awakeCount
        let maxSpeed = tuning.maxLinearSpeed, maxRotation = tuning.maxRotationPerSubstep / hs
        for b in 0..<n {
            let i = Int(list[b])
            bt.motion[i].dpx = 0; bt.motion[i].dpy = 0; bt.motion[i].dqc = 1; bt.motion[i].dqs = 0
        }
        for sub in 0..<substeps {
            // Velocities.
            for k in 0..<n {
                let i = Int(list[k])
                let f = bt.forces[i], m = bt.motion[i]
                let ld = 1 / (1 + hs * f.linearDamping), ad = 1 / (1 + hs * f.angularDamping)
                var vx = (m.vx + hs * f.ax) * ld, vy = (m.vy + hs * f.ay) * ld
                var w = (m.w + hs * f.alpha) * ad
                let v2 = vx * vx + vy * vy
                if v2 > maxSpeed * maxSpeed { let f = maxSpeed / v2.squareRoot(); vx *= f; vy *= f }
                if bt.material[i].invI == 0 { w = 0 } else if abs(w) > maxRotation { w = w > 0 ? maxRotation : -maxRotation }
                bt.motion[i].vx = vx; bt.motion[i].vy = vy; bt.motion[i].w = w
            }
            resolveImpacts(hs)
            warmStartJoints()
            warmStartContacts()
            solveJoints(hs, remaining: Double(substeps - sub) * hs, useBias: true)
            solveContacts(hs, useBias: true, flip: sub % 2 == 1)
            // Positions.
            for k in 0..<n {
                let i = Int(list[k])
                let m = bt.motion[i]
                let vx = m.vx, vy = m.vy, w = m.w
                bt.pose[i].x += hs * vx; bt.pose[i].y += hs * vy
                bt.motion[i].dpx += hs * vx; bt.motion[i].dpy += hs * vy
                bt.pose[i].angle += hs * w
                let c = m.dqc, s = m.dqs
                let c2 = c - hs * w * s, s2 = s + hs * w * c
                let inv = 1 / (c2 * c2 + s2 * s2).squareRoot()
                bt.motion[i].dqc = c2 * inv; bt.motion[i].dqs = s2 * inv
            }
            solveJoints(hs, remaining: Double(substeps - sub) * hs, useBias: false)
            solveContacts(hs, useBias: false, flip: sub % 2 == 0)
        }
        storeImpulses()
        storeJointImpulses()
        for k in 0..<n {
            let i = Int(list[k])
            bt.pose[i].cosA = _cos(bt.pose[i].angle); bt.pose[i].sinA = _sin(bt.pose[i].angle)
            bt.motion[i].dpx = 0; bt.motion[i].dpy = 0; bt.motion[i].dqc = 1; bt.motion[i].dqs = 0
        }
    }

    func prepareContacts(_ hs: Double) {
        let ct = contacts, bt = bodies
        constraints.reserve(ct.count)
        points.reserve(2 * ct.count)
        let cc = constraints, cp = points
        let contactSoft = Softness(hertz: min(tuning.contactHertz, 0.25 / hs), dampingRatio: tuning.contactDampingRatio, h: hs)
        let staticSoft = Softness(hertz: 2 * min(tuning.contactHertz, 0.25 / hs), dampingRatio: tuning.contactDampingRatio, h: hs)
        var count = 0
        for c in 0..<ct.count {
            let contact = ct[c]
            let pc = contact.pointCount
            if pc == 0 { continue }
            let a = Int(contact.a), b = Int(contact.b)
            let activeA = bt.slot[a].isActive, activeB = bt.slot[b].isActive
            if !activeA && !activeB { continue }
            var k = ContactConstraint()
            k.a = a; k.b = b; k.contact = c; k.pointCount = pc
            k.mA = activeA ? bt.material[a].invMass : 0; k.iA = activeA ? bt.material[a].invI : 0
            k.mB = activeB ? bt.material[b].invMass : 0; k.iB = activeB ? bt.material[b].invI : 0
            // A held item meets others as if no heavier than they are: the finger's drive
            // already supplies its push, and a heavy item would squeeze a light one through
            // a wall before the iterations converge.
            if activeA && activeB {
                if bt.slot[a].holdIndex >= 0 && k.mA < k.mB { let f = k.mB / k.mA; k.mA *= f; k.iA *= f }
                if bt.slot[b].holdIndex >= 0 && k.mB < k.mA { let f = k.mA / k.mB; k.mB *= f; k.iB *= f }
            }
            let nx = contact.nx, ny = contact.ny
            k.nx = nx; k.ny = ny
            k.friction = contact.friction; k.restitution = contact.restitution
            k.soft = (k.mA == 0 || k.mB == 0) ? staticSoft : contactSoft
            cc[count] = k
            for j in 0..<pc {
                let q = 2 * c + j
                var p = ConstraintPoint()
                let point = ct.points[q]
                p.rAx = point.rAx; p.rAy = point.rAy; p.rBx = point.rBx; p.rBy = point.rBy
                p.baseSeparation = point.separation - ((p.rBx - p.rAx) * nx + (p.rBy - p.rAy) * ny)
                p.normalImpulse = point.normalImpulse; p.tangentImpulse = point.tangentImpulse
                let rnA = p.rAx * ny - p.rAy * nx, rnB = p.rBx * ny - p.rBy * nx
                let kn = k.mA + k.mB + k.iA * rnA * rnA + k.iB * rnB * rnB
                p.normalMass = kn > 0 ? 1 / kn : 0
                // Tangent (ny, -nx).
                let rtA = p.rAx * -nx - p.rAy * ny, rtB = p.rBx * -nx - p.rBy * ny
                let kt = k.mA + k.mB + k.iA * rtA * rtA + k.iB * rtB * rtB
                p.tangentMass = kt > 0 ? 1 / kt : 0
                cp[2 * count + j] = p
            }
            count += 1
        }
        constraintCount = count
    }

    func warmStartContacts() {
        let cc = constraints, cp = points, bt = bodies
        let motion = bt.motion
        for i in 0..<constraintCount {
            let k = cc[i]
            let a = k.a, b = k.b
            let tx = k.ny, ty = -k.nx
            let mA = motion[a], mB = motion[b]
            var vAx = mA.vx, vAy = mA.vy, wA = mA.w, vBx = mB.vx, vBy = mB.vy, wB = mB.w
            for j in 0..<k.pointCount {
                let p = cp[2 * i + j]
                let Px = p.normalImpulse * k.nx + p.tangentImpulse * tx
                let Py = p.normalImpulse * k.ny + p.tangentImpulse * ty
                wA -= k.iA * (p.rAx * Py - p.rAy * Px)
                vAx -= k.mA * Px; vAy -= k.mA * Py
                wB += k.iB * (p.rBx * Py - p.rBy * Px)
                vBx += k.mB * Px; vBy += k.mB * Py
            }
            if k.mA > 0 || k.iA > 0 { motion[a].vx = vAx; motion[a].vy = vAy; motion[a].w = wA }
            if k.mB > 0 || k.iB > 0 { motion[b].vx = vBx; motion[b].vy = vBy; motion[b].w = wB }
        }
    }

    /// `flip` alternates the order of a manifold's two points between passes, so that
    /// Gauss-Seidel favours neither side (otherwise a stack creeps sideways).
    func solveContacts(_ hs: Double, useBias: Bool, flip: Bool) {
        let cc = constraints, cp = points, bt = bodies
        let motion = bt.motion
        let invH = 1 / hs
        let maxPush = tuning.maxPushoutSpeed
        let threshold = tuning.restitutionThreshold
        for i in 0..<constraintCount {
            let k = cc[i]
            let a = k.a, b = k.b
            let mA = k.mA, iA = k.iA, mB = k.mB, iB = k.iB
            let nx = k.nx, ny = k.ny
            let motionA = motion[a], motionB = motion[b]
            var vAx = motionA.vx, vAy = motionA.vy, wA = motionA.w, vBx = motionB.vx, vBy = motionB.vy, wB = motionB.w
            let ddx = motionB.dpx - motionA.dpx, ddy = motionB.dpy - motionA.dpy
            let cA = motionA.dqc, sA = motionA.dqs, cB = motionB.dqc, sB = motionB.dqs
            let elastic = !useBias && k.restitution > 0
            for jj in 0..<k.pointCount {
                let j = flip && k.pointCount == 2 ? 1 - jj : jj
                let pp = cp.base + (2 * i + j)
                let rAx = pp.pointee.rAx, rAy = pp.pointee.rAy, rBx = pp.pointee.rBx, rBy = pp.pointee.rBy
                // Current separation from the motion since the step began.
                let prAx = cA * rAx - sA * rAy, prAy = sA * rAx + cA * rAy
                let prBx = cB * rBx - sB * rBy, prBy = sB * rBx + cB * rBy
                let s = (ddx + prBx - prAx) * nx + (ddy + prBy - prAy) * ny + pp.pointee.baseSeparation
                let dvx = vBx - wB * rBy - vAx + wA * rAy
                let dvy = vBy + wB * rBx - vAy - wA * rAx
                let vn = dvx * nx + dvy * ny
                var bias = 0.0, massScale = 1.0, impulseScale = 0.0
                if s > 0 {
                    // Speculative: may close the gap, no more. An elastic impact about to
                    // happen is left to `resolveImpacts` of the next substep, which needs the
                    // approach speed intact.
                    if elastic && vn < -threshold { continue }
                    bias = s * invH
                } else if useBias {
                    bias = max(k.soft.biasRate * s, -maxPush)
                    massScale = k.soft.massScale; impulseScale = k.soft.impulseScale
                }
                let old = pp.pointee.normalImpulse
                var impulse = -pp.pointee.normalMass * massScale * (vn + bias) - impulseScale * old
                let newImpulse = max(old + impulse, 0)
                impulse = newImpulse - old
                pp.pointee.normalImpulse = newImpulse
                let Px = impulse * nx, Py = impulse * ny
                vAx -= mA * Px; vAy -= mA * Py; wA -= iA * (rAx * Py - rAy * Px)
                vBx += mB * Px; vBy += mB * Py; wB += iB * (rBx * Py - rBy * Px)
            }
            let tx = ny, ty = -nx
            for jj in 0..<k.pointCount {
                let j = flip && k.pointCount == 2 ? 1 - jj : jj
                let pp = cp.base + (2 * i + j)
                let rAx = pp.pointee.rAx, rAy = pp.pointee.rAy, rBx = pp.pointee.rBx, rBy = pp.pointee.rBy
                let dvx = vBx - wB * rBy - vAx + wA * rAy
                let dvy = vBy + wB * rBx - vAy - wA * rAx
                let vt = dvx * tx + dvy * ty
                let maxFriction = k.friction * pp.pointee.normalImpulse
                let old = pp.pointee.tangentImpulse
                let newImpulse = min(max(old - pp.pointee.tangentMass * vt, -maxFriction), maxFriction)
                let impulse = newImpulse - old
                pp.pointee.tangentImpulse = newImpulse
                let Px = impulse * tx, Py = impulse * ty
                vAx -= mA * Px; vAy -= mA * Py; wA -= iA * (rAx * Py - rAy * Px)
                vBx += mB * Px; vBy += mB * Py; wB += iB * (rBx * Py - rBy * Px)
            }
            if mA > 0 || iA > 0 { motion[a].vx = vAx; motion[a].vy = vAy; motion[a].w = wA }
            if mB > 0 || iB > 0 { motion[b].vx = vBx; motion[b].vy = vBy; motion[b].w = wB }
        }
    }

    /// Elastic impacts, before the soft solve: every contact about to close faster than the
    /// restitution threshold gets the pairwise impulse that reverses its approach (times the
    /// elasticity), repeated until no contact approaches. Collisions thus travel through a row
    /// of touching balls one pair at a time, as in a Newton's cradle, instead of being smeared.
    /// Against an immovable body the time of impact within the substep is honoured, so bounce
    /// heights do not depend on where the step boundaries fall. The two points of a face that
    /// lands flat are one impact: their impulses are solved together (`blockImpulses`), since
    /// one after the other the first alone would set the body spinning.
    func resolveImpacts(_ hs: Double) {
        let cc = constraints, cp = points, bt = bodies
        let motion = bt.motion
        let threshold = tuning.restitutionThreshold
        // Two points meeting within this much of each other land together (a face at most a
        // slop off flat), as Box2D's manifold treats points within the slop as touching.
        let together = tuning.linearSlop

        /// Point `q` of constraint `k` now: its approach speed `vn` (negative: closing), the
        /// separation `meet` it would have at the substep's end, the normal speed `target` it
        /// bounces off with and, against an immovable body, the `shift` along the normal that
        /// puts the mover where the continuous bounce would have it at the substep's end.
        func impact(_ k: ContactConstraint, _ q: Int) -> (vn: Double, meet: Double, target: Double, shift: Double) {
            let a = k.a, b = k.b, nx = k.nx, ny = k.ny
            let p = cp[q], mA = motion[a], mB = motion[b]
            let dvx = mB.vx - mB.w * p.rBy - mA.vx + mA.w * p.rAy
            let dvy = mB.vy + mB.w * p.rBx - mA.vy - mA.w * p.rAx
            let vn = dvx * nx + dvy * ny
            if vn > -threshold { return (vn, 0, 0, 0) }
            let cA = mA.dqc, sA = mA.dqs, cB = mB.dqc, sB = mB.dqs
            let prAx = cA * p.rAx - sA * p.rAy, prAy = sA * p.rAx + cA * p.rAy
            let prBx = cB * p.rBx - sB * p.rBy, prBy = sB * p.rBx + cB * p.rBy
            let s = (mB.dpx - mA.dpx + prBx - prAx) * nx + (mB.dpy - mA.dpy + prBy - prAy) * ny + p.baseSeparation
            let e = k.restitution
            let u = -vn
            let immovableA = k.mA == 0 && k.iA == 0, immovableB = k.mB == 0 && k.iB == 0
            guard immovableA != immovableB && s > 0 else { return (vn, s + vn * hs, e * u, 0) }
            // Time of impact inside the substep, with the external acceleration along the
            // normal: bounce exactly as the continuous motion would.
            let mover = immovableA ? b : a
            let sign = immovableA ? 1.0 : -1.0
            let f = bt.forces[mover]
            let an = sign * (f.ax * nx + f.ay * ny)
            let tau = min(s / u, hs)
            let impactSpeed = max(u - an * (tau - hs / 2), 0)
            let target = e * impactSpeed - an * (tau - hs / 2)
            let rest = hs - tau
            let endSeparation = e * impactSpeed * rest + an * rest * rest / 2
            return (vn, s + vn * hs, target, endSeparation - (s + target * hs))
        }

        /// Applies normal impulses `l0`, `l1` at the first two points of `k` and moves the
        /// mover by `shift` along the normal (positive: apart).
        func apply(_ k: ContactConstraint, _ q: Int, _ l0: Double, _ l1: Double, shift: Double) {
            let a = k.a, b = k.b, nx = k.nx, ny = k.ny
            for j in 0..<2 {
                let impulse = j == 0 ? l0 : l1
                if impulse == 0 { continue }
                let p = cp[q + j]
                let Px = impulse * nx, Py = impulse * ny
                motion[a].vx -= k.mA * Px; motion[a].vy -= k.mA * Py; motion[a].w -= k.iA * (p.rAx * Py - p.rAy * Px)
                motion[b].vx += k.mB * Px; motion[b].vy += k.mB * Py; motion[b].w += k.iB * (p.rBx * Py - p.rBy * Px)
            }
            if shift != 0 {
                let immovableA = k.mA == 0 && k.iA == 0
                let mover = immovableA ? b : a
                let sign = immovableA ? 1.0 : -1.0
                bt.pose[mover].x += sign * shift * nx; bt.pose[mover].y += sign * shift * ny
                motion[mover].dpx += sign * shift * nx; motion[mover].dpy += sign * shift * ny
            }
            contacts[k.contact].impact = true
        }

        var pass = 0
        while pass < 8 {
            pass += 1
            var applied = false
            for i in 0..<constraintCount {
                let k = cc[i]
                if k.restitution == 0 { continue }
                let q = 2 * i
                if k.pointCount == 2 {
                    let i0 = impact(k, q), i1 = impact(k, q + 1)
                    if i0.vn <= -threshold && i1.vn <= -threshold
                        && min(i0.meet, i1.meet) <= 0 && max(i0.meet, i1.meet) <= together,
                       let l = blockImpulses(k, cp[q], cp[q + 1], need: (i0.target - i0.vn, i1.target - i1.vn)),
                       l.0 + l.1 > 0 {
                        // One rigid shift for the body: the points' own, weighted by their share
                        // of the impact (equal when the face is flat).
                        let shift = (l.0 * i0.shift + l.1 * i1.shift) / (l.0 + l.1)
                        apply(k, q, l.0, l.1, shift: shift)
                        applied = true
                        continue
                    }
                }
                // One point at a time (a corner, or a face whose block solution does not hold).
                for j in 0..<k.pointCount {
                    let p = impact(k, q + j)
                    if p.vn > -threshold || p.meet > 0 { continue }   // not closing, or does not meet this substep
                    let impulse = cp[q + j].normalMass * (p.target - p.vn)
                    apply(k, q, j == 0 ? impulse : 0, j == 1 ? impulse : 0, shift: p.shift)
                    applied = true
                }
            }
            if !applied { break }
        }
    }

    /// Box2D 2.x's block solver for the restitution impulses of a two-point manifold: the
    /// impulses λ ≥ 0 such that each point's normal speed rises by at least `need` (exactly,
    /// where its λ > 0): the 2×2 linear complementarity problem with the effective-mass matrix,
    /// tried as both points pushing, then the first alone, then the second alone. Nil when the
    /// matrix is ill-conditioned (the points act as one: no turning, or coincident) or no case
    /// holds; one point at a time is exact then.
    func blockImpulses(_ k: ContactConstraint, _ p0: ConstraintPoint, _ p1: ConstraintPoint,
                       need: (Double, Double)) -> (Double, Double)? {
        let nx = k.nx, ny = k.ny
        let rnA0 = p0.rAx * ny - p0.rAy * nx, rnB0 = p0.rBx * ny - p0.rBy * nx
        let rnA1 = p1.rAx * ny - p1.rAy * nx, rnB1 = p1.rBx * ny - p1.rBy * nx
        let m = k.mA + k.mB
        let k11 = m + k.iA * rnA0 * rnA0 + k.iB * rnB0 * rnB0
        let k22 = m + k.iA * rnA1 * rnA1 + k.iB * rnB1 * rnB1
        let k12 = m + k.iA * rnA0 * rnA1 + k.iB * rnB0 * rnB1
        let det = k11 * k22 - k12 * k12
        // Box2D's bound on the condition number.
        guard k11 > 0, k22 > 0, k11 * k11 < 1000 * det else { return nil }
        let (b0, b1) = need
        let l0 = (k22 * b0 - k12 * b1) / det, l1 = (k11 * b1 - k12 * b0) / det
        if l0 >= 0 && l1 >= 0 { return (l0, l1) }
        if b0 > 0 && k12 * (b0 / k11) >= b1 { return (b0 / k11, 0) }
        if b1 > 0 && k12 * (b1 / k22) >= b0 { return (0, b1 / k22) }
        return nil
    }

    func storeImpulses() {
        let cc = constraints, cp = points, ct = contacts
        for i in 0..<constraintCount {
            let k = cc[i]
            for j in 0..<k.pointCount {
                ct.points[2 * k.contact + j].normalImpulse = cp[2 * i + j].normalImpulse
                ct.points[2 * k.contact + j].tangentImpulse = cp[2 * i + j].tangentImpulse
            }
        }
    }
}
