import Geometry

/// One fixed step: behaviors' actions, configuration, forces, broad phase, narrow phase, the
/// soft-step solver, events, sleep.
extension DynamicsWorld {
    public func step() {
        let h = timeStep
        if configurationDirty { applyConfiguration() }
        for behavior in flatBehaviors { behavior.action?() }
        // Actions may have changed anything.
        if configurationDirty { applyConfiguration() } else if gravityDirty { applyGravity() }
        stamp &+= 1
        prepareBodies(h)
        updatePairs()
        updateContacts()
        wakeTouchedSleepers()
        solve(h)
        clampToBounds()
        reportContacts()
        if sleepingEnabled { updateSleep(h) }
        elapsedTime += h
        stepCount += 1
        var anyAwake = !holds.isEmpty
        if !anyAwake {
            for b in 0..<bodies.count where bodies.exists[b] && bodies.awake[b] && !bodies.isStatic[b] { anyAwake = true; break }
        }
        setPaused(!anyAwake)
    }

    /// External accelerations, travel bounds, world shapes and the awake list.
    func prepareBodies(_ h: Double) {
        awakeList.reserve(bodies.count)
        awakeCount = 0
        let margin = tuning.speculativeDistance
        for b in 0..<bodies.count where bodies.exists[b] && !bodies.isStatic[b] {
            bodies.ax[b] = bodies.gravityX[b]; bodies.ay[b] = bodies.gravityY[b]; bodies.alpha[b] = 0
        }
        for behavior in flatBehaviors {
            if let push = behavior as? PushBehavior { applyPush(push) }
        }
        for b in 0..<bodies.count where bodies.exists[b] && bodies.awake[b] && !bodies.isStatic[b] {
            awakeList[awakeCount] = Int32(b); awakeCount += 1
            let vx = bodies.vx[b], vy = bodies.vy[b], ax = bodies.ax[b], ay = bodies.ay[b]
            let speed = (vx * vx + vy * vy).squareRoot() + (ax * ax + ay * ay).squareRoot() * h
            var travel = h * (speed + abs(bodies.w[b]) * bodies.extent[b])
            let hold = Int(bodies.holdIndex[b])
            if hold >= 0 {
                let dx = holds[hold].targetX - bodies.px[b], dy = holds[hold].targetY - bodies.py[b]
                // The drive may reach the finger (bounded) within this step, and turn toward it.
                travel = max(travel, min((dx * dx + dy * dy).squareRoot(), tuning.maxHeldSpeed * h))
                if let angle = holds[hold].targetAngle {
                    let turn = min(abs(normalizeAngle(angle - bodies.angle[b])), tuning.maxHeldAngularSpeed * h)
                    travel += turn * bodies.extent[b]
                }
            }
            bodies.sweep[b] = travel
            bodies.refreshWorldShape(b, margin: margin)
        }
    }

    @inline(__always)
    func shouldCollide(_ a: Int, _ b: Int) -> Bool {
        if bodies.isStatic[a] && bodies.isStatic[b] { return false }
        if bodies.isBoundary[a] { return bodies.itemMask[a] & bodies.boundaryMask[b] != 0 }
        if bodies.isBoundary[b] { return bodies.itemMask[b] & bodies.boundaryMask[a] != 0 }
        return bodies.itemMask[a] & bodies.itemMask[b] != 0
    }

    /// Sweep and prune along x: insertion sort of the (nearly sorted) order, then a sweep.
    /// New overlaps get a contact; contacts whose boxes parted are destroyed.
    func updatePairs() {
        let n = sapOrder.count
        let minX = bodies.minX, maxX = bodies.maxX, minY = bodies.minY, maxY = bodies.maxY
        let awake = bodies.awake, isStatic = bodies.isStatic
        sapOrder.withUnsafeMutableBufferPointer { order in
            if n > 1 {
                for i in 1..<n {
                    let e = order[i], key = minX[Int(e)]
                    var j = i - 1
                    while j >= 0 && minX[Int(order[j])] > key { order[j + 1] = order[j]; j -= 1 }
                    order[j + 1] = e
                }
            }
            for i in 0..<n {
                let a = Int(order[i])
                let activeA = awake[a] && !isStatic[a]
                let hiX = maxX[a], loY = minY[a], hiY = maxY[a]
                var j = i + 1
                while j < n {
                    let b = Int(order[j])
                    if minX[b] > hiX { break }
                    j += 1
                    if !activeA && !(awake[b] && !isStatic[b]) { continue }
                    if minY[b] > hiY || maxY[b] < loY { continue }
                    if !shouldCollide(a, b) { continue }
                    let key = PairTable.key(a, b)
                    let c = pairs.find(key)
                    if c >= 0 { contacts.seen[Int(c)] = stamp; continue }
                    // Lower shape kind first: that is the order the manifold functions take.
                    var first = a, second = b
                    let ka = bodies.kind[a].rawValue, kb = bodies.kind[b].rawValue
                    if ka > kb || (ka == kb && a > b) { first = b; second = a }
                    let nc = contacts.append(first, second, key, stamp: stamp)
                    mixMaterials(nc)
                    pairs.insert(key, Int32(nc))
                }
            }
        }
        var c = 0
        while c < contacts.count {
            if contacts.seen[c] != stamp {
                let a = Int(contacts.a[c]), b = Int(contacts.b[c])
                let inactive = !(awake[a] && !isStatic[a]) && !(awake[b] && !isStatic[b])
                if inactive && shouldCollide(a, b) { c += 1; continue }
                if contacts.touching[c] { queueEvent(contact: c, began: false) }
                destroyContact(c)
                continue
            }
            c += 1
        }
    }

    /// Box2D's mixing (friction √(a·b), restitution max) between items; against a boundary
    /// the item's own values, as UIKit boundaries take on the item's friction and elasticity.
    func mixMaterials(_ c: Int) {
        let a = Int(contacts.a[c]), b = Int(contacts.b[c])
        if bodies.isBoundary[a] || bodies.isBoundary[b] {
            let item = bodies.isBoundary[a] ? b : a
            contacts.friction[c] = bodies.friction[item]
            contacts.restitution[c] = bodies.restitution[item]
        } else {
            contacts.friction[c] = (bodies.friction[a] * bodies.friction[b]).squareRoot()
            contacts.restitution[c] = max(bodies.restitution[a], bodies.restitution[b])
        }
    }

    /// Manifolds for contacts with an awake body; impulses carried over by feature id.
    func updateContacts() {
        let spec = tuning.speculativeDistance
        let ct = contacts, bt = bodies
        for c in 0..<ct.count {
            let a = Int(ct.a[c]), b = Int(ct.b[c])
            let activeA = bt.awake[a] && !bt.isStatic[a], activeB = bt.awake[b] && !bt.isStatic[b]
            if !activeA && !activeB { continue }
            ct.impact[c] = false
            let m = bt.collide(a, b, spec: spec + bt.sweep[a] + bt.sweep[b])
            let oldCount = ct.pointCount[c]
            let p = 2 * c
            let oldId0 = ct.id[p], oldId1 = ct.id[p + 1]
            let oldN0 = ct.normalImpulse[p], oldN1 = ct.normalImpulse[p + 1]
            let oldT0 = ct.tangentImpulse[p], oldT1 = ct.tangentImpulse[p + 1]
            ct.pointCount[c] = m.count
            ct.nx[c] = m.nx; ct.ny[c] = m.ny
            let ax = bt.px[a], ay = bt.py[a], bx = bt.px[b], by = bt.py[b]
            for k in 0..<m.count {
                let mp = k == 0 ? m.p0 : m.p1
                let q = p + k
                ct.rAx[q] = mp.x - ax; ct.rAy[q] = mp.y - ay
                ct.rBx[q] = mp.x - bx; ct.rBy[q] = mp.y - by
                ct.separation[q] = mp.separation
                ct.id[q] = mp.id
                var ni = 0.0, ti = 0.0
                if oldCount > 0 && oldId0 == mp.id { ni = oldN0; ti = oldT0 } else if oldCount > 1 && oldId1 == mp.id { ni = oldN1; ti = oldT1 }
                ct.normalImpulse[q] = ni; ct.tangentImpulse[q] = ti
            }
        }
    }

    /// A body about to touch (manifold points, speculative ones included) a sleeping body wakes
    /// it, and the wake spreads through the sleeper's own contacts, before anything is solved:
    /// a sleeping body must never act as an immovable wall.
    func wakeTouchedSleepers() {
        var changed = true
        while changed {
            changed = false
            for c in 0..<contacts.count where contacts.pointCount[c] > 0 {
                let a = Int(contacts.a[c]), b = Int(contacts.b[c])
                let activeA = bodies.awake[a] && !bodies.isStatic[a], activeB = bodies.awake[b] && !bodies.isStatic[b]
                if activeA == activeB { continue }
                let sleeper = activeA ? b : a
                if bodies.isStatic[sleeper] { continue }
                bodies.awake[sleeper] = true
                bodies.sleepTime[sleeper] = 0
                bodies.sweep[sleeper] = 0
                bodies.refreshWorldShape(sleeper, margin: tuning.speculativeDistance)
                awakeList.reserve(awakeCount + 1)
                awakeList[awakeCount] = Int32(sleeper); awakeCount += 1
                changed = true
            }
        }
    }

    /// Began/ended events from the change of touching state during this step.
    func reportContacts() {
        let slop = tuning.linearSlop
        let ct = contacts, bt = bodies
        for c in 0..<ct.count {
            let a = Int(ct.a[c]), b = Int(ct.b[c])
            if !(bt.awake[a] && !bt.isStatic[a]) && !(bt.awake[b] && !bt.isStatic[b]) { continue }
            var touching = ct.impact[c]
            let n = ct.pointCount[c]
            if n > 0 && ct.separation[2 * c] < slop { touching = true }
            if n > 1 && ct.separation[2 * c + 1] < slop { touching = true }
            if touching != ct.touching[c] {
                ct.touching[c] = touching
                queueEvent(contact: c, began: touching)
            }
        }
        dispatchEvents()
    }

    /// Pushes every item back inside the reference-bounds boxes it collides with. The solver
    /// keeps items inside already; this is the guarantee against anything it missed.
    func clampToBounds() {
        guard !boundsBoxes.isEmpty else { return }
        let slop = tuning.boundsTolerance
        for i in 0..<awakeCount {
            let b = Int(awakeList[i])
            let mask = bodies.boundaryMask[b]
            if mask == 0 { continue }
            for box in boundsBoxes where box.owner & mask != 0 {
                // Resting contact may overlap by the slop; anything beyond is put back.
                let e = extents(b)
                let r = box.rect
                let px = bodies.px[b], py = bodies.py[b]
                var x = px, y = py
                if r.width <= e.maxX - e.minX { x = r.center.x - (e.minX + e.maxX) / 2 } else {
                    x = min(max(x, r.minX - e.minX - slop), r.maxX - e.maxX + slop)
                }
                if r.height <= e.maxY - e.minY { y = r.center.y - (e.minY + e.maxY) / 2 } else {
                    y = min(max(y, r.minY - e.minY - slop), r.maxY - e.maxY + slop)
                }
                if x == px && y == py { continue }
                boundsCorrections += 1
                if x != px {
                    if (x > px) == (bodies.vx[b] < 0) { bodies.vx[b] = 0 }
                    bodies.px[b] = x
                }
                if y != py {
                    if (y > py) == (bodies.vy[b] < 0) { bodies.vy[b] = 0 }
                    bodies.py[b] = y
                }
            }
        }
    }

    /// The rotated shape's extent around its centre: offsets of the bounding box's sides.
    func extents(_ b: Int) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        if bodies.kind[b] == .circle { let r = bodies.radius[b]; return (-r, r, -r, r) }
        let o = b * BodyTable.verticesPerBody, c = bodies.cosA[b], s = bodies.sinA[b]
        var lx = Double.infinity, hx = -Double.infinity, ly = Double.infinity, hy = -Double.infinity
        for i in o..<(o + bodies.vertexCount[b]) {
            let vx = bodies.localVX[i], vy = bodies.localVY[i]
            let x = c * vx - s * vy, y = s * vx + c * vy
            lx = min(lx, x); hx = max(hx, x); ly = min(ly, y); hy = max(hy, y)
        }
        return (lx, hx, ly, hy)
    }

    /// Islands of touching bodies sleep together once all of them have been still long enough;
    /// an island with a moving body wakes whole.
    func updateSleep(_ h: Double) {
        let n = bodies.count
        islandMin.reserve(n); islandHasAwake.reserve(n)
        let linTol = tuning.sleepLinearSpeed
        let parent = bodies.islandParent
        for b in 0..<n {
            parent[b] = Int32(b)
            islandMin[b] = .infinity
            islandHasAwake[b] = false
            guard bodies.exists[b], !bodies.isStatic[b], bodies.awake[b] else { continue }
            // Box2D v3's measure: the fastest surface point.
            let v = (bodies.vx[b] * bodies.vx[b] + bodies.vy[b] * bodies.vy[b]).squareRoot() + abs(bodies.w[b]) * bodies.extent[b]
            if bodies.holdIndex[b] >= 0 || v > linTol { bodies.sleepTime[b] = 0 } else { bodies.sleepTime[b] += h }
        }
        func find(_ x: Int) -> Int {
            var r = x
            while Int(parent[r]) != r { r = Int(parent[r]) }
            var y = x
            while Int(parent[y]) != r { let next = Int(parent[y]); parent[y] = Int32(r); y = next }
            return r
        }
        func union(_ a: Int, _ b: Int) {
            let ra = find(a), rb = find(b)
            if ra != rb { if ra < rb { parent[rb] = Int32(ra) } else { parent[ra] = Int32(rb) } }
        }
        // Linked as soon as the manifold has points, speculative ones included: the same test
        // that wakes a sleeper, so that neighbours sleep and wake together.
        for c in 0..<contacts.count where contacts.pointCount[c] > 0 {
            let a = Int(contacts.a[c]), b = Int(contacts.b[c])
            if bodies.isStatic[a] || bodies.isStatic[b] { continue }
            union(a, b)
        }
        for j in joints where j.a >= 0 && j.b >= 0 {
            if !bodies.isStatic[j.a] && !bodies.isStatic[j.b] { union(j.a, j.b) }
        }
        for b in 0..<n where bodies.exists[b] && !bodies.isStatic[b] {
            let r = find(b)
            if bodies.awake[b] {
                islandHasAwake[r] = true
                islandMin[r] = min(islandMin[r], bodies.sleepTime[b])
            }
        }
        let timeToSleep = tuning.timeToSleep
        for b in 0..<n where bodies.exists[b] && !bodies.isStatic[b] {
            let r = find(b)
            guard islandHasAwake[r] else { continue }
            if islandMin[r] >= timeToSleep {
                bodies.awake[b] = false
                bodies.vx[b] = 0; bodies.vy[b] = 0; bodies.w[b] = 0
            } else if !bodies.awake[b] {
                bodies.awake[b] = true
                bodies.sleepTime[b] = 0
            }
        }
    }
}
