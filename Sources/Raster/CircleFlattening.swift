import Geometry

// Which polygon a circle is drawn as: the one cairo fills for cairo_arc at its default
// tolerance (0.1 px), with the exact area of that polygon in every pixel. Pictures then agree
// with cairo's, the renderer this project is measured against, to within cairo's own
// sampling (the bench's thousand circles: mean 0.03 of 255), as Blend2D's do; the true
// circle lies up to 0.1 px outside this polygon, which no visitor can see.
//
// cairo_arc cuts a whole turn into two halves and each half into n equal Bézier arcs, n the
// least that keeps the Bézier's error below tolerance / r (its error is
// 2/27 · sin⁶(θ/4) / cos²(θ/4) of r for an arc of θ): n = 2, quarter turns, for 5.4 ≤ r <
// 366.9 px, fewer below, more above. Filling flattens each Bézier by halving it (de Casteljau)
// until both control points lie within the tolerance of the piece's chord, and joins the
// pieces' ends. Quarter turns give a polygon with all eight of the circle's mirror
// symmetries, so one quarter, as a table, serves every row and column of a disc (Discs.swift);
// discs of other radii go through the convex-polygon path with the whole outline (rings keep
// to quarter turns at any radius: `Canvas.strokeCircle`).
extension Canvas {
    /// cairo's default tolerance, in pixels.
    static let flatness = 0.1

    /// The radii (px) whose circles cairo builds from quarter-turn Béziers: below, half turns;
    /// from the upper one on, thirds of a half turn or less.
    static let quarterTurnRadii = (low: flatness / arcError(Double.pi), high: flatness / arcError(Double.pi / 2))

    /// The error of one Bézier arc spanning `angle` (radians), relative to the radius.
    static func arcError(_ angle: Double) -> Double {
        let (s, c) = (_sin(angle / 4), _cos(angle / 4))
        let s2 = s * s
        return 2.0 / 27.0 * s2 * s2 * s2 / (c * c)
    }

    /// How many Bézier arcs cairo gives half a turn of a circle of `radius`.
    static func arcsPerHalfTurn(radius: Double) -> Int {
        let relative = flatness / radius
        var n = 1
        // cairo stops at 1000 arcs a half turn; so does this (a radius of about 10¹⁷ px).
        while n < 1000 && !(arcError(Double.pi / Double(n)) < relative) { n += 1 }
        return n
    }

    /// Whether a flattened piece a-b-c-d of a Bézier is flat enough: both control points within
    /// the tolerance of the segment a-d (cairo's measure: distance to the segment, not the line).
    @inline(__always) static func flatEnough(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>,
                                             _ d: SIMD2<Double>) -> Bool {
        var pb = b - a, pc = c - a
        let chord = d - a
        let chordSquared = chord.x * chord.x + chord.y * chord.y
        if chordSquared > 0 {
            let ub = pb.x * chord.x + pb.y * chord.y
            if ub >= chordSquared { pb -= chord } else if ub > 0 { pb -= (ub / chordSquared) * chord }
            let uc = pc.x * chord.x + pc.y * chord.y
            if uc >= chordSquared { pc -= chord } else if uc > 0 { pc -= (uc / chordSquared) * chord }
        }
        let errorSquared = Swift.max(pb.x * pb.x + pb.y * pb.y, pc.x * pc.x + pc.y * pc.y)
        return errorSquared < flatness * flatness
    }

    /// Appends the start of every flat piece of the Bézier a-b-c-d to `out` (not its end: the
    /// next arc starts there), halving at most `depth` more times.
    static func flatten(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>,
                        depth: Int, _ out: UnsafeMutablePointer<SIMD2<Double>>, _ count: inout Int) {
        if depth == 0 || flatEnough(a, b, c, d) {
            out[count] = a; count += 1
            return
        }
        let ab = (a + b) * 0.5, bc = (b + c) * 0.5, cd = (c + d) * 0.5
        let abc = (ab + bc) * 0.5, bcd = (bc + cd) * 0.5, mid = (abc + bcd) * 0.5
        flatten(a, ab, abc, mid, depth: depth - 1, out, &count)
        flatten(mid, bcd, cd, d, depth: depth - 1, out, &count)
    }

    /// Writes the polygon of the circle (cx, cy, r) into `vertices`, clockwise on screen from
    /// angle 0, and returns how many there are (at most `maxCircleVertices`: a radius so large
    /// that it would need more is a straight line at the screen's scale, and gets longer pieces).
    func flattenedCircle(_ cx: Double, _ cy: Double, _ r: Double) -> Int {
        let arcs = 2 * Canvas.arcsPerHalfTurn(radius: r)
        var depth = 0
        while arcs << (depth + 1) <= Canvas.maxCircleVertices && depth < 30 { depth += 1 }
        let step = 2 * Double.pi / Double(arcs)
        let h = 4.0 / 3.0 * _sin(step / 4) / _cos(step / 4)
        let centre = SIMD2(cx, cy)
        var count = 0
        var start = SIMD2(r, 0.0)
        for k in 0..<arcs {
            let angle = Double(k + 1) * step
            let end = k == arcs - 1 ? SIMD2(r, 0.0) : SIMD2(r * _cos(angle), r * _sin(angle))
            // Control points along the tangents at both ends, h·r long.
            let b = start + h * SIMD2(-start.y, start.x), c = end - h * SIMD2(-end.y, end.x)
            Canvas.flatten(centre + start, centre + b, centre + c, centre + end, depth: depth, vertices, &count)
            start = end
        }
        return count
    }
}

/// One quarter of a circle's polygon built from quarter turns (cairo's for radii in
/// `Canvas.quarterTurnRadii`; rings use it at any radius up to `Canvas.ringRadiusLimit`),
/// relative to the centre, as (w, y) = (|x − cx|, |y − cy|): vertices from (r, 0) to (0, r),
/// y rising strictly, mirror-symmetric about w = y. Row y's half-width and column x's
/// half-height are both `halfWidth` (on the edge `edge(at:)` finds). Made once per radius
/// (the last one is kept).
struct FlatQuarter {
    /// Vertices 0…edges.
    let w: UnsafeMutablePointer<Double>, y: UnsafeMutablePointer<Double>
    /// Edge j (from vertex j to j + 1) as w = line[j].x + h·line[j].y, h its height.
    let line: UnsafeMutablePointer<SIMD2<Double>>
    /// For each step of 1/`scale` px in height, the last vertex at or below the step's start
    /// and the next vertex's height. `scale` (a power of two) makes steps shorter than the
    /// closest two vertices' gap in height, so that a step holds one vertex at most and
    /// `edge(at:)` needs no loop.
    private(set) var below: UnsafeMutablePointer<Step>
    struct Step { var edge: Int; var nextHeight: Double }
    private(set) var belowCapacity = 0
    private(set) var scale = 1.0
    private(set) var radius = -1.0
    private(set) var edges = 0

    static let maxVertices = 1024

    init() {
        w = .allocate(capacity: FlatQuarter.maxVertices + 1)
        y = .allocate(capacity: FlatQuarter.maxVertices + 1)
        line = .allocate(capacity: FlatQuarter.maxVertices + 1)
        below = .allocate(capacity: 1)
        belowCapacity = 1
    }

    func deallocate() { w.deallocate(); y.deallocate(); line.deallocate(); below.deallocate() }

    /// The table for `r` (kept when it is the last radius already).
    mutating func prepare(radius r: Double, scratch: UnsafeMutablePointer<SIMD2<Double>>) {
        if r == radius { return }
        radius = r
        let h = 4.0 / 3.0 * (2.0.squareRoot() - 1) // tan(π/8): a quarter turn's control arms
        let a = SIMD2(r, 0.0), b = SIMD2(r, h * r), c = SIMD2(h * r, r), d = SIMD2(0.0, r)
        // The first half (up to 45°), flattened; the second is its mirror image. (A quarter
        // turn is flat enough whole only under 0.26 px, where halving it once costs nothing.)
        let ab = (a + b) * 0.5, bc = (b + c) * 0.5, cd = (c + d) * 0.5
        let abc = (ab + bc) * 0.5, bcd = (bc + cd) * 0.5, mid = (abc + bcd) * 0.5
        var half = 0
        // Depth 9 caps a half at 512 pieces, more than any radius here needs (64 at 4096 px).
        Canvas.flatten(a, ab, abc, mid, depth: 9, scratch, &half)
        edges = 2 * half
        for j in 0..<half {
            w[j] = scratch[j].x; y[j] = scratch[j].y
            w[edges - j] = scratch[j].y; y[edges - j] = scratch[j].x
        }
        w[half] = mid.x; y[half] = mid.y
        var closest = Double.infinity
        for j in 0..<edges {
            let slope = (w[j + 1] - w[j]) / (y[j + 1] - y[j])
            line[j] = SIMD2(w[j] - y[j] * slope, slope)
            closest = Swift.min(closest, y[j + 1] - y[j])
        }
        scale = 1
        while scale * closest < 1 && scale < 65536 { scale *= 2 }
        let steps = Int(r * scale) + 1
        if steps + 1 > belowCapacity {
            below.deallocate()
            below = .allocate(capacity: steps + 1)
            belowCapacity = steps + 1
        }
        var j = 0
        for step in 0...steps {
            while j < edges - 1 && y[j + 1] <= Double(step) / scale { j += 1 }
            // The last edge runs on to the top: no height takes `edge(at:)` past it.
            below[step] = Step(edge: j, nextHeight: j == edges - 1 ? .infinity : y[j + 1])
        }
    }

    /// The edge that spans height `h` (0 ≤ h ≤ r, or a rounding error beyond): the last vertex
    /// at or below it (the last edge for h = r).
    @inline(__always) func edge(at h: Double) -> Int {
        let step = below[Int(h * scale)]
        return h >= step.nextHeight ? step.edge + 1 : step.edge
    }

    /// The half-width at height h (0 ≤ h ≤ r) on edge j.
    @inline(__always) func halfWidth(_ h: Double, edge j: Int) -> Double {
        let edge = line[j]
        return edge.x + h * edge.y
    }

    /// What the polygon adds to the chord from P to Q, two of its points on edges jp and jq,
    /// signed as `Canvas.arcColumns` adds it to the area left of an arc: minus the signed area
    /// of P, the vertices between, Q; nothing when both lie on one edge.
    @inline(__always) func bend(_ wp: Double, _ yp: Double, _ jp: Int, _ wq: Double, _ yq: Double, _ jq: Int) -> Double {
        // At most one vertex between is nearly every piece: vertex max(jp, jq) is it, or with
        // none (jp = jq) the start of the edge that holds P and Q, whose triangle is flat (no
        // test, whose outcome no predictor could guess).
        if abs(jp - jq) <= 1 {
            let v = Swift.max(jp, jq)
            return -0.5 * ((w[v] - wp) * (yq - yp) - (y[v] - yp) * (wq - wp))
        }
        var twice = 0.0
        var (pw, py) = (0.0, 0.0) // the last point, relative to P
        if jp < jq {
            for j in (jp + 1)...jq {
                let vw = w[j] - wp, vy = y[j] - yp
                twice += pw * vy - py * vw
                pw = vw; py = vy
            }
        } else {
            var j = jp
            while j > jq {
                let vw = w[j] - wp, vy = y[j] - yp
                twice += pw * vy - py * vw
                pw = vw; py = vy
                j -= 1
            }
        }
        twice += pw * (yq - yp) - py * (wq - wp)
        return -0.5 * twice
    }
}
