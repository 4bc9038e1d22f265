import Geometry

/// Every body of the world, structure-of-arrays: items (dynamic or anchored) and the static
/// boundary shapes. A slot is reused after removal with a new generation, so stale `ItemID`s
/// are recognised.
struct BodyTable {
    static let verticesPerBody = maxPolygonVertices

    var count = 0            // slots in use (including free ones below `count`)
    var exists: Storage<Bool>
    var generation: Storage<UInt32>
    var kind: Storage<ShapeKind>
    var isStatic: Storage<Bool>      // anchored item or boundary: infinite mass
    var isBoundary: Storage<Bool>
    var awake: Storage<Bool>
    var allowsRotation: Storage<Bool>

    // Pose: the centre is the centroid.
    var px: Storage<Double>, py: Storage<Double>, angle: Storage<Double>
    var cosA: Storage<Double>, sinA: Storage<Double>
    // Velocity and, during a step, motion since the step began (for contact separation).
    var vx: Storage<Double>, vy: Storage<Double>, w: Storage<Double>
    var dpx: Storage<Double>, dpy: Storage<Double>, dqc: Storage<Double>, dqs: Storage<Double>

    var area: Storage<Double>, areaInertia: Storage<Double>
    var mass: Storage<Double>, invMass: Storage<Double>, inertia: Storage<Double>, invI: Storage<Double>
    var density: Storage<Double>, friction: Storage<Double>, restitution: Storage<Double>
    var linearDamping: Storage<Double>, angularDamping: Storage<Double>
    /// External acceleration this step (gravity + continuous pushes), px/s².
    var ax: Storage<Double>, ay: Storage<Double>, alpha: Storage<Double>
    var gravityX: Storage<Double>, gravityY: Storage<Double>

    // Shape, in the body frame and in the world (refreshed once per step).
    var radius: Storage<Double>, extent: Storage<Double>, vertexCount: Storage<Int>
    var localVX: Storage<Double>, localVY: Storage<Double>, localNX: Storage<Double>, localNY: Storage<Double>
    var worldVX: Storage<Double>, worldVY: Storage<Double>, worldNX: Storage<Double>, worldNY: Storage<Double>

    // Broadphase box, fattened by the distance the body may travel in one step.
    var minX: Storage<Double>, minY: Storage<Double>, maxX: Storage<Double>, maxY: Storage<Double>
    /// Upper bound of the distance any surface point may travel this step.
    var sweep: Storage<Double>

    /// Collision-behaviour bits: items collide when their item masks share a bit; an item
    /// meets a boundary owned by a behaviour whose bit is in its boundary mask.
    var itemMask: Storage<UInt64>, boundaryMask: Storage<UInt64>
    var sleepTime: Storage<Double>
    var islandParent: Storage<Int32>
    var holdIndex: Storage<Int32>

    init(capacity: Int) {
        let c = capacity, v = capacity * BodyTable.verticesPerBody
        exists = Storage(capacity: c, fill: false); generation = Storage(capacity: c, fill: 0)
        kind = Storage(capacity: c, fill: .circle); isStatic = Storage(capacity: c, fill: false)
        isBoundary = Storage(capacity: c, fill: false); awake = Storage(capacity: c, fill: false)
        allowsRotation = Storage(capacity: c, fill: true)
        px = Storage(capacity: c, fill: 0); py = Storage(capacity: c, fill: 0); angle = Storage(capacity: c, fill: 0)
        cosA = Storage(capacity: c, fill: 1); sinA = Storage(capacity: c, fill: 0)
        vx = Storage(capacity: c, fill: 0); vy = Storage(capacity: c, fill: 0); w = Storage(capacity: c, fill: 0)
        dpx = Storage(capacity: c, fill: 0); dpy = Storage(capacity: c, fill: 0)
        dqc = Storage(capacity: c, fill: 1); dqs = Storage(capacity: c, fill: 0)
        area = Storage(capacity: c, fill: 0); areaInertia = Storage(capacity: c, fill: 0)
        mass = Storage(capacity: c, fill: 0); invMass = Storage(capacity: c, fill: 0)
        inertia = Storage(capacity: c, fill: 0); invI = Storage(capacity: c, fill: 0)
        density = Storage(capacity: c, fill: 1); friction = Storage(capacity: c, fill: 0)
        restitution = Storage(capacity: c, fill: 0)
        linearDamping = Storage(capacity: c, fill: 0); angularDamping = Storage(capacity: c, fill: 0)
        ax = Storage(capacity: c, fill: 0); ay = Storage(capacity: c, fill: 0); alpha = Storage(capacity: c, fill: 0)
        gravityX = Storage(capacity: c, fill: 0); gravityY = Storage(capacity: c, fill: 0)
        radius = Storage(capacity: c, fill: 0); extent = Storage(capacity: c, fill: 0)
        vertexCount = Storage(capacity: c, fill: 0)
        localVX = Storage(capacity: v, fill: 0); localVY = Storage(capacity: v, fill: 0)
        localNX = Storage(capacity: v, fill: 0); localNY = Storage(capacity: v, fill: 0)
        worldVX = Storage(capacity: v, fill: 0); worldVY = Storage(capacity: v, fill: 0)
        worldNX = Storage(capacity: v, fill: 0); worldNY = Storage(capacity: v, fill: 0)
        minX = Storage(capacity: c, fill: 0); minY = Storage(capacity: c, fill: 0)
        maxX = Storage(capacity: c, fill: 0); maxY = Storage(capacity: c, fill: 0)
        sweep = Storage(capacity: c, fill: 0)
        itemMask = Storage(capacity: c, fill: 0); boundaryMask = Storage(capacity: c, fill: 0)
        sleepTime = Storage(capacity: c, fill: 0); islandParent = Storage(capacity: c, fill: -1)
        holdIndex = Storage(capacity: c, fill: -1)
    }

    mutating func reserve(_ n: Int) {
        let v = n * BodyTable.verticesPerBody
        exists.reserve(n); generation.reserve(n); kind.reserve(n); isStatic.reserve(n); isBoundary.reserve(n)
        awake.reserve(n); allowsRotation.reserve(n)
        px.reserve(n); py.reserve(n); angle.reserve(n); cosA.reserve(n); sinA.reserve(n)
        vx.reserve(n); vy.reserve(n); w.reserve(n); dpx.reserve(n); dpy.reserve(n); dqc.reserve(n); dqs.reserve(n)
        area.reserve(n); areaInertia.reserve(n)
        mass.reserve(n); invMass.reserve(n); inertia.reserve(n); invI.reserve(n)
        density.reserve(n); friction.reserve(n); restitution.reserve(n)
        linearDamping.reserve(n); angularDamping.reserve(n)
        ax.reserve(n); ay.reserve(n); alpha.reserve(n); gravityX.reserve(n); gravityY.reserve(n)
        radius.reserve(n); extent.reserve(n); vertexCount.reserve(n)
        localVX.reserve(v); localVY.reserve(v); localNX.reserve(v); localNY.reserve(v)
        worldVX.reserve(v); worldVY.reserve(v); worldNX.reserve(v); worldNY.reserve(v)
        minX.reserve(n); minY.reserve(n); maxX.reserve(n); maxY.reserve(n); sweep.reserve(n)
        itemMask.reserve(n); boundaryMask.reserve(n); sleepTime.reserve(n); islandParent.reserve(n)
        holdIndex.reserve(n)
    }

    func release() {
        exists.release(); generation.release(); kind.release(); isStatic.release(); isBoundary.release()
        awake.release(); allowsRotation.release()
        px.release(); py.release(); angle.release(); cosA.release(); sinA.release()
        vx.release(); vy.release(); w.release(); dpx.release(); dpy.release(); dqc.release(); dqs.release()
        area.release(); areaInertia.release()
        mass.release(); invMass.release(); inertia.release(); invI.release()
        density.release(); friction.release(); restitution.release()
        linearDamping.release(); angularDamping.release()
        ax.release(); ay.release(); alpha.release(); gravityX.release(); gravityY.release()
        radius.release(); extent.release(); vertexCount.release()
        localVX.release(); localVY.release(); localNX.release(); localNY.release()
        worldVX.release(); worldVY.release(); worldNX.release(); worldNY.release()
        minX.release(); minY.release(); maxX.release(); maxY.release(); sweep.release()
        itemMask.release(); boundaryMask.release(); sleepTime.release(); islandParent.release()
        holdIndex.release()
    }

    /// Installs shape geometry in slot `b` (vertices relative to the centroid).
    func setGeometry(_ b: Int, _ g: ShapeGeometry) {
        kind[b] = g.kind
        radius[b] = g.radius
        extent[b] = g.extent
        vertexCount[b] = g.vertices.count
        let o = b * BodyTable.verticesPerBody
        for (k, v) in g.vertices.enumerated() {
            localVX[o + k] = v.x; localVY[o + k] = v.y
            localNX[o + k] = g.normals[k].x; localNY[o + k] = g.normals[k].y
        }
    }

    /// World-space vertices, normals and the swept, fattened bounding box of body `b`.
    @inline(__always)
    func refreshWorldShape(_ b: Int, margin: Double) {
        let c = cosA[b], s = sinA[b], x = px[b], y = py[b]
        let k = kind[b]
        let sw = sweep[b] + margin
        switch k {
        case .circle:
            let r = radius[b]
            minX[b] = x - r - sw; maxX[b] = x + r + sw
            minY[b] = y - r - sw; maxY[b] = y + r + sw
        case .polygon, .segment:
            let o = b * BodyTable.verticesPerBody, n = vertexCount[b]
            var lx = Double.infinity, ly = Double.infinity, hx = -Double.infinity, hy = -Double.infinity
            for i in o..<(o + n) {
                let vx = localVX[i], vy = localVY[i]
                let wx = x + c * vx - s * vy, wy = y + s * vx + c * vy
                worldVX[i] = wx; worldVY[i] = wy
                let nx = localNX[i], ny = localNY[i]
                worldNX[i] = c * nx - s * ny; worldNY[i] = s * nx + c * ny
                lx = min(lx, wx); ly = min(ly, wy); hx = max(hx, wx); hy = max(hy, wy)
            }
            minX[b] = lx - sw; maxX[b] = hx + sw; minY[b] = ly - sw; maxY[b] = hy + sw
        case .wall:
            // Inward normal (c, s); the wall fills the half-plane behind the line through (x, y).
            let o = b * BodyTable.verticesPerBody
            worldNX[o] = c; worldNY[o] = s
            let big = 1e18
            minX[b] = c > 0.5 ? -big : (c < -0.5 ? x - margin : -big)
            maxX[b] = c > 0.5 ? x + margin : big
            minY[b] = s > 0.5 ? -big : (s < -0.5 ? y - margin : -big)
            maxY[b] = s > 0.5 ? y + margin : big
        }
    }
}
