import CLanes
/// Four contact constraints side by side, solved together in `SIMD4<Float>` arithmetic (one
/// SSE or NEON register per quantity, as Box2D v3 does). The four never share a body that
/// moves, so solving them at once is solving them one after the other: `buildRows` picks them
/// so. A lane with no constraint, or a second point its manifold lacks, has no mass and no
/// point and changes nothing. The bodies' solver state is `Float` too (`SolverBody`): a row
/// loads four bodies' vectors whole and transposes them into lanes (`transpose`).
struct ContactRow {
    /// The lanes' bodies' slots in `solverBodies` (the still slot 0 for an empty lane).
    var a = SIMD4<Int32>(), b = SIMD4<Int32>()
    /// Bit `lane` set: that lane's body receives impulses (a static, sleeping or absent body
    /// only pushes).
    var movesA: UInt8 = 0, movesB: UInt8 = 0
    /// Every lane's body moves or is the still slot: the row stores all eight without a test
    /// (what a lane stores into the still slot is the zero it read).
    var storesFreely = false
    /// False when no lane has a second point: the row solves point 0 only.
    var twoPoints = false
    /// The row's points are `rowPoints[firstPoint]` and, when `twoPoints`, the one after:
    /// apart from the rows, so that a row of one-point manifolds streams no unused point.
    var firstPoint: Int32 = 0
    /// The contact of each lane, −1 for an empty lane.
    var contact = SIMD4<Int32>(repeating: -1)
    var mA = Lanes(), iA = Lanes(), mB = Lanes(), iB = Lanes()
    var nx = Lanes(), ny = Lanes()
    var friction = Lanes()
    /// All ones in a lane whose contact is elastic (its impacts belong to `resolveImpacts`).
    var elastic = LaneMask()
    var biasRate = Lanes(), massScale = Lanes(), impulseScale = Lanes()
}

typealias Lanes = SIMD4<Float>
typealias LaneMask = SIMDMask<SIMD4<Int32>>

/// A manifold point of the four lanes; the fields mean what `ConstraintPoint`'s do, except
/// `separation`: the point's separation at the step's start. The rows turn anchors by the
/// rotation since then minus one, so that the floor's long arms (~1150 px) do not cancel in
/// `Float`.
struct RowPoint {
    var leverA = Lanes(), leverB = Lanes(), reachA = Lanes(), reachB = Lanes()
    var separation = Lanes()
    var normalImpulse = Lanes(), tangentImpulse = Lanes()
    var normalMass = Lanes(), tangentMass = Lanes()
}

/// Four bodies' vectors (x, y, z, w) turned into lanes: (x0 x1 x2 x3), (y0 …), (z0 …), (w0 …).
/// The shuffles come from C (`CLanes`): written in Swift as `Lanes(p[0], q[0], …)`, LLVM moved
/// the rows' arithmetic to the bodies' side of the transpose and did it lane by lane.
@inline(__always)
private func transpose(_ p: Lanes, _ q: Lanes, _ r: Lanes, _ s: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
    let pq0 = clanes_interleave_low(p, q), rs0 = clanes_interleave_low(r, s)
    let pq1 = clanes_interleave_high(p, q), rs1 = clanes_interleave_high(r, s)
    return (clanes_low_halves(pq0, rs0), clanes_high_halves(pq0, rs0), clanes_low_halves(pq1, rs1), clanes_high_halves(pq1, rs1))
}

/// The velocities of a row's bodies, gathered into lanes.
private struct RowBodies {
    var vAx = Lanes(), vAy = Lanes(), wA = Lanes(), vBx = Lanes(), vBy = Lanes(), wB = Lanes()

    @inline(__always)
    init(_ q: RowSlots) {
        (vAx, vAy, wA, _) = transpose(q.a0.pointee.velocity, q.a1.pointee.velocity, q.a2.pointee.velocity, q.a3.pointee.velocity)
        (vBx, vBy, wB, _) = transpose(q.b0.pointee.velocity, q.b1.pointee.velocity, q.b2.pointee.velocity, q.b3.pointee.velocity)
    }

    @inline(__always)
    func scatter(_ row: UnsafeMutablePointer<ContactRow>, _ q: RowSlots) {
        let zero = Lanes()
        let (a0, a1, a2, a3) = transpose(vAx, vAy, wA, zero)
        let (b0, b1, b2, b3) = transpose(vBx, vBy, wB, zero)
        if _fastPath(row.pointee.storesFreely) {
            q.a0.pointee.velocity = a0; q.a1.pointee.velocity = a1; q.a2.pointee.velocity = a2; q.a3.pointee.velocity = a3
            q.b0.pointee.velocity = b0; q.b1.pointee.velocity = b1; q.b2.pointee.velocity = b2; q.b3.pointee.velocity = b3
            return
        }
        let movesA = row.pointee.movesA, movesB = row.pointee.movesB
        if movesA & 1 != 0 { q.a0.pointee.velocity = a0 }
        if movesA & 2 != 0 { q.a1.pointee.velocity = a1 }
        if movesA & 4 != 0 { q.a2.pointee.velocity = a2 }
        if movesA & 8 != 0 { q.a3.pointee.velocity = a3 }
        if movesB & 1 != 0 { q.b0.pointee.velocity = b0 }
        if movesB & 2 != 0 { q.b1.pointee.velocity = b1 }
        if movesB & 4 != 0 { q.b2.pointee.velocity = b2 }
        if movesB & 8 != 0 { q.b3.pointee.velocity = b3 }
    }
}

/// A row's eight body slots as pointers.
private struct RowSlots {
    let a0, a1, a2, a3, b0, b1, b2, b3: UnsafeMutablePointer<SolverBody>

    @inline(__always)
    init(_ state: UnsafeMutablePointer<SolverBody>, _ r: UnsafeMutablePointer<ContactRow>) {
        let a = r.pointee.a, b = r.pointee.b
        a0 = state + Int(a[0]); a1 = state + Int(a[1]); a2 = state + Int(a[2]); a3 = state + Int(a[3])
        b0 = state + Int(b[0]); b1 = state + Int(b[1]); b2 = state + Int(b[2]); b3 = state + Int(b[3])
    }

    @inline(__always) func gather() -> RowBodies { RowBodies(self) }
    @inline(__always) func scatter(_ v: RowBodies, _ r: UnsafeMutablePointer<ContactRow>) { v.scatter(r, self) }
}

/// max and min with one meaning on every CPU (x86's maxps and ARM's fmaxnm disagree on
/// signed zeros and NaN).
@inline(__always) private func larger(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: x .< y) }
@inline(__always) private func smaller(_ x: Lanes, _ y: Lanes) -> Lanes { x.replacing(with: y, where: y .< x) }

/// One row's solve: its bodies' velocities and the motion since the step began, gathered per
/// pass; its constants are read through the row's pointer where they are used (reloading
/// them costs less than keeping them all in registers, which spills). Without `useBias` (the
/// relax pass) the soft terms drop out.
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
        // cA, cB are cos − 1 of the turns since the step began.
        let s = shift + ((cB * p.pointee.reachB + sB * leverB) - (cA * p.pointee.reachA + sA * leverA)) + p.pointee.separation
        let vn = (v.vBx - v.vAx) * nx + (v.vBy - v.vAy) * ny + v.wB * leverB - v.wA * leverA
        // Speculative (s > 0): may close the gap, no more. An elastic impact about to happen is
        // left to `resolveImpacts` of the next substep, which needs the approach speed intact.
        let speculative = s .> zero
        let old = p.pointee.normalImpulse
        let newImpulse: Lanes
        if useBias {
            // Touching points: the soft bias.
            let bias = larger(r.pointee.biasRate * s, maxPush).replacing(with: s * invH, where: speculative)
            let pointMassScale = r.pointee.massScale.replacing(with: one, where: speculative)
            let pointImpulseScale = r.pointee.impulseScale.replacing(with: zero, where: speculative)
            newImpulse = larger(old - p.pointee.normalMass * pointMassScale * (vn + bias) - pointImpulseScale * old, zero)
        } else {
            let bias = zero.replacing(with: s * invH, where: speculative)
            let untouched = r.pointee.elastic .& speculative .& (vn .< approach)
            newImpulse = larger(old - p.pointee.normalMass * (vn + bias), zero).replacing(with: old, where: untouched)
        }
        let impulse = newImpulse - old
        p.pointee.normalImpulse = newImpulse
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
    /// Groups the prepared constraints into rows of up to four without changing what
    /// sequential Gauss-Seidel in constraint order computes: constraint `i` takes as partners
    /// later ones (within a look-ahead of 32, which fills ~3.7 lanes a row in kiosk500) that
    /// share no moving body with `i`, with each other, nor with any constraint they jump over,
    /// so solving them at once equals solving them in order. Partners with as many points as
    /// `i` come first (a row of one-point manifolds skips the second point). Colouring would
    /// group more, but reorders the solve, and a stack converges worse in colour order.
    ///
    /// The grouping depends only on each constraint's bodies, which of them move and its point
    /// count, in order: while those repeat from the step before (a pile at rest), last step's
    /// rows are filled again without searching.
    func buildRows() {
        let n = constraintCount
        // A blank constraint and point after the last, for empty lanes and missing points.
        constraints.reserve(n + 1)
        points.reserve(2 * n + 1)
        var blank = ContactConstraint()
        blank.contact = -1
        constraints[n] = blank
        points[2 * n] = ConstraintPoint()
        let cc = constraints.base, cp = points.base
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
        let groups = pairedRows.base
        let rowBase = rows.base, pointBase = rowPoints.base
        if samePairing {
            var pointCount = 0
            for r in 0..<pairedRowCount {
                fillRow(rowBase + r, cc, cp, n, groups[r], pointBase, &pointCount)
            }
            contactRowCount = pairedRowCount
            return
        }
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
            // Free when met but with another point count: taken only into lanes left empty.
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
                    // or is jumped over (one free when met commutes with all before it).
                    block(candidate)
                }
                j += 1
            }
            var o = 0
            while filled < 4 && o < otherCount { lanes[filled] = others[o]; filled += 1; o += 1 }
            for lane in 1..<filled { placed[Int(lanes[lane])] = true }
            groups[next] = lanes
            next += 1
        }
        scheduleRows(next)
        for r in 0..<next { fillRow(rowBase + r, cc, cp, n, groups[r], pointBase, &pointCount) }
        contactRowCount = next
        pairedConstraintCount = n; pairedRowCount = next
    }

    /// Fills row `r` with the constraints `lanes` (−1: an empty lane, which takes the blank
    /// constraint `cc[blank]`: still slots, no mass, no point).
    @inline(__always)
    private func fillRow(_ r: UnsafeMutablePointer<ContactRow>, _ cc: UnsafeMutablePointer<ContactConstraint>,
                         _ cp: UnsafeMutablePointer<ConstraintPoint>, _ blank: Int, _ lanes: SIMD4<Int32>,
                         _ pointBase: UnsafeMutablePointer<RowPoint>, _ rowPointCount: inout Int) {
        let index = lanes.replacing(with: Int32(blank), where: lanes .< 0)
        let k0 = cc + Int(index[0]), k1 = cc + Int(index[1]), k2 = cc + Int(index[2]), k3 = cc + Int(index[3])
        @inline(__always) func bits(_ m0: Bool, _ m1: Bool, _ m2: Bool, _ m3: Bool) -> UInt8 {
            (m0 ? 1 : 0) | (m1 ? 2 : 0) | (m2 ? 4 : 0) | (m3 ? 8 : 0)
        }
        @inline(__always) func storesFreely(_ k: UnsafeMutablePointer<ContactConstraint>) -> Bool {
            (k.pointee.movesA || k.pointee.sa == 0) && (k.pointee.movesB || k.pointee.sb == 0)
        }
        r.pointee.a = SIMD4(k0.pointee.sa, k1.pointee.sa, k2.pointee.sa, k3.pointee.sa)
        r.pointee.b = SIMD4(k0.pointee.sb, k1.pointee.sb, k2.pointee.sb, k3.pointee.sb)
        r.pointee.movesA = bits(k0.pointee.movesA, k1.pointee.movesA, k2.pointee.movesA, k3.pointee.movesA)
        r.pointee.movesB = bits(k0.pointee.movesB, k1.pointee.movesB, k2.pointee.movesB, k3.pointee.movesB)
        r.pointee.storesFreely = storesFreely(k0) && storesFreely(k1) && storesFreely(k2) && storesFreely(k3)
        r.pointee.contact = SIMD4(k0.pointee.contact, k1.pointee.contact, k2.pointee.contact, k3.pointee.contact)
        @inline(__always) func lanesOf(_ x0: Double, _ x1: Double, _ x2: Double, _ x3: Double) -> Lanes {
            Lanes(Float(x0), Float(x1), Float(x2), Float(x3))
        }
        r.pointee.mA = lanesOf(k0.pointee.mA, k1.pointee.mA, k2.pointee.mA, k3.pointee.mA)
        r.pointee.iA = lanesOf(k0.pointee.iA, k1.pointee.iA, k2.pointee.iA, k3.pointee.iA)
        r.pointee.mB = lanesOf(k0.pointee.mB, k1.pointee.mB, k2.pointee.mB, k3.pointee.mB)
        r.pointee.iB = lanesOf(k0.pointee.iB, k1.pointee.iB, k2.pointee.iB, k3.pointee.iB)
        r.pointee.nx = lanesOf(k0.pointee.nx, k1.pointee.nx, k2.pointee.nx, k3.pointee.nx)
        r.pointee.ny = lanesOf(k0.pointee.ny, k1.pointee.ny, k2.pointee.ny, k3.pointee.ny)
        r.pointee.friction = lanesOf(k0.pointee.friction, k1.pointee.friction, k2.pointee.friction, k3.pointee.friction)
        // Tested in Double: a tiny restitution that Float rounds to zero is still elastic.
        @inline(__always) func elastic(_ k: UnsafeMutablePointer<ContactConstraint>) -> Int32 { k.pointee.restitution > 0 ? 1 : 0 }
        r.pointee.elastic = SIMD4(elastic(k0), elastic(k1), elastic(k2), elastic(k3)) .!= 0
        r.pointee.biasRate = lanesOf(k0.pointee.soft.biasRate, k1.pointee.soft.biasRate, k2.pointee.soft.biasRate, k3.pointee.soft.biasRate)
        r.pointee.massScale = lanesOf(k0.pointee.soft.massScale, k1.pointee.soft.massScale, k2.pointee.soft.massScale, k3.pointee.soft.massScale)
        r.pointee.impulseScale = lanesOf(k0.pointee.soft.impulseScale, k1.pointee.soft.impulseScale,
                                         k2.pointee.soft.impulseScale, k3.pointee.soft.impulseScale)
        let count = SIMD4(k0.pointee.pointCount, k1.pointee.pointCount, k2.pointee.pointCount, k3.pointee.pointCount)
        let twoPoints = any(count .== 2)
        r.pointee.twoPoints = twoPoints
        r.pointee.firstPoint = Int32(rowPointCount)
        let none = cp + 2 * blank
        @inline(__always) func fill(_ q: UnsafeMutablePointer<RowPoint>, _ j: Int32) {
            // A lane's point, or the blank one (all zeros) where its manifold lacks it.
            let p0 = j < count[0] ? cp + Int(2 * index[0] + j) : none
            let p1 = j < count[1] ? cp + Int(2 * index[1] + j) : none
            let p2 = j < count[2] ? cp + Int(2 * index[2] + j) : none
            let p3 = j < count[3] ? cp + Int(2 * index[3] + j) : none
            q.pointee.leverA = lanesOf(p0.pointee.leverA, p1.pointee.leverA, p2.pointee.leverA, p3.pointee.leverA)
            q.pointee.leverB = lanesOf(p0.pointee.leverB, p1.pointee.leverB, p2.pointee.leverB, p3.pointee.leverB)
            q.pointee.reachA = lanesOf(p0.pointee.reachA, p1.pointee.reachA, p2.pointee.reachA, p3.pointee.reachA)
            q.pointee.reachB = lanesOf(p0.pointee.reachB, p1.pointee.reachB, p2.pointee.reachB, p3.pointee.reachB)
            // The separation at the step's start, in Double before rounding.
            @inline(__always) func separation(_ p: UnsafeMutablePointer<ConstraintPoint>) -> Double {
                p.pointee.baseSeparation + (p.pointee.reachB - p.pointee.reachA)
            }
            q.pointee.separation = lanesOf(separation(p0), separation(p1), separation(p2), separation(p3))
            q.pointee.normalImpulse = lanesOf(p0.pointee.normalImpulse, p1.pointee.normalImpulse, p2.pointee.normalImpulse, p3.pointee.normalImpulse)
            q.pointee.tangentImpulse = lanesOf(p0.pointee.tangentImpulse, p1.pointee.tangentImpulse, p2.pointee.tangentImpulse, p3.pointee.tangentImpulse)
            q.pointee.normalMass = lanesOf(p0.pointee.normalMass, p1.pointee.normalMass, p2.pointee.normalMass, p3.pointee.normalMass)
            q.pointee.tangentMass = lanesOf(p0.pointee.tangentMass, p1.pointee.tangentMass, p2.pointee.tangentMass, p3.pointee.tangentMass)
        }
        let points = pointBase + rowPointCount
        fill(points, 0)
        if twoPoints { fill(points + 1, 1) }
        rowPointCount += twoPoints ? 2 : 1
    }

    func warmStartRows() {
        let state = solverBodies.base
        // The still slot holds its zeros again should an impulse have been NaN.
        defer { state[0] = SolverBody() }
        // Read once: the stores into the bodies could otherwise be taken to change them.
        let rowBase = rows.base, pointBase = rowPoints.base
        for i in 0..<contactRowCount {
            let r = rowBase + i
            let slots = RowSlots(state, r)
            var v = slots.gather()
            let p0 = pointBase + Int(r.pointee.firstPoint)
            var normal = p0.pointee.normalImpulse, tangent = p0.pointee.tangentImpulse
            var turnA = normal * p0.pointee.leverA - tangent * p0.pointee.reachA
            var turnB = normal * p0.pointee.leverB - tangent * p0.pointee.reachB
            if r.pointee.twoPoints {
                let p1 = p0 + 1
                let normal1 = p1.pointee.normalImpulse, tangent1 = p1.pointee.tangentImpulse
                normal += normal1; tangent += tangent1
                turnA += normal1 * p1.pointee.leverA - tangent1 * p1.pointee.reachA
                turnB += normal1 * p1.pointee.leverB - tangent1 * p1.pointee.reachB
            }
            let nx = r.pointee.nx, ny = r.pointee.ny
            let Px = normal * nx + tangent * ny, Py = normal * ny - tangent * nx
            let mA = r.pointee.mA, mB = r.pointee.mB
            v.vAx -= mA * Px; v.vAy -= mA * Py; v.wA -= r.pointee.iA * turnA
            v.vBx += mB * Px; v.vBy += mB * Py; v.wB += r.pointee.iB * turnB
            slots.scatter(v, r)
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
        let state = solverBodies.base
        defer { state[0] = SolverBody() }
        // Read once: the stores into the bodies could otherwise be taken to change them.
        let rowBase = rows.base, pointBase = rowPoints.base
        let invH = Lanes(repeating: Float(1 / hs))
        let maxPush = Lanes(repeating: Float(-tuning.maxPushoutSpeed))
        let approach = Lanes(repeating: Float(-tuning.restitutionThreshold))
        for i in 0..<contactRowCount {
            let r = rowBase + i
            let q = RowSlots(state, r)
            // The motion since the step began: the bodies' shifts and their turns as
            // (cos − 1, sin), small numbers that Float keeps well.
            let (dAx, dAy, cA, sA) = transpose(q.a0.pointee.motion, q.a1.pointee.motion, q.a2.pointee.motion, q.a3.pointee.motion)
            let (dBx, dBy, cB, sB) = transpose(q.b0.pointee.motion, q.b1.pointee.motion, q.b2.pointee.motion, q.b3.pointee.motion)
            let dx = dBx - dAx, dy = dBy - dAy
            let shift = dx * r.pointee.nx + dy * r.pointee.ny
            var row = RowSolve(v: q.gather(), r: r, shift: shift, cA: cA, sA: sA, cB: cB, sB: sB,
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
            q.scatter(row.v, r)
        }
    }

    /// Marks each constraint whose contact is elastic and has a point closing at the
    /// restitution threshold or faster; true when there is one. In `Double` over the
    /// constraints, as `resolveImpacts` tests, so that what its first pass skips is exactly
    /// what it would not change.
    func markApproachingContacts() -> Bool {
        let state = solverBodies.base
        let cc = constraints.base, cp = points.base
        constraintApproaching.reserve(constraintCount)
        let approaching = constraintApproaching.base
        let threshold = tuning.restitutionThreshold
        var any = false
        for i in 0..<constraintCount {
            let k = cc + i
            approaching[i] = false
            if k.pointee.restitution == 0 { continue }
            let mA = state + Int(k.pointee.sa), mB = state + Int(k.pointee.sb)
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
