import Geometry

/// What a boundary body is built from; compared to avoid rebuilding unchanged boundaries
/// (which would drop their contacts).
struct BoundarySpec: Equatable {
    enum Shape: Equatable { case wall(point: Vec2, angle: Double), segment(from: Vec2, to: Vec2) }
    var shape: Shape
    var owner: UInt64
    var name: BoundaryIdentifier
}

struct PendingEvent {
    var bits: UInt64
    var item: ItemID
    var other: ContactParty
    var point: Vec2
    var began: Bool
}

extension DynamicsWorld {
    /// Derives per-body materials, masks, gravity and boundary bodies from the behaviors.
    func applyConfiguration() {
        configurationDirty = false
        gravityDirty = false
        // Masks, anchoring and boundaries decide which pairs may collide: sweep again.
        broad.valid = false
        var flat: [DynamicBehavior] = []
        func visit(_ b: DynamicBehavior) { flat.append(b); for c in b.childBehaviors { visit(c) } }
        for b in topBehaviors { visit(b) }
        flatBehaviors = flat

        wasStatic.removeAll(keepingCapacity: true)
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isBoundary && bodies.slot[b].isStatic { wasStatic.append(b) }
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isBoundary {
            bodies.material[b].density = 1; bodies.material[b].friction = 0; bodies.material[b].restitution = 0
            bodies.forces[b].linearDamping = 0; bodies.forces[b].angularDamping = 0
            bodies.slot[b].allowsRotation = true; bodies.slot[b].isStatic = false
            bodies.slot[b].itemMask = 0; bodies.slot[b].boundaryMask = 0
            bodies.forces[b].gravityX = 0; bodies.forces[b].gravityY = 0
        }
        var specs: [BoundarySpec] = []
        var boxes: [(rect: Rect, owner: UInt64)] = []
        var nextBit = 0
        for behavior in flat {
            if let item = behavior as? ItemBehavior {
                for id in item.items {
                    guard let b = body(id) else { continue }
                    bodies.material[b].density = max(item.density, 1e-6)
                    bodies.material[b].friction = max(item.friction, 0)
                    bodies.material[b].restitution = min(max(item.elasticity, 0), 1)
                    bodies.forces[b].linearDamping = max(item.resistance, 0)
                    bodies.forces[b].angularDamping = max(item.angularResistance, 0)
                    bodies.slot[b].allowsRotation = item.allowsRotation
                    bodies.slot[b].isStatic = item.isAnchored
                }
            } else if let gravity = behavior as? GravityBehavior {
                let g = gravity.gravityDirection * GravityBehavior.unitAcceleration
                for id in gravity.items {
                    guard let b = body(id) else { continue }
                    bodies.forces[b].gravityX += g.x; bodies.forces[b].gravityY += g.y
                }
            } else if let collision = behavior as? CollisionBehavior {
                collision.bit = nextBit < 64 ? UInt64(1) << UInt64(nextBit) : 0
                nextBit += 1
                let bit = collision.bit
                for id in collision.items {
                    guard let b = body(id) else { continue }
                    if collision.collisionMode.includesItems { bodies.slot[b].itemMask |= bit }
                    if collision.collisionMode.includesBoundaries { bodies.slot[b].boundaryMask |= bit }
                }
                if collision.translatesReferenceBoundsIntoBoundary {
                    let i = collision.referenceBoundsInsets, r = referenceBounds
                    let minX = r.minX + i.left, maxX = r.maxX - i.right, minY = r.minY + i.top, maxY = r.maxY - i.bottom
                    boxes.append((Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), bit))
                    specs.append(BoundarySpec(shape: .wall(point: Vec2(minX, minY), angle: 0), owner: bit, name: .referenceBounds))
                    specs.append(BoundarySpec(shape: .wall(point: Vec2(maxX, maxY), angle: .pi), owner: bit, name: .referenceBounds))
                    specs.append(BoundarySpec(shape: .wall(point: Vec2(minX, minY), angle: .pi / 2), owner: bit, name: .referenceBounds))
                    specs.append(BoundarySpec(shape: .wall(point: Vec2(maxX, maxY), angle: -.pi / 2), owner: bit, name: .referenceBounds))
                }
                for segment in collision.boundaries where segment.from != segment.to {
                    specs.append(BoundarySpec(shape: .segment(from: segment.from, to: segment.to), owner: bit, name: .named(segment.identifier)))
                }
            }
        }
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isBoundary {
            if bodies.slot[b].isStatic {
                bodies.motion[b].vx = 0; bodies.motion[b].vy = 0; bodies.motion[b].w = 0
                bodies.slot[b].awake = false
                if bodies.slot[b].holdIndex >= 0 { release(itemID(b)) }
            } else {
                if !bodies.slot[b].allowsRotation { bodies.motion[b].w = 0 }
                // No longer anchored: it moves again.
                if !bodies.slot[b].awake && wasStatic.contains(b) { bodies.slot[b].awake = true; bodies.slot[b].sleepTime = 0 }
            }
            bodies.updateMass(b)
        }
        // Contacts keep the mixed materials of their creation; refresh them.
        for c in 0..<contacts.count { mixMaterials(c) }
        boundsBoxes = boxes
        if specs != boundarySignature { rebuildBoundaries(specs) }
    }

    /// Gravity sums only, from the behaviors as last flattened.
    func applyGravity() {
        gravityDirty = false
        for b in 0..<bodies.count where bodies.slot[b].exists && !bodies.slot[b].isBoundary {
            bodies.forces[b].gravityX = 0; bodies.forces[b].gravityY = 0
        }
        for behavior in flatBehaviors {
            guard let gravity = behavior as? GravityBehavior else { continue }
            let g = gravity.gravityDirection * GravityBehavior.unitAcceleration
            for id in gravity.items {
                guard let b = body(id) else { continue }
                bodies.forces[b].gravityX += g.x; bodies.forces[b].gravityY += g.y
            }
        }
    }

    /// Keeps the bodies of unchanged boundaries (and their contacts, so no spurious
    /// ended/began events), removes the ones that went, creates the new ones.
    private func rebuildBoundaries(_ specs: [BoundarySpec]) {
        var old = Array(zip(boundarySignature, boundaryBodies))
        var kept: [Int] = []
        for spec in specs {
            if let k = old.firstIndex(where: { $0.0 == spec }) {
                kept.append(old[k].1)
                old.remove(at: k)
            } else {
                kept.append(-1)
            }
        }
        for (_, b) in old { destroyBody(b) }
        for (n, spec) in specs.enumerated() where kept[n] < 0 {
            let b = allocateBody()
            bodies.slot[b].isBoundary = true
            bodies.slot[b].isStatic = true
            bodies.slot[b].awake = false
            bodies.slot[b].itemMask = spec.owner
            bodies.material[b].invMass = 0; bodies.material[b].invI = 0; bodies.material[b].mass = 0; bodies.material[b].inertia = 0
            bodies.material[b].friction = 0; bodies.material[b].restitution = 0
            boundaryNames[b] = spec.name
            switch spec.shape {
            case .wall(let p, let angle):
                bodies.setGeometry(b, .wall())
                setPose(b, p, angle)
            case .segment(let from, let to):
                let d = to - from
                bodies.setGeometry(b, .segment(length: d.length))
                setPose(b, (from + to) * 0.5, atan2d(d.y, d.x))
            }
            sapOrder.append(Int32(b))
            kept[n] = b
        }
        boundaryBodies = kept
        boundarySignature = specs
    }

    func queueEvent(contact c: Int, began: Bool) {
        let a = Int(contacts[c].a), b = Int(contacts[c].b)
        let point: Vec2
        if contacts[c].pointCount > 0 {
            point = Vec2(bodies.pose[a].x + contacts.points[2 * c].rAx, bodies.pose[a].y + contacts.points[2 * c].rAy)
        } else {
            point = Vec2((bodies.pose[a].x + bodies.pose[b].x) / 2, (bodies.pose[a].y + bodies.pose[b].y) / 2)
        }
        if bodies.slot[a].isBoundary || bodies.slot[b].isBoundary {
            let boundary = bodies.slot[a].isBoundary ? a : b, item = boundary == a ? b : a
            guard let name = boundaryNames[boundary] else { return }
            pendingEvents.append(PendingEvent(bits: bodies.slot[boundary].itemMask, item: itemID(item), other: .boundary(name), point: point, began: began))
        } else {
            pendingEvents.append(PendingEvent(bits: bodies.slot[a].itemMask & bodies.slot[b].itemMask, item: itemID(a), other: .item(itemID(b)), point: point, began: began))
        }
    }

    func dispatchEvents() {
        guard !pendingEvents.isEmpty else { return }
        let events = pendingEvents
        pendingEvents.removeAll(keepingCapacity: true)
        for behavior in flatBehaviors {
            guard let collision = behavior as? CollisionBehavior, collision.bit != 0 else { continue }
            let began = collision.onBeganContact, ended = collision.onEndedContact
            if began == nil && ended == nil { continue }
            for e in events where e.bits & collision.bit != 0 {
                let event = ContactEvent(item: e.item, other: e.other, point: e.point)
                if e.began { began?(event) } else { ended?(event) }
            }
        }
    }
}
