/// Two contact constraints side by side, solved together with `SIMD2<Double>` arithmetic
/// (one SSE2 or NEON register per quantity). The two never share a body that moves, so
/// solving them at once is solving one after the other: `buildRows` pairs them so. A lane
/// with no constraint, or a second point a manifold lacks, holds no impulse and no point
/// and changes nothing.
struct ContactRow {
    /// The lanes' bodies' slots in `solverBodies` (the still slot 0 for an empty lane).
    var a: (Int32, Int32) = (0, 0), b: (Int32, Int32) = (0, 0)
    /// Which lanes' bodies receive impulses (a static, sleeping or absent body only pushes).
    var movesA: (Bool, Bool) = (false, false), movesB: (Bool, Bool) = (false, false)
    /// Every lane's body moves or is the still slot: the row stores all four without a test
    /// (what a lane stores into the still slot is the zero it read).
    var storesFreely = false
    /// False when neither lane has a second point: the row solves point 0 only.
    var twoPoints = false
    /// The row's points are `rowPoints[firstPoint]` and, when `twoPoints`, the one after:
    /// apart from the rows, so that a row of one-point manifolds streams no unused point.
    /// (Up here with the other small fields: the row packs into 224 bytes, not 240.)
    var firstPoint: Int32 = 0
    /// The contact and the constraint of each lane, −1 for an empty lane.
    var contact: (Int32, Int32) = (-1, -1)
    var constraint: (Int32, Int32) = (-1, -1)
    var mA = Wide(), iA = Wide(), mB = Wide(), iB = Wide()
    var nx = Wide(), ny = Wide()
    var friction = Wide()
    /// All ones in a lane whose contact is elastic (its impacts belong to `resolveImpacts`).
    var elastic = SIMDMask<SIMD2<Int64>>()
    var biasRate = Wide(), massScale = Wide(), impulseScale = Wide()
}

typealias Wide = SIMD2<Double>

/// A manifold point of both lanes; the fields mean what `ConstraintPoint`'s do.
struct RowPoint {
    var leverA = Wide(), leverB = Wide(), reachA = Wide(), reachB = Wide()
    var baseSeparation = Wide()
    var normalImpulse = Wide(), tangentImpulse = Wide()
    var normalMass = Wide(), tangentMass = Wide()
}

/// The bodies of a row's two lanes, gathered.
private struct RowBodies {
    var vAx = Wide(), vAy = Wide(), wA = Wide(), vBx = Wide(), vBy = Wide(), wB = Wide()

    @inline(__always)
    init(_ motion: UnsafeMutablePointer<SolverBody>, _ row: UnsafeMutablePointer<ContactRow>) {
        let a0 = Int(row.pointee.a.0), a1 = Int(row.pointee.a.1), b0 = Int(row.pointee.b.0), b1 = Int(row.pointee.b.1)
        vAx = Wide(motion[a0].vx, motion[a1].vx); vAy = Wide(motion[a0].vy, motion[a1].vy); wA = Wide(motion[a0].w, motion[a1].w)
        vBx = Wide(motion[b0].vx, motion[b1].vx); vBy = Wide(motion[b0].vy, motion[b1].vy); wB = Wide(motion[b0].w, motion[b1].w)
    }

    @inline(__always)
    func scatter(_ motion: UnsafeMutablePointer<SolverBody>, _ row: UnsafeMutablePointer<ContactRow>) {
        if _fastPath(row.pointee.storesFreely) {
            let a0 = Int(row.pointee.a.0), a1 = Int(row.pointee.a.1), b0 = Int(row.pointee.b.0), b1 = Int(row.pointee.b.1)
            motion[a0].vx = vAx[0]; motion[a0].vy = vAy[0]; motion[a0].w = wA[0]
            motion[a1].vx = vAx[1]; motion[a1].vy = vAy[1]; motion[a1].w = wA[1]
            motion[b0].vx = vBx[0]; motion[b0].vy = vBy[0]; motion[b0].w = wB[0]
            motion[b1].vx = vBx[1]; motion[b1].vy = vBy[1]; motion[b1].w = wB[1]
            return
        }
        if row.pointee.movesA.0 { let a = Int(row.pointee.a.0); motion[a].vx = vAx[0]; motion[a].vy = vAy[0]; motion[a].w = wA[0] }
        if row.pointee.movesA.1 { let a = Int(row.pointee.a.1); motion[a].vx = vAx[1]; motion[a].vy = vAy[1]; motion[a].w = wA[1] }
        if row.pointee.movesB.0 { let b = Int(row.pointee.b.0); motion[b].vx = vBx[0]; motion[b].vy = vBy[0]; motion[b].w = wB[0] }
        if row.pointee.movesB.1 { let b = Int(row.pointee.b.1); motion[b].vx = vBx[1]; motion[b].vy = vBy[1]; motion[b].w = wB[1] }
    }
}

/// max and min with one meaning on every CPU (x86's maxpd and ARM's fmaxnm disagree on
/// signed zeros and NaN).
@inline(__always) private func larger(_ x: Wide, _ y: Wide) -> Wide { x.replacing(with: y, where: x .< y) }
@inline(__always) private func smaller(_ x: Wide, _ y: Wide) -> Wide { x.replacing(with: y, where: y .< x) }

/// One row's solve: its bodies' velocities and the motion since the step began, gathered per
/// pass; its constants are read through the row's pointer where they are used (reloading
/// them costs less than keeping them all in registers, which spills). Without `useBias` (the
/// relax pass) the soft terms are constants that drop out.
private struct RowSolve {
    var v: RowBodies
    let r: UnsafeMutablePointer<ContactRow>
    let shift: Wide, cA: Wide, sA: Wide, cB: Wide, sB: Wide
    let invH: Wide, maxPush: Wide, approach: Wide

    @inline(__always)
    mutating func normal(_ p: UnsafeMutablePointer<RowPoint>, useBias: Bool) {
        let zero = Wide(), one = Wide(repeating: 1)
        // Touching points: the soft bias in the solve pass, none when relaxing.
        let biasRate = useBias ? r.pointee.biasRate : zero
        let massScale = useBias ? r.pointee.massScale : one
        let impulseScale = useBias ? r.pointee.impulseScale : zero
        let elastic = useBias ? SIMDMask<SIMD2<Int64>>() : r.pointee.elastic
        let nx = r.pointee.nx, ny = r.pointee.ny
        let s = shift + ((cB * p.pointee.reachB + sB * p.pointee.leverB) - (cA * p.pointee.reachA + sA * p.pointee.leverA)) + p.pointee.baseSeparation
        let vn = (v.vBx - v.vAx) * nx + (v.vBy - v.vAy) * ny + v.wB * p.pointee.leverB - v.wA * p.pointee.leverA
        // Speculative (s > 0): may close the gap, no more. An elastic impact about to happen is
        // left to `resolveImpacts` of the next substep, which needs the approach speed intact.
        let speculative = s .> zero
        let untouched = elastic .& speculative .& (vn .< approach)
        let bias = larger(biasRate * s, maxPush).replacing(with: s * invH, where: speculative)
        let pointMassScale = massScale.replacing(with: one, where: speculative)
        let pointImpulseScale = impulseScale.replacing(with: zero, where: speculative)
        let old = p.pointee.normalImpulse
        let solved = larger(old - p.pointee.normalMass * pointMassScale * (vn + bias) - pointImpulseScale * old, zero)
        let newImpulse = solved.replacing(with: old, where: untouched)
        let impulse = newImpulse - old
        p.pointee.normalImpulse = newImpulse
        let Px = impulse * nx, Py = impulse * ny
        let mA = r.pointee.mA, mB = r.pointee.mB
        v.vAx -= mA * Px; v.vAy -= mA * Py; v.wA -= r.pointee.iA * impulse * p.pointee.leverA
        v.vBx += mB * Px; v.vBy += mB * Py; v.wB += r.pointee.iB * impulse * p.pointee.leverB
    }

    @inline(__always)
    mutating func tangent(_ p: UnsafeMutablePointer<RowPoint>) {
        let zero = Wide()
        let nx = r.pointee.nx, ny = r.pointee.ny
        // Along the tangent (ny, −nx), whose arms are −reach.
        let vt = (v.vBx - v.vAx) * ny - (v.vBy - v.vAy) * nx - v.wB * p.pointee.reachB + v.wA * p.pointee.reachA
        let maxFriction = r.pointee.friction * p.pointee.normalImpulse
        let old = p.pointee.tangentImpulse
        let newImpulse = smaller(larger(old - p.pointee.tangentMass * vt, zero - maxFriction), maxFriction)
        let impulse = newImpulse - old
        p.pointee.tangentImpulse = newImpulse
        let Px = impulse * ny, Py = zero - impulse * nx
        let mA = r.pointee.mA, mB = r.pointee.mB
        v.vAx -= mA * Px; v.vAy -= mA * Py; v.wA += r.pointee.iA * impulse * p.pointee.reachA
        v.vBx += mB * Px; v.vBy += mB * Py; v.wB -= r.pointee.iB * impulse * p.pointee.reachB
    }
}

extension DynamicsWorld {
    /// Pairs the prepared constraints into rows without changing what sequential
    /// Gauss-Seidel in constraint order computes: constraint `i` takes as partner the first
    /// later one (within a short look-ahead) that shares no moving body with `i` nor with any
    /// constraint it jumps over, so solving the two at once equals solving them in order.
    /// A partner with as many points as `i` is preferred (a row of one-point manifolds skips
    /// the second point). Colouring would pair more, but reorders the solve, and a stack
    /// converges worse in colour order.
    ///
    /// The pairing depends only on each constraint's bodies, which of them move and its point
    /// count, in order: while those repeat from the step before (a pile at rest), last step's
    /// pairs are filled again without searching.
    func buildRows() {
        let cc = constraints.base, cp = points.base
        let n = constraintCount
        pairingKeys.reserve(n)
        let keys = pairingKeys.base
        var samePairing = n == pairedConstraintCount
        for i in 0..<n {
            let k = cc + i
            let key = SIMD2(UInt64(UInt32(bitPattern: k.pointee.a)) | UInt64(UInt32(bitPattern: k.pointee.b)) << 32,
                            UInt64(UInt32(bitPattern: k.pointee.pointCount)) | (k.pointee.movesA ? 1 << 32 : 0) | (k.pointee.movesB ? 1 << 33 : 0))
            if keys[i] != key { samePairing = false; keys[i] = key }
        }
        rows.reserve(n)
        rowPoints.reserve(2 * n)
        pairedRows.reserve(n)
        let pairs = pairedRows.base
        if samePairing {
            let rowBase = rows.base, pointBase = rowPoints.base
            var pointCount = 0
            for r in 0..<pairedRowCount {
                fillRow(rowBase + r, cc, cp, Int(pairs[r][0]), Int(pairs[r][1]), pointBase, &pointCount)
            }
            contactRowCount = pairedRowCount
            return
        }
        constraintPlaced.reserve(n)
        let placed = constraintPlaced.base
        // Per body: the constraint whose partner search last blocked it (plus one); a body is
        // blocked when it moves in `i` or in a constraint the partner would jump over.
        pairingBlock.reserve(bodies.count)
        let blockedBy = pairingBlock.base
        for i in 0..<n {
            placed[i] = false
            blockedBy[Int(cc[i].a)] = 0; blockedBy[Int(cc[i].b)] = 0
        }
        let rowBase = rows.base, pointBase = rowPoints.base
        let lookAhead = 16
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
            var partner = -1, fallback = -1
            var j = i + 1
            while j < n && j <= i + lookAhead {
                if !placed[j] {
                    let candidate = cc + j
                    if isFree(candidate.pointee.a, candidate.pointee.movesA) && isFree(candidate.pointee.b, candidate.pointee.movesB) {
                        if candidate.pointee.pointCount == k.pointee.pointCount { partner = j; break }
                        if fallback < 0 { fallback = j }
                    }
                    // Whatever follows must commute with this one too, were it jumped over
                    // (the fallback is independent of all before it).
                    block(candidate)
                }
                j += 1
            }
            if partner < 0 { partner = fallback }
            if partner >= 0 { placed[partner] = true }
            pairs[next] = SIMD2(Int32(i), Int32(partner))
            next += 1
        }
        scheduleRows(next)
        for r in 0..<next { fillRow(rowBase + r, cc, cp, Int(pairs[r][0]), Int(pairs[r][1]), pointBase, &pointCount) }
        contactRowCount = next
        pairedConstraintCount = n; pairedRowCount = next
    }

    /// Fills row `r` with constraints `first` and `second` (−1: an empty lane, which repeats
    /// the first's bodies and moves nothing).
    private func fillRow(_ r: UnsafeMutablePointer<ContactRow>, _ cc: UnsafeMutablePointer<ContactConstraint>,
                         _ cp: UnsafeMutablePointer<ConstraintPoint>, _ first: Int, _ second: Int,
                         _ pointBase: UnsafeMutablePointer<RowPoint>, _ rowPointCount: inout Int) {
        let k0 = cc + first
        let k1 = second >= 0 ? cc + second : k0
        let lane1 = second >= 0
        r.pointee.a = (k0.pointee.sa, lane1 ? k1.pointee.sa : 0); r.pointee.b = (k0.pointee.sb, lane1 ? k1.pointee.sb : 0)
        r.pointee.movesA = (k0.pointee.movesA, lane1 && k1.pointee.movesA)
        r.pointee.movesB = (k0.pointee.movesB, lane1 && k1.pointee.movesB)
        @inline(__always) func storesFreely(_ k: UnsafeMutablePointer<ContactConstraint>) -> Bool {
            (k.pointee.movesA || k.pointee.sa == 0) && (k.pointee.movesB || k.pointee.sb == 0)
        }
        r.pointee.storesFreely = storesFreely(k0) && (!lane1 || storesFreely(k1))
        r.pointee.contact = (k0.pointee.contact, lane1 ? k1.pointee.contact : -1)
        r.pointee.constraint = (Int32(first), Int32(second))
        // An empty lane copies lane 0's numbers but has no points: it applies no impulse.
        r.pointee.mA = Wide(k0.pointee.mA, k1.pointee.mA); r.pointee.iA = Wide(k0.pointee.iA, k1.pointee.iA)
        r.pointee.mB = Wide(k0.pointee.mB, k1.pointee.mB); r.pointee.iB = Wide(k0.pointee.iB, k1.pointee.iB)
        r.pointee.nx = Wide(k0.pointee.nx, k1.pointee.nx); r.pointee.ny = Wide(k0.pointee.ny, k1.pointee.ny)
        r.pointee.friction = Wide(k0.pointee.friction, k1.pointee.friction)
        r.pointee.elastic = Wide(k0.pointee.restitution, lane1 ? k1.pointee.restitution : 0) .> 0
        r.pointee.biasRate = Wide(k0.pointee.soft.biasRate, k1.pointee.soft.biasRate)
        r.pointee.massScale = Wide(k0.pointee.soft.massScale, k1.pointee.soft.massScale)
        r.pointee.impulseScale = Wide(k0.pointee.soft.impulseScale, k1.pointee.soft.impulseScale)
        let count0 = Int(k0.pointee.pointCount), count1 = lane1 ? Int(k1.pointee.pointCount) : 0
        @inline(__always) func fill(_ p: inout RowPoint, _ j: Int) {
            let p0 = cp + (2 * first + j), p1 = cp + (2 * second + j)
            let has0 = j < count0, has1 = j < count1
            p.leverA = Wide(has0 ? p0.pointee.leverA : 0, has1 ? p1.pointee.leverA : 0)
            p.leverB = Wide(has0 ? p0.pointee.leverB : 0, has1 ? p1.pointee.leverB : 0)
            p.reachA = Wide(has0 ? p0.pointee.reachA : 0, has1 ? p1.pointee.reachA : 0)
            p.reachB = Wide(has0 ? p0.pointee.reachB : 0, has1 ? p1.pointee.reachB : 0)
            p.baseSeparation = Wide(has0 ? p0.pointee.baseSeparation : 0, has1 ? p1.pointee.baseSeparation : 0)
            p.normalImpulse = Wide(has0 ? p0.pointee.normalImpulse : 0, has1 ? p1.pointee.normalImpulse : 0)
            p.tangentImpulse = Wide(has0 ? p0.pointee.tangentImpulse : 0, has1 ? p1.pointee.tangentImpulse : 0)
            p.normalMass = Wide(has0 ? p0.pointee.normalMass : 0, has1 ? p1.pointee.normalMass : 0)
            p.tangentMass = Wide(has0 ? p0.pointee.tangentMass : 0, has1 ? p1.pointee.tangentMass : 0)
        }
        let twoPoints = count0 == 2 || count1 == 2
        r.pointee.twoPoints = twoPoints
        r.pointee.firstPoint = Int32(rowPointCount)
        let points = pointBase + rowPointCount
        fill(&points[0], 0)
        if twoPoints { fill(&points[1], 1) }
        rowPointCount += twoPoints ? 2 : 1
    }

    func warmStartRows() {
        let motion = solverBodies.base
        // The still slot holds its zeros again should an impulse have been NaN.
        defer { motion[0] = SolverBody() }
        // Read once: the stores into the bodies could otherwise be taken to change them.
        let rowBase = rows.base, pointBase = rowPoints.base
        for i in 0..<contactRowCount {
            let r = rowBase + i
            var v = RowBodies(motion, r)
            let points = pointBase + Int(r.pointee.firstPoint)
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
        if useBias { solveRowsBiased(hs, flip: flip) } else { solveRowsRelaxed(hs, flip: flip) }
    }

    // Two copies, each with `useBias` constant (the relax pass drops the soft terms), and each
    // its own function: left to itself the compiler inlined one and kept the other generic,
    // testing `useBias` at every point.
    @inline(never)
    private func solveRowsBiased(_ hs: Double, flip: Bool) { solveRowsInline(hs, useBias: true, flip: flip) }

    @inline(never)
    private func solveRowsRelaxed(_ hs: Double, flip: Bool) { solveRowsInline(hs, useBias: false, flip: flip) }

    @inline(__always)
    private func solveRowsInline(_ hs: Double, useBias: Bool, flip: Bool) {
        let motion = solverBodies.base
        defer { motion[0] = SolverBody() }
        // Read once: the stores into the bodies could otherwise be taken to change them.
        let rowBase = rows.base, pointBase = rowPoints.base
        let invH = Wide(repeating: 1 / hs)
        let maxPush = Wide(repeating: -tuning.maxPushoutSpeed)
        let approach = Wide(repeating: -tuning.restitutionThreshold)
        for i in 0..<contactRowCount {
            let r = rowBase + i
            let a0 = Int(r.pointee.a.0), a1 = Int(r.pointee.a.1), b0 = Int(r.pointee.b.0), b1 = Int(r.pointee.b.1)
            let dpAx = Wide(motion[a0].dpx, motion[a1].dpx), dpAy = Wide(motion[a0].dpy, motion[a1].dpy)
            let dpBx = Wide(motion[b0].dpx, motion[b1].dpx), dpBy = Wide(motion[b0].dpy, motion[b1].dpy)
            let shift = (dpBx - dpAx) * r.pointee.nx + (dpBy - dpAy) * r.pointee.ny
            var row = RowSolve(v: RowBodies(motion, r), r: r, shift: shift,
                               cA: Wide(motion[a0].dqc, motion[a1].dqc), sA: Wide(motion[a0].dqs, motion[a1].dqs),
                               cB: Wide(motion[b0].dqc, motion[b1].dqc), sB: Wide(motion[b0].dqs, motion[b1].dqs),
                               invH: invH, maxPush: maxPush, approach: approach)
            let points = pointBase + Int(r.pointee.firstPoint)
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

    /// Marks each constraint whose contact is elastic and has a point closing faster than the
    /// restitution threshold; true when there is one.
    func markApproachingContacts() -> Bool {
        let motion = solverBodies.base
        let rowBase = rows.base, pointBase = rowPoints.base
        constraintApproaching.reserve(constraintCount)
        let approaching = constraintApproaching.base
        let approach = Wide(repeating: -tuning.restitutionThreshold)
        var any = false
        for i in 0..<contactRowCount {
            let r = rowBase + i
            let v = RowBodies(motion, r)
            let nx = r.pointee.nx, ny = r.pointee.ny
            let dvn = (v.vBx - v.vAx) * nx + (v.vBy - v.vAy) * ny
            let points = pointBase + Int(r.pointee.firstPoint)
            var closing = dvn + v.wB * points[0].leverB - v.wA * points[0].leverA .< approach
            if r.pointee.twoPoints {
                closing = closing .| (dvn + v.wB * points[1].leverB - v.wA * points[1].leverA .< approach)
            }
            closing = closing .& r.pointee.elastic
            let first = Int(r.pointee.constraint.0), second = Int(r.pointee.constraint.1)
            approaching[first] = closing[0]
            if second >= 0 { approaching[second] = closing[1] }
            any = any || closing[0] || closing[1]
        }
        return any
    }

    /// The accumulated impulses back to the persistent contacts, to warm-start the next step.
    func storeRowImpulses() {
        let ct = contacts
        for i in 0..<contactRowCount {
            let r = rows[i]
            for lane in 0..<2 {
                let c = Int(lane == 0 ? r.contact.0 : r.contact.1)
                if c < 0 { continue }
                let count = ct[c].pointCount
                let points = rowPoints.base + Int(r.firstPoint)
                ct.points[2 * c].normalImpulse = points[0].normalImpulse[lane]
                ct.points[2 * c].tangentImpulse = points[0].tangentImpulse[lane]
                if count > 1 {
                    ct.points[2 * c + 1].normalImpulse = points[1].normalImpulse[lane]
                    ct.points[2 * c + 1].tangentImpulse = points[1].tangentImpulse[lane]
                }
            }
        }
    }
}
