import Geometry

/// For `resolveImpacts`: which constraints each body takes part in (built once a step, when
/// impacts are first looked for), and the constraints its passes have yet to look at, one bit
/// each.
struct ImpactWorklist {
    var start = Storage<Int32>(capacity: 64, fill: 0)
    var adjacent = Storage<Int32>(capacity: 256, fill: 0)
    var current = Storage<UInt64>(capacity: 16, fill: 0)
    var next = Storage<UInt64>(capacity: 16, fill: 0)
    /// Whether `start`/`adjacent` list this step's constraints (`prepareContacts` clears it).
    var isBuilt = false
    private var cursor = Storage<Int32>(capacity: 64, fill: 0)

    mutating func build(_ cc: UnsafeMutablePointer<ContactConstraint>, _ n: Int, bodies: Int) {
        start.reserve(bodies + 1); cursor.reserve(bodies); adjacent.reserve(2 * n)
        current.reserve((n + 63) >> 6); next.reserve((n + 63) >> 6)
        for b in 0...bodies { start[b] = 0 }
        for i in 0..<n { start[Int(cc[i].a) + 1] += 1; start[Int(cc[i].b) + 1] += 1 }
        for b in 0..<bodies { start[b + 1] += start[b]; cursor[b] = start[b] }
        for i in 0..<n {
            let a = Int(cc[i].a), b = Int(cc[i].b)
            adjacent[Int(cursor[a])] = Int32(i); cursor[a] += 1
            adjacent[Int(cursor[b])] = Int32(i); cursor[b] += 1
        }
        isBuilt = true
    }

    func release() { start.release(); adjacent.release(); current.release(); next.release(); cursor.release() }
}

struct ContactConstraint {
    var a: Int32 = 0, b: Int32 = 0, contact: Int32 = 0, pointCount: Int32 = 0
    /// The bodies' slots in `solverBodies`.
    var sa: Int32 = 0, sb: Int32 = 0
    var mA = 0.0, iA = 0.0, mB = 0.0, iB = 0.0
    var nx = 0.0, ny = 0.0
    var friction = 0.0, restitution = 0.0
    var soft = Softness()
    /// Whether body A or B receives impulses (a static or sleeping body only pushes).
    var movesA = false, movesB = false
}

/// A manifold point as the solver sees it: its anchors only through their projections on the
/// contact normal, so that each pass multiplies scalars instead of rotating vectors.
/// With n the normal and t = (ny, −nx) the tangent: `leverA` = rA × n (a normal impulse's
/// torque arm), `reachA` = rA · n (−rA × t, the tangent arm), likewise for B.
struct ConstraintPoint {
    var leverA = 0.0, leverB = 0.0, reachA = 0.0, reachB = 0.0
    /// Separation at the step start minus the anchors' offset along the normal; adding the
    /// bodies' motion since then gives the current separation.
    var baseSeparation = 0.0
    var normalImpulse = 0.0, tangentImpulse = 0.0
    var normalMass = 0.0, tangentMass = 0.0
}

/// The separation of a point now, from the motion since the step began: a body turned by
/// (c, s) carries an anchor r to R·r, and R·r · n = c (r · n) + s (r × n).
@inline(__always)
func currentSeparation(_ p: UnsafeMutablePointer<ConstraintPoint>, _ shiftAlongNormal: Double,
                       _ cA: Double, _ sA: Double, _ cB: Double, _ sB: Double) -> Double {
    let pulledA = cA * p.pointee.reachA + sA * p.pointee.leverA
    let pulledB = cB * p.pointee.reachB + sB * p.pointee.leverB
    return shiftAlongNormal + (pulledB - pulledA) + p.pointee.baseSeparation
}

/// The soft step (Box2D v3): per substep integrate velocities, resolve elastic impacts, warm
/// start, solve with soft position bias, integrate positions, relax without bias.
extension DynamicsWorld {
    func solve(_ h: Double) {
        let hs = h / Double(substeps)
        loadSolverBodies()
        prepareContacts(hs)
        buildRows()
        prepareRolling()
        prepareJoints(h, hs)
        let bt = bodies
        let list = awakeList, n = awakeCount
        let state = solverBodies.base
        let maxSpeed = tuning.maxLinearSpeed, maxRotation = tuning.maxRotationPerSubstep / hs
        // Most items have no damping: then velocity integration skips two multiplications.
        var damped = false
        solverGains.reserve(n + 1)
        let gains = solverGains.base
        for b in 0..<n {
            let i = Int(list[b])
            let f = bt.forces[i]
            if f.linearDamping != 0 || f.angularDamping != 0 { damped = true }
            gains[b + 1] = SolverGain(vx: hs * f.ax, vy: hs * f.ay, w: hs * f.alpha, turns: bt.material[i].invI != 0)
        }
        let threshold = tuning.restitutionThreshold
        for sub in 0..<substeps {
            // Velocities; and bounds of every body's speed, for `resolveImpacts`.
            let (fastest, spin) = damped ? integrateVelocities(hs, damped: true, maxSpeed, maxRotation)
                : integrateVelocities(hs, damped: false, maxSpeed, maxRotation)
            // No point closes faster than its two bodies' speeds (moving ones: the fastest at
            // the longest lever): when that stays below the threshold (a pile at rest), there
            // is no impact to look for. (The 1 % covers rounding in the exact test; |n| = 1
            // only to rounding as well.)
            if 2.02 * max(fastest + spin * largestLever, pusherSpeed) >= threshold { resolveImpacts(hs) }
            warmStartJoints()
            warmStartRows()
            solveJoints(hs, remaining: Double(substeps - sub) * hs, useBias: true)
            solveRows(hs, useBias: true, flip: sub % 2 == 1)
            // Positions.
            for k in 0..<n {
                let i = Int(list[k])
                let m = state + (k + 1)
                let vx = m.pointee.vx, vy = m.pointee.vy, w = m.pointee.w
                bt.pose[i].x += hs * vx; bt.pose[i].y += hs * vy
                m.pointee.dpx += hs * vx; m.pointee.dpy += hs * vy
                bt.pose[i].angle += hs * w
                let c = m.pointee.dqc, s = m.pointee.dqs
                let c2 = c - hs * w * s, s2 = s + hs * w * c
                let inv = 1 / (c2 * c2 + s2 * s2).squareRoot()
                m.pointee.dqc = c2 * inv; m.pointee.dqs = s2 * inv
            }
            solveJoints(hs, remaining: Double(substeps - sub) * hs, useBias: false)
            // Rolling resistance before the rows, so that the contacts have the last word.
            solveRolling()
            solveRows(hs, useBias: false, flip: sub % 2 == 0)
        }
        storeRowImpulses()
        storeJointImpulses()
        let slot = solverSlot.base
        for k in 0..<n {
            let i = Int(list[k])
            (bt.pose[i].sinA, bt.pose[i].cosA) = portableSinCos(bt.pose[i].angle)
            let m = state + (k + 1)
            bt.motion[i].vx = m.pointee.vx; bt.motion[i].vy = m.pointee.vy; bt.motion[i].w = m.pointee.w
            slot[i] = 0
        }
        for b in stillMovers { slot[b] = 0 }
        stillMovers.removeAll(keepingCapacity: true)
    }

    /// The awake bodies' velocities into slots 1...n of `solverBodies`, at rest in place
    /// (no motion since the step began yet); slot 0 holds the still body, and stands for every
    /// other body. A body that does not move this step has no velocity (sleep and anchoring
    /// zero it); should one have some, it gets a slot of its own, which rows store into only
    /// after testing (`ContactRow.storesFreely`).
    func loadSolverBodies() {
        let n = awakeCount
        solverBodies.reserve(n + 1)
        solverSlot.reserve(bodies.count)
        let state = solverBodies.base, slot = solverSlot.base, list = awakeList.base, motion = bodies.motion.base
        state[0] = SolverBody()
        for k in 0..<n {
            let i = Int(list[k])
            slot[i] = Int32(k + 1)
            state[k + 1] = SolverBody(motion[i])
        }
        solverBodyCount = n + 1
        for b in 0..<bodies.count where slot[b] == 0 {
            let m = motion[b]
            if _fastPath(m.vx.bitPattern | m.vy.bitPattern | m.w.bitPattern == 0) { continue }
            solverBodies.reserve(solverBodyCount + 1)
            solverBodies[solverBodyCount] = SolverBody(m)
            solverSlot[b] = Int32(solverBodyCount)
            solverBodyCount += 1
            stillMovers.append(b)
        }
    }

    /// Gravity, pushes and damping into every awake body's velocity, within the speed limits;
    /// returns the largest |vx| + |vy| and |w|. `damped` false: no body has damping.
    @inline(__always)
    private func integrateVelocities(_ hs: Double, damped: Bool, _ maxSpeed: Double, _ maxRotation: Double) -> (Double, Double) {
        let list = awakeList.base, n = awakeCount
        let state = solverBodies.base, gains = solverGains.base, forces = bodies.forces.base
        var fastest = 0.0, spin = 0.0
        for k in 0..<n {
            let m = state + (k + 1), g = gains + (k + 1)
            var vx = m.pointee.vx + g.pointee.vx, vy = m.pointee.vy + g.pointee.vy
            var w = m.pointee.w + g.pointee.w
            if damped {
                let f = forces + Int(list[k])
                let ld = f.pointee.linearDamping == 0 ? 1 : 1 / (1 + hs * f.pointee.linearDamping)
                let ad = f.pointee.angularDamping == 0 ? 1 : 1 / (1 + hs * f.pointee.angularDamping)
                vx *= ld; vy *= ld; w *= ad
            }
            let v2 = vx * vx + vy * vy
            if _slowPath(v2 > maxSpeed * maxSpeed) { let f = maxSpeed / v2.squareRoot(); vx *= f; vy *= f }
            if !g.pointee.turns { w = 0 } else if abs(w) > maxRotation { w = w > 0 ? maxRotation : -maxRotation }
            m.pointee.vx = vx; m.pointee.vy = vy; m.pointee.w = w
            fastest = max(fastest, abs(vx) + abs(vy)); spin = max(spin, abs(w))
        }
        return (fastest, spin)
    }

    func prepareContacts(_ hs: Double) {
        impactWork.isBuilt = false
        let ct = contacts, bt = bodies
        constraints.reserve(ct.count)
        points.reserve(2 * ct.count)
        let cc = constraints, cp = points
        let contactSoft = Softness(hertz: min(tuning.contactHertz, 0.25 / hs), dampingRatio: tuning.contactDampingRatio, h: hs)
        let staticSoft = Softness(hertz: 2 * min(tuning.contactHertz, 0.25 / hs), dampingRatio: tuning.contactDampingRatio, h: hs)
        var count = 0
        var lever = 0.0, pushSpeed = 0.0
        let slot = solverSlot.base
        for c in 0..<ct.count {
            let contact = ct[c]
            let pc = contact.pointCount
            if pc == 0 { continue }
            let a = Int(contact.a), b = Int(contact.b)
            let activeA = bt.slot[a].isActive, activeB = bt.slot[b].isActive
            if !activeA && !activeB { continue }
            var k = ContactConstraint()
            k.a = Int32(a); k.b = Int32(b); k.contact = Int32(c); k.pointCount = Int32(pc)
            k.sa = slot[a]; k.sb = slot[b]
            k.mA = activeA ? bt.material[a].invMass : 0; k.iA = activeA ? bt.material[a].invI : 0
            k.mB = activeB ? bt.material[b].invMass : 0; k.iB = activeB ? bt.material[b].invI : 0
            // A held item meets others as if no heavier than they are: the finger's drive
            // already supplies its push, and a heavy item would squeeze a light one through
            // a wall before the iterations converge.
            if activeA && activeB {
                if bt.slot[a].holdIndex >= 0 && k.mA < k.mB { let f = k.mB / k.mA; k.mA *= f; k.iA *= f }
                if bt.slot[b].holdIndex >= 0 && k.mB < k.mA { let f = k.mA / k.mB; k.mB *= f; k.iB *= f }
            }
            k.movesA = k.mA > 0 || k.iA > 0
            k.movesB = k.mB > 0 || k.iB > 0
            let nx = contact.nx, ny = contact.ny
            k.nx = nx; k.ny = ny
            k.friction = contact.friction; k.restitution = contact.restitution
            k.soft = (k.mA == 0 || k.mB == 0) ? staticSoft : contactSoft
            cc[count] = k
            for j in 0..<pc {
                let point = ct.points[2 * c + j]
                var p = ConstraintPoint()
                p.leverA = point.rAx * ny - point.rAy * nx
                p.leverB = point.rBx * ny - point.rBy * nx
                p.reachA = point.rAx * nx + point.rAy * ny
                p.reachB = point.rBx * nx + point.rBy * ny
                p.baseSeparation = point.separation - (p.reachB - p.reachA)
                p.normalImpulse = point.normalImpulse; p.tangentImpulse = point.tangentImpulse
                let kn = k.mA + k.mB + k.iA * p.leverA * p.leverA + k.iB * p.leverB * p.leverB
                p.normalMass = kn > 0 ? 1 / kn : 0
                let kt = k.mA + k.mB + k.iA * p.reachA * p.reachA + k.iB * p.reachB * p.reachB
                p.tangentMass = kt > 0 ? 1 / kt : 0
                cp[2 * count + j] = p
                // A moving body's arm counts toward `largestLever`; one that only pushes keeps
                // its velocity through the step: its point's own speed is the bound.
                if activeA { lever = max(lever, abs(p.leverA)) } else {
                    let m = bt.motion[a]; pushSpeed = max(pushSpeed, abs(m.vx) + abs(m.vy) + abs(m.w) * abs(p.leverA))
                }
                if activeB { lever = max(lever, abs(p.leverB)) } else {
                    let m = bt.motion[b]; pushSpeed = max(pushSpeed, abs(m.vx) + abs(m.vy) + abs(m.w) * abs(p.leverB))
                }
            }
            count += 1
        }
        constraintCount = count
        largestLever = lever; pusherSpeed = pushSpeed
    }

    /// Elastic impacts, before the soft solve: every contact about to close faster than the
    /// restitution threshold gets the pairwise impulse that reverses its approach (times the
    /// elasticity), repeated until no contact approaches. Collisions thus travel through a row
    /// of touching balls one pair at a time, as in a Newton's cradle, instead of being smeared.
    /// Against an immovable body the time of impact within the substep is honoured, so bounce
    /// heights do not depend on where the step boundaries fall. The two points of a face that
    /// lands flat are one impact: their impulses are solved together (`blockImpulses`), since
    /// one after the other the first alone would set the body spinning.
    ///
    /// After the first pass only constraints with a body that an impulse changed since the
    /// previous pass are looked at again: the others would find what they found then. The
    /// first pass skips, likewise, the constraints that `markApproachingContacts` found not
    /// approaching, whose bodies no impulse has changed yet. The constraints to look at are
    /// kept as bits (`ImpactWorklist`), set from each changed body's constraints, so a pass
    /// visits only those, in constraint order, instead of testing every constraint.
    func resolveImpacts(_ hs: Double) {
        let cc = constraints.base, cp = points.base, bt = bodies
        let motion = solverBodies.base
        let threshold = tuning.restitutionThreshold
        // Two points meeting within this much of each other land together (a face at most a
        // slop off flat), as Box2D's manifold treats points within the slop as touching.
        let together = tuning.linearSlop
        // Nothing to do unless some point of an elastic contact closes faster than the
        // threshold (a pile at rest: none); the first pass looks at those only, and at the
        // contacts an impulse of this pass has changed.
        guard markApproachingContacts() else { return }
        // The still slot holds its zeros again should an impulse have been NaN.
        defer { motion[0] = SolverBody() }
        let approaching = constraintApproaching.base
        let n = constraintCount
        if !impactWork.isBuilt { impactWork.build(cc, n, bodies: bt.count) }
        let words = (n + 63) >> 6
        let start = impactWork.start.base, adjacent = impactWork.adjacent.base
        let current = impactWork.current.base, next = impactWork.next.base
        for w in 0..<words { current[w] = 0; next[w] = 0 }
        for i in 0..<n where approaching[i] { current[i >> 6] |= 1 << UInt64(i & 63) }
        /// The constraint being looked at.
        var examining = 0
        @inline(__always) func look(_ j: Int) {
            let bit: UInt64 = 1 << UInt64(j & 63)
            next[j >> 6] |= bit
            if j > examining { current[j >> 6] |= bit }
        }

        /// Point `p` of constraint `k` now: its approach speed `vn` (negative: closing), the
        /// separation `meet` it would have at the substep's end, the normal speed `target` it
        /// bounces off with and, against an immovable body, the `shift` along the normal that
        /// puts the mover where the continuous bounce would have it at the substep's end.
        @inline(__always)
        func impact(_ k: UnsafeMutablePointer<ContactConstraint>, _ p: UnsafeMutablePointer<ConstraintPoint>)
            -> (vn: Double, meet: Double, target: Double, shift: Double) {
            let nx = k.pointee.nx, ny = k.pointee.ny
            let mA = motion[Int(k.pointee.sa)], mB = motion[Int(k.pointee.sb)]
            let vn = (mB.vx - mA.vx) * nx + (mB.vy - mA.vy) * ny + mB.w * p.pointee.leverB - mA.w * p.pointee.leverA
            if vn > -threshold { return (vn, 0, 0, 0) }
            let shiftAlongNormal = (mB.dpx - mA.dpx) * nx + (mB.dpy - mA.dpy) * ny
            let s = currentSeparation(p, shiftAlongNormal, mA.dqc, mA.dqs, mB.dqc, mB.dqs)
            let e = k.pointee.restitution
            let u = -vn
            let immovableA = !k.pointee.movesA, immovableB = !k.pointee.movesB
            guard immovableA != immovableB && s > 0 else { return (vn, s + vn * hs, e * u, 0) }
            // Time of impact inside the substep, with the external acceleration along the
            // normal: bounce exactly as the continuous motion would.
            let mover = Int(immovableA ? k.pointee.b : k.pointee.a)
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

        /// Applies normal impulses `l0`, `l1` at the first two points `p` of `k` and moves the
        /// mover by `shift` along the normal (positive: apart).
        func apply(_ k: UnsafeMutablePointer<ContactConstraint>, _ p: UnsafeMutablePointer<ConstraintPoint>,
                   _ l0: Double, _ l1: Double, shift: Double) {
            let a = Int(k.pointee.a), b = Int(k.pointee.b), nx = k.pointee.nx, ny = k.pointee.ny
            let sa = Int(k.pointee.sa), sb = Int(k.pointee.sb)
            let mA = k.pointee.mA, iA = k.pointee.iA, mB = k.pointee.mB, iB = k.pointee.iB
            for j in 0..<2 {
                let impulse = j == 0 ? l0 : l1
                if impulse == 0 { continue }
                let Px = impulse * nx, Py = impulse * ny
                motion[sa].vx -= mA * Px; motion[sa].vy -= mA * Py; motion[sa].w -= iA * impulse * p[j].leverA
                motion[sb].vx += mB * Px; motion[sb].vy += mB * Py; motion[sb].w += iB * impulse * p[j].leverB
            }
            if shift != 0 {
                let immovableA = !k.pointee.movesA
                let mover = immovableA ? b : a, moverSlot = immovableA ? sb : sa
                let sign = immovableA ? 1.0 : -1.0
                bt.pose[mover].x += sign * shift * nx; bt.pose[mover].y += sign * shift * ny
                motion[moverSlot].dpx += sign * shift * nx; motion[moverSlot].dpy += sign * shift * ny
            }
            // Every constraint of the two bodies is looked at in the next pass, and the later
            // ones in this pass as well.
            for e in Int(start[a])..<Int(start[a + 1]) { look(Int(adjacent[e])) }
            for e in Int(start[b])..<Int(start[b + 1]) { look(Int(adjacent[e])) }
            contacts[Int(k.pointee.contact)].impact = true
        }

        var pass: Int32 = 0
        while pass < 8 {
            pass += 1
            var applied = false
            // The constraints in `current`, in order; `apply` adds later ones as it goes.
            var w = 0, bits = words > 0 ? current[0] : 0
            while true {
                if bits == 0 {
                    w += 1
                    if w >= words { break }
                    bits = current[w]
                    continue
                }
                let i = (w << 6) + bits.trailingZeroBitCount
                current[w] &= ~(1 << UInt64(i & 63))
                examining = i
                defer { bits = current[w] }
                let k = cc + i
                if k.pointee.restitution == 0 { continue }
                let p = cp + 2 * i
                if k.pointee.pointCount == 2 {
                    let i0 = impact(k, p), i1 = impact(k, p + 1)
                    if i0.vn <= -threshold && i1.vn <= -threshold
                        && min(i0.meet, i1.meet) <= 0 && max(i0.meet, i1.meet) <= together,
                       let l = blockImpulses(k, p, need: (i0.target - i0.vn, i1.target - i1.vn)),
                       l.0 + l.1 > 0 {
                        // One rigid shift for the body: the points' own, weighted by their share
                        // of the impact (equal when the face is flat).
                        let shift = (l.0 * i0.shift + l.1 * i1.shift) / (l.0 + l.1)
                        apply(k, p, l.0, l.1, shift: shift)
                        applied = true
                        continue
                    }
                    if i0.vn > -threshold && i1.vn > -threshold { continue }
                }
                // One point at a time (a corner, or a face whose block solution does not hold).
                for j in 0..<Int(k.pointee.pointCount) {
                    let q = impact(k, p + j)
                    if q.vn > -threshold || q.meet > 0 { continue }   // not closing, or does not meet this substep
                    let impulse = p[j].normalMass * (q.target - q.vn)
                    apply(k, p, j == 0 ? impulse : 0, j == 1 ? impulse : 0, shift: q.shift)
                    applied = true
                }
            }
            if !applied { break }
            // `current` is empty now: the next pass's constraints take its place.
            for w in 0..<words { current[w] = next[w]; next[w] = 0 }
        }
    }

    /// Box2D 2.x's block solver for the restitution impulses of a two-point manifold: the
    /// impulses λ ≥ 0 such that each point's normal speed rises by at least `need` (exactly,
    /// where its λ > 0): the 2×2 linear complementarity problem with the effective-mass matrix,
    /// tried as both points pushing, then the first alone, then the second alone. Nil when the
    /// matrix is ill-conditioned (the points act as one: no turning, or coincident) or no case
    /// holds; one point at a time is exact then.
    func blockImpulses(_ k: UnsafeMutablePointer<ContactConstraint>, _ p: UnsafeMutablePointer<ConstraintPoint>,
                       need: (Double, Double)) -> (Double, Double)? {
        let rnA0 = p[0].leverA, rnB0 = p[0].leverB, rnA1 = p[1].leverA, rnB1 = p[1].leverB
        let iA = k.pointee.iA, iB = k.pointee.iB
        let m = k.pointee.mA + k.pointee.mB
        let k11 = m + iA * rnA0 * rnA0 + iB * rnB0 * rnB0
        let k22 = m + iA * rnA1 * rnA1 + iB * rnB1 * rnB1
        let k12 = m + iA * rnA0 * rnA1 + iB * rnB0 * rnB1
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
}
