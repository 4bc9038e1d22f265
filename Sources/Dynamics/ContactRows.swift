/// Four contact constraints side by side, solved together in `SIMD4<Float>` arithmetic (one
/// SSE or NEON register per quantity). The four never share a body that moves, so solving
/// them at once is solving them one after the other: `buildRows` picks them so. A lane with no
/// constraint, or a second point its manifold lacks, holds no impulse and no mass and changes
/// nothing. Bodies' poses and velocities stay in `Double`; a row reads its bodies' velocities
/// as `Float` and writes them back rounded.
struct ContactRow {
    /// The lanes' bodies; an empty lane repeats lane 0's.
    var a = SIMD4<Int32>(), b = SIMD4<Int32>()
    /// Bit `lane` set: that lane's body receives impulses (a static, sleeping or absent body
    /// only pushes).
    var movesA: UInt8 = 0, movesB: UInt8 = 0
    /// False when no lane has a second point: the row solves point 0 only.
    var twoPoints = false
    /// The row's points are `rowPoints[firstPoint]` and, when `twoPoints`, the one after:
    /// apart from the rows, so that a row of one-point manifolds streams no unused point.
    var firstPoint: Int32 = 0
    /// The contact and the constraint of each lane, −1 for an empty lane.
    var contact = SIMD4<Int32>(repeating: -1), constraint = SIMD4<Int32>(repeating: -1)
    var mA = Lanes(), iA = Lanes(), mB = Lanes(), iB = Lanes()
    var nx = Lanes(), ny = Lanes()
    var friction = Lanes()
    /// All ones in a lane whose contact is elastic (its impacts belong to `resolveImpacts`).
    var elastic = LaneMask()
    var biasRate = Lanes(), massScale = Lanes(), impulseScale = Lanes()
}

/// The rows' number type: `Double` here gives the same engine with four lanes in two
/// registers (no faster than rows of two; `LaneMask` then over `Int64`), for comparing results.
typealias Scalar = Float
typealias Lanes = SIMD4<Scalar>
typealias LaneMask = SIMDMask<SIMD4<Int32>>

/// A manifold point of the four lanes; the fields mean what `ConstraintPoint`'s do, except
/// `separation`: the point's separation at the step's start (the rows turn anchors by the
/// rotation since then minus one, which keeps the floor's long arms from cancelling in Float).
struct RowPoint {
    var leverA = Lanes(), leverB = Lanes(), reachA = Lanes(), reachB = Lanes()
    var separation = Lanes()
    var normalImpulse = Lanes(), tangentImpulse = Lanes()
    var normalMass = Lanes(), tangentMass = Lanes()
}

/// The velocities of a row's bodies, gathered into lanes.
private struct RowBodies {
    var vAx = Lanes(), vAy = Lanes(), wA = Lanes(), vBx = Lanes(), vBy = Lanes(), wB = Lanes()

    @inline(__always)
    init(_ motion: UnsafeMutablePointer<Motion>, _ row: UnsafeMutablePointer<ContactRow>) {
        let a = row.pointee.a, b = row.pointee.b
        let a0 = motion + Int(a[0]), a1 = motion + Int(a[1]), a2 = motion + Int(a[2]), a3 = motion + Int(a[3])
        let b0 = motion + Int(b[0]), b1 = motion + Int(b[1]), b2 = motion + Int(b[2]), b3 = motion + Int(b[3])
        vAx = Lanes(Scalar(a0.pointee.vx), Scalar(a1.pointee.vx), Scalar(a2.pointee.vx), Scalar(a3.pointee.vx))
        vAy = Lanes(Scalar(a0.pointee.vy), Scalar(a1.pointee.vy), Scalar(a2.pointee.vy), Scalar(a3.pointee.vy))
        wA = Lanes(Scalar(a0.pointee.w), Scalar(a1.pointee.w), Scalar(a2.pointee.w), Scalar(a3.pointee.w))
        vBx = Lanes(Scalar(b0.pointee.vx), Scalar(b1.pointee.vx), Scalar(b2.pointee.vx), Scalar(b3.pointee.vx))
        vBy = Lanes(Scalar(b0.pointee.vy), Scalar(b1.pointee.vy), Scalar(b2.pointee.vy), Scalar(b3.pointee.vy))
        wB = Lanes(Scalar(b0.pointee.w), Scalar(b1.pointee.w), Scalar(b2.pointee.w), Scalar(b3.pointee.w))
    }

    @inline(__always)
    func scatter(_ motion: UnsafeMutablePointer<Motion>, _ row: UnsafeMutablePointer<ContactRow>) {
        let movesA = row.pointee.movesA, movesB = row.pointee.movesB
        let a = row.pointee.a, b = row.pointee.b
        @inline(__always) func put(_ m: UnsafeMutablePointer<Motion>, _ vx: Scalar, _ vy: Scalar, _ w: Scalar) {
            m.pointee.vx = Double(vx); m.pointee.vy = Double(vy); m.pointee.w = Double(w)
        }
        if movesA & 1 != 0 { put(motion + Int(a[0]), vAx[0], vAy[0], wA[0]) }
        if movesA & 2 != 0 { put(motion + Int(a[1]), vAx[1], vAy[1], wA[1]) }
        if movesA & 4 != 0 { put(motion + Int(a[2]), vAx[2], vAy[2], wA[2]) }
        if movesA & 8 != 0 { put(motion + Int(a[3]), vAx[3], vAy[3], wA[3]) }
        if movesB & 1 != 0 { put(motion + Int(b[0]), vBx[0], vBy[0], wB[0]) }
        if movesB & 2 != 0 { put(motion + Int(b[1]), vBx[1], vBy[1], wB[1]) }
        if movesB & 4 != 0 { put(motion + Int(b[2]), vBx[2], vBy[2], wB[2]) }
        if movesB & 8 != 0 { put(motion + Int(b[3]), vBx[3], vBy[3], wB[3]) }
    }
}

/// max and min with one meaning on every CPU (x86's maxps and ARM's fmaxnm disagree on
/// signed zeros and NaN).
@inline(__always) private func larger(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: x .< y) }
@inline(__always) private func smaller(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .< x) }

/// One row's solve: its bodies' velocities and the motion since the step began (computed
/// per pass), its constants read from the row; `normal` and `tangent` solve one point of
/// every lane. Without `useBias` (the relax pass) the soft terms drop out.
private struct RowSolve {
    var v: RowBodies
    let r: UnsafeMutablePointer<ContactRow>
    let shift: Lanes, cA: Lanes, sA: Lanes, cB: Lanes, sB: Lanes
    let invH: Lanes, maxPush: Lanes, approach: Lanes

    @inline(__always)
    mutating func normal(_ p: UnsafeMutablePointer<RowPoint>, useBias: Bool) {
        let zero = Lanes(), one = Lanes(repeating: 1)
        let nx = r.pointee.nx, ny = r.pointee.ny
        let leverA = p.pointee.leverA, leverB = p.pointee.leverB
        let s = shift + ((cB * p.pointee.reachB + sB * leverB) - (cA * p.pointee.reachA + sA * leverA)) + p.pointee.separation
        let vn = (v.vBx - v.vAx) * nx + (v.vBy - v.vAy) * ny + v.wB * leverB - v.wA * leverA
        // Speculative (s > 0): may close the gap, no more. An elastic impact about to happen is
        // left to `resolveImpacts` of the next substep, which needs the approach speed intact.
        let speculative = s .> zero
        let old = p.pointee.normalImpulse
        let solved: Lanes
        if useBias {
            // Touching points: the soft bias.
            let bias = larger(r.pointee.biasRate * s, maxPush).replacing(with: s * invH, where: speculative)
            let pointMassScale = r.pointee.massScale.replacing(with: one, where: speculative)
            let pointImpulseScale = r.pointee.impulseScale.replacing(with: zero, where: speculative)
            solved = larger(old - p.pointee.normalMass * pointMassScale * (vn + bias) - pointImpulseScale * old, zero)
        } else {
            let bias = zero.replacing(with: s * invH, where: speculative)
            let untouched = r.pointee.elastic .& speculative .& (vn .< approach)
            solved = larger(old - p.pointee.normalMass * (vn + bias), zero).replacing(with: old, where: untouched)
        }
        let impulse = solved - old
        p.pointee.normalImpulse = solved
        let Px = impulse * nx, Py = impulse * ny
        let mA = r.pointee.mA, mB = r.pointee.mB
        v.vAx -= mA * Px; v.vAy -= mA * Py; v.wA -= r.pointee.iA * impulse * leverA
        v.vBx += mB * Px; v.vBy += mB * Py; v.wB += r.pointee.iB * impulse * leverB
    }

    @inline(__always)
    mutating func tangent(_ p: UnsafeMutablePointer<RowPoint>) {
        let zero = Lanes()
        let nx = r.pointee.nx, ny = r.pointee.ny
        let reachA = p.pointee.reachA, reachB = p.pointee.reachB
        // Along the tangent (ny, −nx), whose arms are −reach.
        let vt = (v.vBx - v.vAx) * ny - (v.vBy - v.vAy) * nx - v.wB * reachB + v.wA * reachA
        let maxFriction = r.pointee.friction * p.pointee.normalImpulse
        let old = p.pointee.tangentImpulse
        let newImpulse = smaller(larger(old - p.pointee.tangentMass * vt, zero - maxFriction), maxFriction)
        let impulse = newImpulse - old
        p.pointee.tangentImpulse = newImpulse
        let Px = impulse * ny, Py = zero - impulse * nx
        let mA = r.pointee.mA, mB = r.pointee.mB
        v.vAx -= mA * Px; v.vAy -= mA * Py; v.wA += r.pointee.iA * impulse * reachA
        v.vBx += mB * Px; v.vBy += mB * Py; v.wB -= r.pointee.iB * impulse * reachB
    }
}

extension DynamicsWorld {
    /// Groups the prepared constraints into rows of four without changing what sequential
    /// Gauss-Seidel in constraint order computes: constraint `i` takes as partners the first
    /// later ones (within a short look-ahead) that share no moving body with `i`, with each
    /// other, nor with any constraint they jump over, so solving them at once equals solving
    /// them in order. Partners with as many points as `i` are preferred (a row of one-point
    /// manifolds skips the second point); others free when met fill what is left. Colouring
    /// would group more, but reorders the solve, and a stack converges worse in colour order.
    func buildRows() {
        let cc = constraints.base, cp = points.base
        let n = constraintCount
        constraintPlaced.reserve(n)
        let placed = constraintPlaced.base
        // Per body: the constraint whose partner search last blocked it (plus one); a body is
        // blocked when it moves in `i`, in a partner, or in a constraint a partner would jump over.
        pairingBlock.reserve(bodies.count)
        let blockedBy = pairingBlock.base
        for i in 0..<n {
            placed[i] = false
            blockedBy[Int(cc[i].a)] = 0; blockedBy[Int(cc[i].b)] = 0
        }
        rows.reserve(n)
        rowPoints.reserve(2 * n)
        let rowBase = rows.base, pointBase = rowPoints.base
        let lookAhead = 32
        var next = 0, pointCount = 0
        for i in 0..<n where !placed[i] {
            placed[i] = true
            let search = Int32(i + 1)
            @inline(__always) func block(_ k: UnsafeMutablePointer<ContactConstraint>) {
                if k.pointee.movesA { blockedBy[Int(k.pointee.a)] = search }
                if k.pointee.movesB { blockedBy[Int(k.pointee.b)] = search }
            }
            @inline(__always) func isFree(_ body: Int32, _ moves: Bool) -> Bool {
                !moves || blockedBy[Int(body)] != search
            }
            let k = cc + i
            block(k)
            var lanes = SIMD4<Int32>(Int32(i), -1, -1, -1), filled = 1
            // Free when met but with another point count: taken only if lanes stay empty.
            var others = SIMD4<Int32>(repeating: -1), otherCount = 0
            var j = i + 1
            while j < n && j <= i + lookAhead && filled < 4 {
                if !placed[j] {
                    let candidate = cc + j
                    if isFree(candidate.pointee.a, candidate.pointee.movesA) && isFree(candidate.pointee.b, candidate.pointee.movesB) {
                        if candidate.pointee.pointCount == k.pointee.pointCount {
                            lanes[filled] = Int32(j); filled += 1
                        } else if otherCount < 3 {
                            others[otherCount] = Int32(j); otherCount += 1
                        }
                    }
                    // Later partners must commute with this one too, whether it joins the row
                    // or is jumped over (a constraint free when met commutes with all before it).
                    block(candidate)
                }
                j += 1
            }
            var o = 0
            while filled < 4 && o < otherCount { lanes[filled] = others[o]; filled += 1; o += 1 }
            for lane in 1..<filled { placed[Int(lanes[lane])] = true }
            fillRow(rowBase + next, cc, cp, lanes, pointBase, &pointCount)
            next += 1
        }
        contactRowCount = next
    }

    /// Fills row `r` with the constraints `lanes` (−1: an empty lane, which repeats lane 0's
    /// bodies and has no mass and no point).
    private func fillRow(_ r: UnsafeMutablePointer<ContactRow>, _ cc: UnsafeMutablePointer<ContactConstraint>,
                         _ cp: UnsafeMutablePointer<ConstraintPoint>, _ lanes: SIMD4<Int32>,
                         _ pointBase: UnsafeMutablePointer<RowPoint>, _ rowPointCount: inout Int) {
        let first = cc[Int(lanes[0])]
        @inline(__always) func constraint(_ lane: Int) -> ContactConstraint {
            if lanes[lane] >= 0 { return cc[Int(lanes[lane])] }
            var blank = ContactConstraint()
            blank.a = first.a; blank.b = first.b; blank.contact = -1
            return blank
        }
        let k0 = first, k1 = constraint(1), k2 = constraint(2), k3 = constraint(3)
        @inline(__always) func gather(_ value: (ContactConstraint) -> Double) -> Lanes {
            Lanes(Scalar(value(k0)), Scalar(value(k1)), Scalar(value(k2)), Scalar(value(k3)))
        }
        @inline(__always) func bit(_ moves: Bool, _ lane: Int) -> UInt8 { moves ? UInt8(1 << lane) : 0 }
        var row = ContactRow()
        row.a = SIMD4(k0.a, k1.a, k2.a, k3.a); row.b = SIMD4(k0.b, k1.b, k2.b, k3.b)
        row.movesA = bit(k0.movesA, 0) | bit(k1.movesA, 1) | bit(k2.movesA, 2) | bit(k3.movesA, 3)
        row.movesB = bit(k0.movesB, 0) | bit(k1.movesB, 1) | bit(k2.movesB, 2) | bit(k3.movesB, 3)
        row.contact = SIMD4(k0.contact, k1.contact, k2.contact, k3.contact)
        row.constraint = lanes
        row.mA = gather { $0.mA }; row.iA = gather { $0.iA }; row.mB = gather { $0.mB }; row.iB = gather { $0.iB }
        row.nx = gather { $0.nx }; row.ny = gather { $0.ny }
        row.friction = gather { $0.friction }
        row.elastic = gather { $0.restitution } .> Lanes()
        row.biasRate = gather { $0.soft.biasRate }
        row.massScale = gather { $0.soft.massScale }
        row.impulseScale = gather { $0.soft.impulseScale }
        let twoPoints = k0.pointCount == 2 || k1.pointCount == 2 || k2.pointCount == 2 || k3.pointCount == 2
        row.twoPoints = twoPoints
        row.firstPoint = Int32(rowPointCount)
        r.pointee = row
        @inline(__always) func fill(_ q: UnsafeMutablePointer<RowPoint>, _ j: Int) {
            // A lane's point, or none (all zeros) where its manifold lacks it.
            @inline(__always) func point(_ lane: Int, _ k: ContactConstraint) -> ConstraintPoint {
                j < Int(k.pointCount) ? cp[2 * Int(lanes[lane]) + j] : ConstraintPoint()
            }
            let p0 = point(0, k0), p1 = point(1, k1), p2 = point(2, k2), p3 = point(3, k3)
            @inline(__always) func gather(_ value: (ConstraintPoint) -> Double) -> Lanes {
                Lanes(Scalar(value(p0)), Scalar(value(p1)), Scalar(value(p2)), Scalar(value(p3)))
            }
            q.pointee = RowPoint(leverA: gather { $0.leverA }, leverB: gather { $0.leverB },
                                 reachA: gather { $0.reachA }, reachB: gather { $0.reachB },
                                 separation: gather { $0.baseSeparation + ($0.reachB - $0.reachA) },
                                 normalImpulse: gather { $0.normalImpulse }, tangentImpulse: gather { $0.tangentImpulse },
                                 normalMass: gather { $0.normalMass }, tangentMass: gather { $0.tangentMass })
        }
        let points = pointBase + rowPointCount
        fill(points, 0)
        if twoPoints { fill(points + 1, 1) }
        rowPointCount += twoPoints ? 2 : 1
    }

    func warmStartRows() {
        let motion = bodies.motion.base
        for i in 0..<contactRowCount {
            let r = rows.base + i
            var v = RowBodies(motion, r)
            let points = rowPoints.base + Int(r.pointee.firstPoint)
            let p0 = points[0]
            var normal = p0.normalImpulse, tangent = p0.tangentImpulse
            var turnA = p0.normalImpulse * p0.leverA - p0.tangentImpulse * p0.reachA
            var turnB = p0.normalImpulse * p0.leverB - p0.tangentImpulse * p0.reachB
            if r.pointee.twoPoints {
                let p1 = points[1]
                normal += p1.normalImpulse; tangent += p1.tangentImpulse
                turnA += p1.normalImpulse * p1.leverA - p1.tangentImpulse * p1.reachA
                turnB += p1.normalImpulse * p1.leverB - p1.tangentImpulse * p1.reachB
            }
            let nx = r.pointee.nx, ny = r.pointee.ny
            let Px = normal * nx + tangent * ny, Py = normal * ny - tangent * nx
            let mA = r.pointee.mA, mB = r.pointee.mB
            v.vAx -= mA * Px; v.vAy -= mA * Py; v.wA -= r.pointee.iA * turnA
            v.vBx += mB * Px; v.vBy += mB * Py; v.wB += r.pointee.iB * turnB
            v.scatter(motion, r)
        }
    }

    /// `flip` alternates the order of a manifold's two points between passes, so that
    /// Gauss-Seidel favours neither side (otherwise a stack creeps sideways).
    func solveRows(_ hs: Double, useBias: Bool, flip: Bool) {
        // Two copies, each with `useBias` constant: the relax pass drops the soft terms.
        if useBias { solveRowsInline(hs, useBias: true, flip: flip) } else { solveRowsInline(hs, useBias: false, flip: flip) }
    }

    @inline(__always)
    private func solveRowsInline(_ hs: Double, useBias: Bool, flip: Bool) {
        let motion = bodies.motion.base
        let invH = Lanes(repeating: Scalar(1 / hs))
        let maxPush = Lanes(repeating: Scalar(-tuning.maxPushoutSpeed))
        let approach = Lanes(repeating: Scalar(-tuning.restitutionThreshold))
        for i in 0..<contactRowCount {
            let r = rows.base + i
            // The motion since the step began: the bodies' relative shift (in Double, then
            // rounded) and their turns as (cos − 1, sin), small numbers that Float keeps well.
            let a = r.pointee.a, b = r.pointee.b
            let a0 = motion + Int(a[0]), a1 = motion + Int(a[1]), a2 = motion + Int(a[2]), a3 = motion + Int(a[3])
            let b0 = motion + Int(b[0]), b1 = motion + Int(b[1]), b2 = motion + Int(b[2]), b3 = motion + Int(b[3])
            let dx = Lanes(Scalar(b0.pointee.dpx - a0.pointee.dpx), Scalar(b1.pointee.dpx - a1.pointee.dpx),
                           Scalar(b2.pointee.dpx - a2.pointee.dpx), Scalar(b3.pointee.dpx - a3.pointee.dpx))
            let dy = Lanes(Scalar(b0.pointee.dpy - a0.pointee.dpy), Scalar(b1.pointee.dpy - a1.pointee.dpy),
                           Scalar(b2.pointee.dpy - a2.pointee.dpy), Scalar(b3.pointee.dpy - a3.pointee.dpy))
            let cA = Lanes(Scalar(a0.pointee.dqc - 1), Scalar(a1.pointee.dqc - 1), Scalar(a2.pointee.dqc - 1), Scalar(a3.pointee.dqc - 1))
            let sA = Lanes(Scalar(a0.pointee.dqs), Scalar(a1.pointee.dqs), Scalar(a2.pointee.dqs), Scalar(a3.pointee.dqs))
            let cB = Lanes(Scalar(b0.pointee.dqc - 1), Scalar(b1.pointee.dqc - 1), Scalar(b2.pointee.dqc - 1), Scalar(b3.pointee.dqc - 1))
            let sB = Lanes(Scalar(b0.pointee.dqs), Scalar(b1.pointee.dqs), Scalar(b2.pointee.dqs), Scalar(b3.pointee.dqs))
            let shift = dx * r.pointee.nx + dy * r.pointee.ny
            var row = RowSolve(v: RowBodies(motion, r), r: r, shift: shift, cA: cA, sA: sA, cB: cB, sB: sB,
                               invH: invH, maxPush: maxPush, approach: approach)
            let points = rowPoints.base + Int(r.pointee.firstPoint)
            if !r.pointee.twoPoints {
                row.normal(points, useBias: useBias)
                row.tangent(points)
            } else if flip {
                row.normal(points + 1, useBias: useBias); row.normal(points, useBias: useBias)
                row.tangent(points + 1); row.tangent(points)
            } else {
                row.normal(points, useBias: useBias); row.normal(points + 1, useBias: useBias)
                row.tangent(points); row.tangent(points + 1)
            }
            row.v.scatter(motion, r)
        }
    }

    /// Marks each constraint whose contact is elastic and has a point closing at the
    /// restitution threshold or faster; true when there is one. In `Double`, as
    /// `resolveImpacts` tests, so that what it skips is exactly what it would not change.
    func markApproachingContacts() -> Bool {
        let motion = bodies.motion.base
        let cc = constraints.base, cp = points.base
        constraintApproaching.reserve(constraintCount)
        let approaching = constraintApproaching.base
        let threshold = tuning.restitutionThreshold
        var any = false
        for i in 0..<constraintCount {
            let k = cc + i
            approaching[i] = false
            if k.pointee.restitution == 0 { continue }
            let mA = motion + Int(k.pointee.a), mB = motion + Int(k.pointee.b)
            let dvn = (mB.pointee.vx - mA.pointee.vx) * k.pointee.nx + (mB.pointee.vy - mA.pointee.vy) * k.pointee.ny
            let p = cp + 2 * i
            var closing = dvn + mB.pointee.w * p[0].leverB - mA.pointee.w * p[0].leverA <= -threshold
            if k.pointee.pointCount > 1 {
                closing = closing || dvn + mB.pointee.w * p[1].leverB - mA.pointee.w * p[1].leverA <= -threshold
            }
            approaching[i] = closing
            any = any || closing
        }
        return any
    }

    /// The accumulated impulses back to the persistent contacts, to warm-start the next step.
    func storeRowImpulses() {
        let ct = contacts
        for i in 0..<contactRowCount {
            let r = rows.base + i
            let points = rowPoints.base + Int(r.pointee.firstPoint)
            for lane in 0..<4 {
                let c = Int(r.pointee.contact[lane])
                if c < 0 { continue }
                ct.points[2 * c].normalImpulse = Double(points[0].normalImpulse[lane])
                ct.points[2 * c].tangentImpulse = Double(points[0].tangentImpulse[lane])
                if ct[c].pointCount > 1 {
                    ct.points[2 * c + 1].normalImpulse = Double(points[1].normalImpulse[lane])
                    ct.points[2 * c + 1].tangentImpulse = Double(points[1].tangentImpulse[lane])
                }
            }
        }
    }
}
