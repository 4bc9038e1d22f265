import Geometry

/// Discs in a rectangle: a small simulation of its own for circle-draw (discs only, so the
/// general engine buys nothing). Fixed steps (`DiscTuning.stepInterval`), gravity as an
/// acceleration on moving discs, true reflection with loss at the edges of `area`, impulses
/// by mass (∝ area) along the line of centres between discs, found through a uniform grid. A
/// disc hit by a moving one is knocked into motion; discs placed overlapping ignore each
/// other (only a fresh contact, no deeper than a step's approach, collides); a disc that has
/// been slow for a while comes to rest, so that the kiosk can sleep. New discs rest until
/// launched.
///
/// A value: the hot loops run in mutating methods, so they touch plain arrays (no
/// class-property access checks per element). Structure of arrays, indexed by disc, in the
/// order the discs were added: each loop reads only what it needs.
public struct DiscWorld {
    /// The caller's id of each disc.
    public private(set) var ids: [Int] = []
    public private(set) var px: [Double] = [], py: [Double] = []
    public private(set) var vx: [Double] = [], vy: [Double] = []
    public private(set) var radius: [Double] = []
    public private(set) var awake: [Bool] = []
    /// Time each awake disc has spent slower than `restSpeed`.
    private var slowFor: [Microseconds] = []
    public private(set) var awakeCount = 0
    public let area: Rect
    /// Screen width / 480: the tuning's lengths and speeds are multiplied by it.
    public let scale: Double
    public let tuning: DiscTuning
    /// The broad phase in two grids, so that a step sorts only what moves: `restingGrid`
    /// lists the discs that were at rest when it was built (rebuilt only when enough of them
    /// changed), `movingGrid` is built every step from the rest (the awake discs and the
    /// resting ones the resting grid does not list).
    private var restingGrid = UniformGrid()
    private var movingGrid = UniformGrid()
    /// Listed in `restingGrid` and at rest since (so its cells there are still right).
    private var inRestingGrid: [Bool] = []
    /// Indices shifted by a removal: the resting grid lists the wrong discs.
    private var restingGridStale = true
    /// The discs of the grid being built.
    private var gridMembers: [Int32] = []
    /// Discs woken during a step's collisions: they leave the resting grid once the step's
    /// pairs are done (until then it is where their cells are).
    private var wokenInCollisions: [Int32] = []
    /// The touching partners of the disc whose pairs are being solved, as order keys
    /// (cell of the ordering grid × count + index).
    private var partners: [Int] = []

    /// An area the limits refuse (not finite, negative, wider than `DynamicsLimits.largestItem`)
    /// becomes an empty one at the origin; a scale outside 0.001…1000 is brought within it (NaN
    /// is 1); tuning values that make no sense are the defaults. The grids' sizes come from
    /// these, so nothing outside can make them trap or allocate without bound.
    public init(area: Rect, scale: Double, tuning: DiscTuning = DiscTuning()) {
        let sane = DynamicsLimits.acceptsBounds(area) && area.width <= DynamicsLimits.largestItem
            && area.height <= DynamicsLimits.largestItem
        self.area = sane ? area : Rect(x: 0, y: 0, width: 0, height: 0)
        self.scale = scale.isNaN ? 1 : min(max(scale, 0.001), 1000)
        self.tuning = tuning.sanitized
    }

    public var count: Int { ids.count }
    /// The strongest gravity a step takes (1 = `tuning.gravityPixels`).
    public static let strongestGravity = 100.0

    /// Adds a disc at rest, on top of the others. It is always added (callers keep arrays
    /// beside the discs), but a centre that is not finite is the area's centre, one outside
    /// the area is moved to its nearest point, and the radius is kept within half a pixel and
    /// half the area's shorter side.
    public mutating func append(id: Int, center: Vec2, radius r: Double) {
        ids.append(id)
        let c = center.isFinite ? center : area.center
        px.append(min(max(c.x, area.minX), area.maxX)); py.append(min(max(c.y, area.minY), area.maxY))
        vx.append(0); vy.append(0)
        let largest = max(0.5, min(area.width, area.height) / 2)
        radius.append(r.isNaN ? 0.5 : min(max(r, 0.5), largest))
        awake.append(false)
        slowFor.append(0)
        inRestingGrid.append(false)
    }

    public mutating func remove(at i: Int) {
        if awake[i] { awakeCount -= 1 }
        ids.remove(at: i); px.remove(at: i); py.remove(at: i); vx.remove(at: i); vy.remove(at: i)
        radius.remove(at: i); awake.remove(at: i); slowFor.remove(at: i); inRestingGrid.remove(at: i)
        restingGridStale = true
    }

    public func contains(_ i: Int, _ p: Vec2) -> Bool {
        let dx = p.x - px[i], dy = p.y - py[i]
        return dx * dx + dy * dy <= radius[i] * radius[i]
    }

    /// Removes every disc containing `p`. Returns the indices they had, highest first: removed
    /// in that order from an array kept beside the discs (a colour per disc), it stays in step.
    @discardableResult
    public mutating func removeDiscs(containing p: Vec2) -> [Int] {
        var removed: [Int] = []
        var i = ids.count - 1
        while i >= 0 {
            if contains(i, p) { removed.append(i); remove(at: i) }
            i -= 1
        }
        return removed
    }

    /// The id of the disc added last (on top) under `p`.
    public func topmostDisc(containing p: Vec2) -> Int? {
        var i = ids.count - 1
        while i >= 0 {
            if contains(i, p) { return ids[i] }
            i -= 1
        }
        return nil
    }

    /// Sets disc `i` moving at `velocity`, capped at the tuning's maximum speed.
    public mutating func launch(_ i: Int, velocity: Vec2) {
        guard velocity.isFinite else { return }
        let limit = tuning.maximumSpeed * scale
        let speed = velocity.length
        let v = speed > limit ? velocity * (limit / speed) : velocity
        if !awake[i] { awake[i] = true; awakeCount += 1; inRestingGrid[i] = false }
        vx[i] = v.x; vy[i] = v.y
        slowFor[i] = 0
    }

    /// One step of `tuning.stepInterval` with `gravity` (1.0 = `tuning.gravityPixels` px/s²).
    /// Gravity that is not finite counts as none; more than `strongestGravity` is brought down
    /// to it. A disc may outrun the launch limit by falling, but not by more than four times
    /// (a bound for numbers, far above what an exhibit's gravity reaches on any screen).
    public mutating func step(gravity: Vec2) {
        let dt = tuning.stepSeconds
        var g = gravity.isFinite ? gravity : .zero
        if g.length > Self.strongestGravity { g = g * (Self.strongestGravity / g.length) }
        let ax = g.x * tuning.gravityPixels * scale, ay = g.y * tuning.gravityPixels * scale
        let limit = 4 * tuning.maximumSpeed * scale
        let n = ids.count
        for i in 0..<n where awake[i] {
            vx[i] += ax * dt; vy[i] += ay * dt
            let speedSquared = vx[i] * vx[i] + vy[i] * vy[i]
            if speedSquared > limit * limit {
                let k = limit / speedSquared.squareRoot()
                vx[i] *= k; vy[i] *= k
            }
            px[i] += vx[i] * dt; py[i] += vy[i] * dt
            bounceOffEdges(i)
        }
        collide()
        let rest = tuning.restSpeed * scale
        for i in 0..<n where awake[i] {
            if vx[i] * vx[i] + vy[i] * vy[i] < rest * rest {
                slowFor[i] += tuning.stepInterval
                if slowFor[i] >= tuning.restTime {
                    awake[i] = false; vx[i] = 0; vy[i] = 0; slowFor[i] = 0
                    awakeCount -= 1
                }
            } else {
                slowFor[i] = 0
            }
        }
    }

    /// True reflection with loss: the normal component turns round and the whole velocity
    /// keeps `wallRestitution` of its speed, so the angle out equals the angle in. The path
    /// beyond the edge is mirrored back (scaled the same), as the bounce happened mid-step.
    private mutating func bounceOffEdges(_ i: Int) {
        let r = radius[i]
        let e = tuning.wallRestitution
        let contact = tuning.contactSpeed * scale
        let mu = tuning.edgeFriction
        func bounce(_ p: inout Double, _ v: inout Double, _ tangent: inout Double, lo: Double, hi: Double) {
            if hi - lo <= 2 * r { p = (lo + hi) / 2; v = 0; return }
            let into: Double
            if p - r < lo, v < 0 {
                into = -v
                p = min(lo + r + (lo + r - p) * e, hi - r)
            } else if p + r > hi, v > 0 {
                into = v
                p = max(hi - r - (p + r - hi) * e, lo + r)
            } else {
                return
            }
            if into >= contact {
                v = -v * e
                tangent *= e
            } else {
                // Lying on the edge: the normal speed goes, and friction takes its share
                // of the sliding speed (Coulomb: proportional to the normal impulse).
                v = 0
                let slow = mu * into
                tangent = abs(tangent) <= slow ? 0 : tangent - (tangent > 0 ? slow : -slow)
            }
        }
        bounce(&px[i], &vx[i], &vy[i], lo: area.minX, hi: area.maxX)
        bounce(&py[i], &vy[i], &vx[i], lo: area.minY, hi: area.maxY)
    }

    /// Impulses between touching discs that approach each other (at least one of them
    /// moving), along the line of centres, by mass ∝ area: momentum is conserved exactly.
    /// Discs placed overlapping and at rest exert nothing on each other.
    ///
    /// The order of the impulses is that of one grid of `tuning.cellSize` over all discs:
    /// each awake disc by index, then its partners by the first cell of that grid the two
    /// share (row by row) and by index. Impulses in another order give other velocities, so
    /// the pairs found in the finer grids (half the cell: fewer discs to look at) are
    /// sorted into that order before they act.
    private mutating func collide() {
        let n = ids.count
        guard n > 1 else { return }
        sortIntoGrids()
        let e = tuning.discRestitution
        let dt = tuning.stepSeconds, slop = tuning.contactSlop * scale
        let orderCells = UniformGrid.layout(over: area, cellSize: tuning.cellSize * scale)
        var woken = 0
        // Plain buffers: the loop meets every disc sharing a cell with a moving one, and
        // checked array reads there cost more than the pair test itself.
        restingGrid.withView { restingGrid in movingGrid.withView { movingGrid in
        px.withUnsafeBufferPointer { px in py.withUnsafeBufferPointer { py in radius.withUnsafeBufferPointer { radius in
        vx.withUnsafeMutableBufferPointer { vx in vy.withUnsafeMutableBufferPointer { vy in
        awake.withUnsafeMutableBufferPointer { awake in slowFor.withUnsafeMutableBufferPointer { slowFor in
        inRestingGrid.withUnsafeBufferPointer { inRestingGrid in
        for i in 0..<n where awake[i] {
            let ri = inRestingGrid[i] ? restingGrid.range(i) : movingGrid.range(i)
            let oi = orderCells.cellRange(px[i], py[i], radius[i])
            partners.removeAll(keepingCapacity: true)
            // Each pair once: from the awake one with the lower index, in the first cell the
            // two share; then only discs that touch.
            @inline(__always) func consider(_ j: Int, _ rj: SIMD4<Int32>, _ cx: Int, _ cy: Int) {
                if j == i || (awake[j] && j < i) { return }
                if max(ri.x, rj.x) != cx || max(ri.y, rj.y) != cy { return }
                let dx = px[j] - px[i], dy = py[j] - py[i]
                let reach = radius[i] + radius[j]
                let d2 = dx * dx + dy * dy
                guard d2 < reach * reach, d2 > 0 else { return }
                let oj = orderCells.cellRange(px[j], py[j], radius[j])
                let cell = max(oi.1, oj.1) * orderCells.columns + max(oi.0, oj.0)
                partners.append(cell * n + j)
            }
            for cy in Int(ri.y)...Int(ri.w) {
                for cx in Int(ri.x)...Int(ri.z) {
                    let (from, to) = restingGrid.span(cx, cy)
                    for k in from..<to {
                        let j = restingGrid.entry(k)
                        // Woken in an earlier step: listed in the moving grid now.
                        if inRestingGrid[j] { consider(j, restingGrid.range(j), cx, cy) }
                    }
                }
            }
            for cy in Int(ri.y)...Int(ri.w) {
                for cx in Int(ri.x)...Int(ri.z) {
                    let (from, to) = movingGrid.span(cx, cy)
                    for k in from..<to {
                        let j = movingGrid.entry(k)
                        consider(j, movingGrid.range(j), cx, cy)
                    }
                }
            }
            // Few partners (touching discs): insertion sort.
            var sorted = 1
            while sorted < partners.count {
                let key = partners[sorted]
                var k = sorted
                while k > 0 && partners[k - 1] > key { partners[k] = partners[k - 1]; k -= 1 }
                partners[k] = key
                sorted += 1
            }
            for key in partners {
                let j = key % n
                let dx = px[j] - px[i], dy = py[j] - py[i]
                let reach = radius[i] + radius[j]
                let d = (dx * dx + dy * dy).squareRoot()
                let nx = dx / d, ny = dy / d
                let approach = (vx[j] - vx[i]) * nx + (vy[j] - vy[i]) * ny
                guard approach < 0 else { continue }
                // A fresh contact is at most a step's approach deep; deeper overlaps were
                // placed that way and pass through each other.
                if reach - d > -approach * dt + slop { continue }
                let mi = radius[i] * radius[i], mj = radius[j] * radius[j]
                let impulse = -(1 + e) * approach / (1 / mi + 1 / mj)
                vx[i] -= impulse / mi * nx; vy[i] -= impulse / mi * ny
                vx[j] += impulse / mj * nx; vy[j] += impulse / mj * ny
                if !awake[j] {
                    awake[j] = true; woken += 1; slowFor[j] = 0
                    if inRestingGrid[j] { wokenInCollisions.append(Int32(j)) }
                }
            }
        }
        } } } } } } } } } }
        awakeCount += woken
        for j in wokenInCollisions { inRestingGrid[Int(j)] = false }
        wokenInCollisions.removeAll(keepingCapacity: true)
    }

    /// Builds the moving grid, and the resting grid again when indices shifted or when the
    /// moving grid would carry more than an eighth of the discs at rest (fallen asleep or
    /// added since the resting grid was built): sorting those each step costs more than
    /// building the resting grid anew now and then.
    private mutating func sortIntoGrids() {
        let n = ids.count
        let cellSize = tuning.cellSize * scale / 2
        gridMembers.removeAll(keepingCapacity: true)
        var restingOutside = 0
        for i in 0..<n where !inRestingGrid[i] {
            gridMembers.append(Int32(i))
            if !awake[i] { restingOutside += 1 }
        }
        if restingGridStale || restingOutside * 8 > n {
            gridMembers.removeAll(keepingCapacity: true)
            for i in 0..<n {
                inRestingGrid[i] = !awake[i]
                if !awake[i] { gridMembers.append(Int32(i)) }
            }
            restingGrid.build(members: gridMembers, px: px, py: py, radius: radius, area: area, cellSize: cellSize)
            restingGridStale = false
            gridMembers.removeAll(keepingCapacity: true)
            for i in 0..<n where awake[i] { gridMembers.append(Int32(i)) }
        }
        movingGrid.build(members: gridMembers, px: px, py: py, radius: radius, area: area, cellSize: cellSize)
    }
}
