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
        let someAsleep = prepareBodies(h)
        updatePairs()
        updateContacts()
        if someAsleep { wakeTouchedSleepers() }
        solve(h)
        clampToBounds()
        reportContacts()
        if sleepingEnabled { updateSleep(h) }
        elapsedTime += h
        stepCount += 1
        var anyAwake = !holds.isEmpty
        if !anyAwake {
            for b in 0..<bodies.count where bodies.slot[b].exists && bodies.slot[b].isActive { anyAwake = true; break }
        }
        setPaused(!anyAwake)
    }

    /// External accelerations, travel bounds, world shapes and the awake list. Returns
    /// whether a body that could move sleeps (else no sleeper can be woken this step).
    func prepareBodies(_ h: Double) -> Bool {
        awakeList.reserve(bodies.count)
        awakeCount = 0
        let margin = tuning.speculativeDistance
        var movable = 0
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isStatic {
            let g = bodies.forces[b]
            bodies.forces[b].ax = g.gravityX; bodies.forces[b].ay = g.gravityY; bodies.forces[b].alpha = 0
            movable += 1
        }
        for behavior in flatBehaviors {
            if let push = behavior as? PushBehavior { applyPush(push) }
        }
        for b in 0..<bodies.count where bodies.slot[b].exists && bodies.slot[b].isActive {
            awakeList[awakeCount] = Int32(b); awakeCount += 1
            let m = bodies.motion[b], f = bodies.forces[b]
            let vx = m.vx, vy = m.vy, ax = f.ax, ay = f.ay
            let speed = (vx * vx + vy * vy).squareRoot() + (ax * ax + ay * ay).squareRoot() * h
            var travel = h * (speed + abs(m.w) * bodies.outline[b].extent)
            let hold = Int(bodies.slot[b].holdIndex)
            if hold >= 0 {
                let dx = holds[hold].targetX - bodies.pose[b].x, dy = holds[hold].targetY - bodies.pose[b].y
                // The drive may reach the finger (bounded) within this step, and turn toward it.
                travel = max(travel, min((dx * dx + dy * dy).squareRoot(), tuning.maxHeldSpeed * h))
                if let angle = holds[hold].targetAngle {
                    let turn = min(abs(normalizeAngle(angle - bodies.pose[b].angle)), tuning.maxHeldAngularSpeed * h)
                    travel += turn * bodies.outline[b].extent
                }
            }
            bodies.box[b].sweep = travel
            bodies.refreshWorldShape(b, margin: margin)
        }
        return awakeCount < movable
    }

    @inline(__always)
    func shouldCollide(_ a: Int, _ b: Int) -> Bool { bodies.shouldCollide(a, b) }

    /// Box2D's mixing (friction √(a·b), restitution max) between items; against a boundary
    /// the item's own values, as UIKit boundaries take on the item's friction and elasticity.
    func mixMaterials(_ c: Int) {
        let a = Int(contacts[c].a), b = Int(contacts[c].b)
        if bodies.slot[a].isBoundary || bodies.slot[b].isBoundary {
            let item = bodies.slot[a].isBoundary ? b : a
            contacts[c].friction = bodies.material[item].friction
            contacts[c].restitution = bodies.material[item].restitution
        } else {
            contacts[c].friction = (bodies.material[a].friction * bodies.material[b].friction).squareRoot()
            contacts[c].restitution = max(bodies.material[a].restitution, bodies.material[b].restitution)
        }
    }

    /// Manifolds for contacts with an awake body; impulses carried over by feature id.
    ///
    /// A pair whose bodies have hardly moved since its manifold was computed (a pile at rest)
    /// keeps that manifold, carried along: each point's anchors turn with their bodies and its
    /// separation grows by how far the two anchored points moved apart along the normal (the
    /// solver's own within-step estimate, Bullet's persistent manifolds). It was computed with
    /// a little extra speculative reach, so that it holds every point while the bodies' travel
    /// plus their drift stays within that reach.
    func updateContacts() {
        let spec = tuning.speculativeDistance, tolerance = tuning.manifoldReuseDistance
        let ct = contacts, bt = bodies
        for c in 0..<ct.count {
            let a = Int(ct[c].a), b = Int(ct[c].b)
            let activeA = bt.slot[a].isActive, activeB = bt.slot[b].isActive
            if !activeA && !activeB { continue }
            ct[c].impact = false
            let boxA = bt.box[a], boxB = bt.box[b]
            let pa = bt.pose[a], pb = bt.pose[b]
            let need = spec + boxA.sweep + boxB.sweep
            let drift = abs(pa.x - ct[c].xA) + abs(pa.y - ct[c].yA) + abs(pa.angle - ct[c].angleA) * bt.outline[a].extent
                + abs(pb.x - ct[c].xB) + abs(pb.y - ct[c].yB) + abs(pb.angle - ct[c].angleB) * bt.outline[b].extent
            if drift <= tolerance && need + drift <= ct[c].reach {
                let nx = ct[c].nx, ny = ct[c].ny
                for q in (2 * c)..<(2 * c + ct[c].pointCount) {
                    let lAx = ct.points[q].localAx, lAy = ct.points[q].localAy
                    let lBx = ct.points[q].localBx, lBy = ct.points[q].localBy
                    let rAx = pa.cosA * lAx - pa.sinA * lAy, rAy = pa.sinA * lAx + pa.cosA * lAy
                    let rBx = pb.cosA * lBx - pb.sinA * lBy, rBy = pb.sinA * lBx + pb.cosA * lBy
                    ct.points[q].rAx = rAx; ct.points[q].rAy = rAy
                    ct.points[q].rBx = rBx; ct.points[q].rBy = rBy
                    let gapX = (pb.x + rBx) - (pa.x + rAx), gapY = (pb.y + rBy) - (pa.y + rAy)
                    ct.points[q].separation = ct.points[q].computedSeparation + (gapX * nx + gapY * ny)
                }
                continue
            }
            let reach = need + tolerance
            let m = bt.collide(a, b, spec: reach)
            ct[c].reach = reach
            ct[c].xA = pa.x; ct[c].yA = pa.y; ct[c].angleA = pa.angle
            ct[c].xB = pb.x; ct[c].yB = pb.y; ct[c].angleB = pb.angle
            let oldCount = ct[c].pointCount
            let p = 2 * c
            let old0 = ct.points[p], old1 = ct.points[p + 1]
            ct[c].pointCount = m.count
            ct[c].nx = m.nx; ct[c].ny = m.ny
            let ax = pa.x, ay = pa.y, bx = pb.x, by = pb.y
            for k in 0..<m.count {
                let mp = k == 0 ? m.p0 : m.p1
                let q = p + k
                var point = ContactPoint(rAx: mp.x - ax, rAy: mp.y - ay, rBx: mp.x - bx, rBy: mp.y - by,
                                         separation: mp.separation, id: mp.id)
                if oldCount > 0 && old0.id == mp.id {
                    point.normalImpulse = old0.normalImpulse; point.tangentImpulse = old0.tangentImpulse
                } else if oldCount > 1 && old1.id == mp.id {
                    point.normalImpulse = old1.normalImpulse; point.tangentImpulse = old1.tangentImpulse
                }
                // The anchors in the bodies' frames: the transposed rotations.
                point.localAx = pa.cosA * point.rAx + pa.sinA * point.rAy
                point.localAy = pa.cosA * point.rAy - pa.sinA * point.rAx
                point.localBx = pb.cosA * point.rBx + pb.sinA * point.rBy
                point.localBy = pb.cosA * point.rBy - pb.sinA * point.rBx
                point.computedSeparation = mp.separation
                ct.points[q] = point
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
            for c in 0..<contacts.count where contacts[c].pointCount > 0 {
                let a = Int(contacts[c].a), b = Int(contacts[c].b)
                let activeA = bodies.slot[a].isActive, activeB = bodies.slot[b].isActive
                if activeA == activeB { continue }
                let sleeper = activeA ? b : a
                if bodies.slot[sleeper].isStatic { continue }
                bodies.slot[sleeper].awake = true
                bodies.slot[sleeper].sleepTime = 0
                bodies.box[sleeper].sweep = 0
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
            let a = Int(ct[c].a), b = Int(ct[c].b)
            if !bt.slot[a].isActive && !bt.slot[b].isActive { continue }
            var touching = ct[c].impact
            let n = ct[c].pointCount
            if n > 0 && ct.points[2 * c].separation < slop { touching = true }
            if n > 1 && ct.points[2 * c + 1].separation < slop { touching = true }
            if touching != ct[c].touching {
                ct[c].touching = touching
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
            let mask = bodies.slot[b].boundaryMask
            if mask == 0 { continue }
            for box in boundsBoxes where box.owner & mask != 0 {
                // Resting contact may overlap by the slop; anything beyond is put back.
                let e = extents(b)
                let r = box.rect
                let px = bodies.pose[b].x, py = bodies.pose[b].y
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
                    if (x > px) == (bodies.motion[b].vx < 0) { bodies.motion[b].vx = 0 }
                    bodies.pose[b].x = x
                }
                if y != py {
                    if (y > py) == (bodies.motion[b].vy < 0) { bodies.motion[b].vy = 0 }
                    bodies.pose[b].y = y
                }
            }
        }
    }

    /// The rotated shape's extent around its centre: offsets of the bounding box's sides.
    func extents(_ b: Int) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
        let shape = bodies.outline[b]
        if shape.kind == .circle { let r = shape.radius; return (-r, r, -r, r) }
        let o = b * BodyTable.verticesPerBody, c = bodies.pose[b].cosA, s = bodies.pose[b].sinA
        var lx = Double.infinity, hx = -Double.infinity, ly = Double.infinity, hy = -Double.infinity
        for i in o..<(o + shape.vertexCount) {
            let vx = bodies.localVertices[i].x, vy = bodies.localVertices[i].y
            let x = c * vx - s * vy, y = s * vx + c * vy
            lx = min(lx, x); hx = max(hx, x); ly = min(ly, y); hy = max(hy, y)
        }
        return (lx, hx, ly, hy)
    }

    /// Islands of touching bodies sleep together once all of them have been still long enough;
    /// an island with a moving body wakes whole.
    func updateSleep(_ h: Double) {
        let n = bodies.count
        islandParent.reserve(n); islandMin.reserve(n); islandHasAwake.reserve(n)
        sleepAnchor.reserve(n)
        let linTol = tuning.sleepLinearSpeed
        let maxTwitch = tuning.linearSlop
        let parent = islandParent, anchor = sleepAnchor
        for b in 0..<n {
            parent[b] = Int32(b)
            islandMin[b] = .infinity
            islandHasAwake[b] = false
            guard bodies.slot[b].exists, bodies.slot[b].isActive else { continue }
            let pose = bodies.pose[b], extent = bodies.outline[b].extent
            // The still time restarts (here or wherever a body is woken): measure from here.
            if bodies.slot[b].sleepTime == 0 { anchor[b] = SleepAnchor(x: pose.x, y: pose.y, angle: pose.angle) }
            // Box2D v3's measure: the fastest surface point. A body that only twitches (a
            // step's kick running through a deep pile) keeps the still time it has, without
            // adding to it, while no surface point has strayed more than the slop from where
            // that time began; anything that travels on, or swings, leaves that at once.
            let m = bodies.motion[b]
            let v = (m.vx * m.vx + m.vy * m.vy).squareRoot() + abs(m.w) * extent
            let dx = pose.x - anchor[b].x, dy = pose.y - anchor[b].y
            let drift = (dx * dx + dy * dy).squareRoot() + abs(pose.angle - anchor[b].angle) * extent
            if bodies.slot[b].holdIndex >= 0 || (v > linTol && drift > maxTwitch) {
                bodies.slot[b].sleepTime = 0
                anchor[b] = SleepAnchor(x: pose.x, y: pose.y, angle: pose.angle)
            } else if v <= linTol {
                bodies.slot[b].sleepTime += h
            }
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
        for c in 0..<contacts.count where contacts[c].pointCount > 0 {
            let a = Int(contacts[c].a), b = Int(contacts[c].b)
            if bodies.slot[a].isStatic || bodies.slot[b].isStatic { continue }
            union(a, b)
        }
        for j in joints where j.a >= 0 && j.b >= 0 {
            if !bodies.slot[j.a].isStatic && !bodies.slot[j.b].isStatic { union(j.a, j.b) }
        }
        for b in 0..<n where bodies.slot[b].exists && !bodies.slot[b].isStatic {
            let r = find(b)
            if bodies.slot[b].awake {
                islandHasAwake[r] = true
                islandMin[r] = min(islandMin[r], bodies.slot[b].sleepTime)
            }
        }
        let timeToSleep = tuning.timeToSleep
        for b in 0..<n where bodies.slot[b].exists && !bodies.slot[b].isStatic {
            let r = find(b)
            guard islandHasAwake[r] else { continue }
            if islandMin[r] >= timeToSleep {
                bodies.slot[b].awake = false
                bodies.motion[b].vx = 0; bodies.motion[b].vy = 0; bodies.motion[b].w = 0
            } else if !bodies.slot[b].awake {
                bodies.slot[b].awake = true
                bodies.slot[b].sleepTime = 0
            }
        }
    }
}
