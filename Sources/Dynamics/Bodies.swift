import Geometry

/// Every body of the world: items (dynamic or anchored) and the static boundary shapes. A slot
/// is reused after removal with a new generation, so stale `ItemID`s are recognised.
///
/// One array per group of fields that the step's loops read together (the contact solver's
/// `Motion`, the broad phase's `Box`, …), indexed by slot. A new field is declared once, with
/// the value a new body starts with, in its group's struct; `forEachGroup` is the one list of
/// the groups for growing, clearing and freeing.
struct BodyTable {
    static let verticesPerBody = maxPolygonVertices

    var count = 0            // slots in use (including free ones below `count`)
    var slot = Storage(fill: BodySlot())
    var pose = Storage(fill: Pose())
    var motion = Storage(fill: Motion())
    var forces = Storage(fill: Forces())
    var material = Storage(fill: Material())
    var outline = Storage(fill: Outline())
    /// `verticesPerBody` rows per body: the shape in the body frame and in the world.
    var localVertices = Storage(fill: ShapeVertex())
    var worldVertices = Storage(fill: ShapeVertex())
    var box = Storage(fill: Box())

    init(capacity: Int) { reserve(capacity) }

    /// Makes room for slot `n - 1`.
    mutating func reserve(_ n: Int) { forEachGroup(.reserve(bodies: n)) }

    /// Every field of slot `b` back to what a new body starts with (the generation too).
    mutating func clear(_ b: Int) { forEachGroup(.clear(body: b)) }

    mutating func release() { forEachGroup(.release) }

    private enum GroupOperation { case reserve(bodies: Int), clear(body: Int), release }

    private mutating func forEachGroup(_ operation: GroupOperation) {
        func apply<Row>(_ rows: inout Storage<Row>, rowsPerBody k: Int = 1) {
            switch operation {
            case .reserve(let n): rows.reserve(n * k)
            case .clear(let b): rows.clear(b * k ..< (b + 1) * k)
            case .release: rows.release()
            }
        }
        apply(&slot); apply(&pose); apply(&motion); apply(&forces); apply(&material); apply(&outline)
        apply(&localVertices, rowsPerBody: BodyTable.verticesPerBody)
        apply(&worldVertices, rowsPerBody: BodyTable.verticesPerBody)
        apply(&box)
    }

    /// Whether bodies `a` and `b` may touch: not both static, and their collision masks meet.
    @inline(__always)
    func shouldCollide(_ a: Int, _ b: Int) -> Bool {
        let sa = slot[a], sb = slot[b]
        if sa.isStatic && sb.isStatic { return false }
        if sa.isBoundary { return sa.itemMask & sb.boundaryMask != 0 }
        if sb.isBoundary { return sb.itemMask & sa.boundaryMask != 0 }
        return sa.itemMask & sb.itemMask != 0
    }

    /// Installs shape geometry in slot `b` (vertices relative to the centroid).
    func setGeometry(_ b: Int, _ g: ShapeGeometry) {
        outline[b].kind = g.kind
        outline[b].radius = g.radius
        outline[b].extent = g.extent
        outline[b].vertexCount = g.vertices.count
        let o = b * BodyTable.verticesPerBody
        for (k, v) in g.vertices.enumerated() {
            localVertices[o + k] = ShapeVertex(x: v.x, y: v.y, nx: g.normals[k].x, ny: g.normals[k].y)
        }
    }

    /// World-space vertices, normals and the swept, fattened bounding box of body `b`.
    @inline(__always)
    func refreshWorldShape(_ b: Int, margin: Double) {
        let p = pose[b], shape = outline[b]
        let c = p.cosA, s = p.sinA, x = p.x, y = p.y
        let sw = box[b].sweep + margin
        switch shape.kind {
        case .circle:
            let r = shape.radius
            box[b].minX = x - r - sw; box[b].maxX = x + r + sw
            box[b].minY = y - r - sw; box[b].maxY = y + r + sw
        case .polygon, .segment:
            let o = b * BodyTable.verticesPerBody, n = shape.vertexCount
            var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
            for i in o..<(o + n) {
                let v = localVertices[i]
                let wx = x + c * v.x - s * v.y, wy = y + s * v.x + c * v.y
                worldVertices[i] = ShapeVertex(x: wx, y: wy, nx: c * v.nx - s * v.ny, ny: s * v.nx + c * v.ny)
                lx = min(lx, wx); ly = min(ly, wy); hx = max(hx, wx); hy = max(hy, wy)
            }
            box[b].minX = lx - sw; box[b].maxX = hx + sw; box[b].minY = ly - sw; box[b].maxY = hy + sw
        case .wall:
            // Inward normal (c, s); the wall fills the half-plane behind the line through (x, y).
            let o = b * BodyTable.verticesPerBody
            worldVertices[o].nx = c; worldVertices[o].ny = s
            let big = 1e18
            box[b].minX = c > 0.5 ? -big : (c < -0.5 ? x - margin : -big)
            box[b].maxX = c > 0.5 ? x + margin : big
            box[b].minY = s > 0.5 ? -big : (s < -0.5 ? y - margin : -big)
            box[b].maxY = s > 0.5 ? y + margin : big
        }
    }
}

/// Whether the slot holds a body, and what the step's loops test first: static or asleep,
/// collision filter, sleep timer, hold.
struct BodySlot {
    var exists = false
    /// Advanced on every reuse of the slot.
    var generation: UInt32 = 0
    var awake = false
    var isStatic = false      // anchored item or boundary: infinite mass
    var isBoundary = false
    var allowsRotation = true
    /// Collision-behaviour bits: items collide when their item masks share a bit; an item
    /// meets a boundary owned by a behaviour whose bit is in its boundary mask.
    var itemMask: UInt64 = 0, boundaryMask: UInt64 = 0
    var sleepTime = 0.0
    var holdIndex: Int32 = -1

    /// Simulated this step: awake and free to move.
    var isActive: Bool { awake && !isStatic }
}

/// Where a body was when its still time began (`updateSleep`).
struct SleepAnchor {
    var x = 0.0, y = 0.0, angle = 0.0
}

/// Position of the centroid and rotation.
struct Pose {
    var x = 0.0, y = 0.0, angle = 0.0
    var cosA = 1.0, sinA = 0.0
}

/// Velocity. During a step the solver works on its own copy (`SolverBody`).
struct Motion {
    var vx = 0.0, vy = 0.0, w = 0.0
}

/// A body as the solver sees it through a step (Box2D v3's solver body state): velocity and
/// the motion since the step began (for contact separation), in slots of the awake bodies
/// taken once a step and written back at its end, so that the passes over constraints read
/// and write one compact array. Slot 0 stands for every body that does not move this step
/// (static or asleep: still, unturned): a row's lane on such a body stores into it without a
/// test, and what it stores is the zero it read (an impulse times an inverse mass of 0).
struct SolverBody {
    /// (vx, vy, w, 0) and (dpx, dpy, dqc − 1, dqs) in `Float`, as Box2D v3 keeps them: the rows
    /// take four bodies' vectors whole and transpose them into lanes. The turn is kept as
    /// cos − 1 so that small turns keep their digits (the floor's arms are ~1150 px).
    var velocity = SIMD4<Float>()
    var motion = SIMD4<Float>()

    init() {}
    init(_ m: Motion) { velocity = SIMD4(Float(m.vx), Float(m.vy), Float(m.w), 0) }

    var vx: Double { get { Double(velocity[0]) } set { velocity[0] = Float(newValue) } }
    var vy: Double { get { Double(velocity[1]) } set { velocity[1] = Float(newValue) } }
    var w: Double { get { Double(velocity[2]) } set { velocity[2] = Float(newValue) } }
    var dpx: Double { get { Double(motion[0]) } set { motion[0] = Float(newValue) } }
    var dpy: Double { get { Double(motion[1]) } set { motion[1] = Float(newValue) } }
    var dqc: Double { get { Double(motion[2]) + 1 } set { motion[2] = Float(newValue - 1) } }
    var dqs: Double { get { Double(motion[3]) } set { motion[3] = Float(newValue) } }
}

/// What a substep's velocity integration adds to a solver body (the external acceleration
/// times the substep, the same products each substep), and whether it may turn.
struct SolverGain {
    var vx = 0.0, vy = 0.0, w = 0.0
    var turns = false
}

/// What velocity integration adds: gravity, the external acceleration this step (gravity +
/// continuous pushes, px/s²) and damping.
struct Forces {
    var gravityX = 0.0, gravityY = 0.0
    var ax = 0.0, ay = 0.0, alpha = 0.0
    var linearDamping = 0.0, angularDamping = 0.0
}

/// What the body is made of, and the mass that follows from its density and shape.
struct Material {
    var density = 1.0, friction = 0.0, restitution = 0.0
    var area = 0.0, areaInertia = 0.0
    var mass = 0.0, invMass = 0.0, inertia = 0.0, invI = 0.0
}

/// The shape's kind and size; its vertices are in `localVertices`/`worldVertices`.
struct Outline {
    var kind = ShapeKind.circle
    var radius = 0.0, extent = 0.0
    var vertexCount = 0
}

/// A vertex and the normal of the edge that starts at it.
struct ShapeVertex {
    var x = 0.0, y = 0.0, nx = 0.0, ny = 0.0
}

/// Broad-phase box, fattened by `sweep`: an upper bound of the distance any surface point may
/// travel this step.
struct Box {
    var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
    var sweep = 0.0
}
