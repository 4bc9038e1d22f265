#if canImport(Glibc)
import Glibc
#endif
import Geometry

/// Draws anti-aliased shapes into a `PixelBuffer` (XRGB8888 or RGB565) and records what it
/// changed.
///
/// Every shape is a closed polygon (circles: chords within 0.2 px, area kept exact) and every
/// pixel gets the exact area of the polygon inside it, as in FreeType's and Skia's analytic
/// rasterizers. Convex shapes (discs, transformed rectangles, lines) go row by row along their
/// two sides: where each side crosses the row as one short straight piece (most rows), the
/// edge pixels' areas are a closed form, and runs of whole rows on the same two segments
/// (bands) step x by dx/dy with no per-row tests; elsewhere the pieces deposit signed cover and area
/// into a row of cells that a sweep turns into coverage. Between the sides lies a span of
/// constant coverage, stored with vector stores and no per-pixel arithmetic, so cost follows
/// the outline, not the area. Rings and general polygons deposit into whole-canvas cells and
/// are swept the same way (non-zero winding). Shapes partly or wholly outside the canvas are
/// clipped exactly: coverage inside is what an infinite canvas would show.
public final class Canvas {
    public let buffer: PixelBuffer
    public var width: Int { buffer.width }
    public var height: Int { buffer.height }
    public var bounds: PixelRect { buffer.bounds }

    /// Union of everything drawn since the last `takeDamage()`.
    public private(set) var damage: PixelRect = .empty
    /// The rectangles drawn since the last `takeDamage()`, merged into `damage` alone once
    /// there are more than `maxDamageRects` of them (then one big copy beats many small ones).
    public private(set) var damageRects: [PixelRect] = []
    public var maxDamageRects = 32

    /// When set, drawing touches only pixels inside this rectangle (and the canvas): a
    /// renderer repainting one damaged rectangle redraws every shape crossing it, and the
    /// clip keeps those shapes from painting over pixels outside it. Coverage inside the clip
    /// is exactly what it would be without it.
    public var clip: PixelRect? = nil {
        didSet { drawable = clip.map { $0.intersection(bounds) } ?? bounds }
    }
    /// The canvas, cut down to `clip`.
    public private(set) lazy var drawable: PixelRect = bounds

    // Cell buffer: for every pixel, the signed height (cover) and signed area an outline
    // leaves there. Rows × (width + 1) pairs of Float, zero except during a fill.
    private let cells: UnsafeMutablePointer<SIMD2<Float>>
    private let cellStride: Int
    // Per row, up to `rangesPerRow` column ranges [lo, hi] that hold non-zero cells.
    private static let rangesPerRow = 4
    private let rangeLo: UnsafeMutablePointer<Int32>
    private let rangeHi: UnsafeMutablePointer<Int32>
    private let rangeCount: UnsafeMutablePointer<Int32>
    // Rows touched by the current fill.
    private var rowMin = Int.max, rowMax = Int.min
    // Vertices of the current convex shape (a circle has at most `maxCircleVertices`).
    private static let maxCircleVertices = 8192
    private let vertices: UnsafeMutablePointer<SIMD2<Double>>
    // One row of cells for convex shapes: stays in L1 while the shape is swept row by row.
    private let rowCells: UnsafeMutablePointer<SIMD2<Float>>

    public init(buffer: PixelBuffer) {
        self.buffer = buffer
        cellStride = buffer.width + 1
        cells = .allocate(capacity: cellStride * buffer.height)
        cells.initialize(repeating: .zero, count: cellStride * buffer.height)
        rangeLo = .allocate(capacity: buffer.height * Canvas.rangesPerRow)
        rangeHi = .allocate(capacity: buffer.height * Canvas.rangesPerRow)
        rangeLo.initialize(repeating: 0, count: buffer.height * Canvas.rangesPerRow)
        rangeHi.initialize(repeating: 0, count: buffer.height * Canvas.rangesPerRow)
        rangeCount = .allocate(capacity: buffer.height)
        rangeCount.initialize(repeating: 0, count: buffer.height)
        vertices = .allocate(capacity: Canvas.maxCircleVertices)
        vertices.initialize(repeating: .zero, count: Canvas.maxCircleVertices)
        rowCells = .allocate(capacity: buffer.width + 2)
        rowCells.initialize(repeating: .zero, count: buffer.width + 2)
        damageRects.reserveCapacity(maxDamageRects + 1)
    }

    /// A canvas over a fresh buffer.
    public convenience init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        self.init(buffer: PixelBuffer(width: width, height: height, format: format))
    }

    deinit {
        cells.deallocate(); rangeLo.deallocate(); rangeHi.deallocate(); rangeCount.deallocate()
        vertices.deallocate(); rowCells.deallocate()
    }

    // MARK: Damage

    /// Records `rect` (clipped to the canvas) as changed.
    public func addDamage(_ rect: PixelRect) {
        let r = rect.intersection(drawable)
        if r.isEmpty { return }
        damage = damage.union(r)
        if damageCollapsed {
            damageRects[0] = damage
        } else if damageRects.count < maxDamageRects {
            damageRects.append(r)
        } else {
            damageRects.removeAll(keepingCapacity: true)
            damageRects.append(damage)
            damageCollapsed = true
        }
    }
    private var damageCollapsed = false

    /// The rectangles to present for this frame (they may overlap), and a fresh start.
    public func takeDamage() -> [PixelRect] {
        let out = damageRects
        resetDamage()
        return out
    }

    public func resetDamage() {
        damage = .empty
        damageCollapsed = false
        damageRects.removeAll(keepingCapacity: true)
    }

    // MARK: Reading pixels

    /// The colour shown at pixel (x, y); nil outside the canvas.
    public func pixel(x: Int, y: Int) -> Color? {
        guard bounds.contains(x: x, y: y) else { return nil }
        switch buffer.format {
        case .xrgb8888: return Color(xrgb: buffer.row32(y)[x])
        case .rgb565: return Color(xrgb: xrgb(rgb565: buffer.row16(y)[x]))
        }
    }

    // MARK: Rectangles on the pixel grid

    /// Fills the whole canvas with `color` (opaque: alpha ignored).
    public func clear(_ color: Color) {
        let opaque = Color(r: color.r, g: color.g, b: color.b)
        fillRect(bounds, color: opaque)
    }

    /// Fills whole pixels; blends when `color` is translucent.
    public func fillRect(_ rect: PixelRect, color: Color) {
        let r = rect.intersection(drawable)
        if r.isEmpty || color.a == 0 { return }
        addDamage(r)
        switch buffer.format {
        case .xrgb8888:
            let v = color.xrgb, a = UInt32(color.a)
            for y in r.y..<r.maxY {
                let row = buffer.row32(y) + r.x
                if a == 255 { fillSpan32(row, r.width, v) } else {
                    for i in 0..<r.width { row[i] = blendXRGB(row[i], v, a) }
                }
            }
        case .rgb565:
            let v = color.rgb565Value, src = color.xrgb, a = UInt32(color.a)
            for y in r.y..<r.maxY {
                let row = buffer.row16(y) + r.x
                if a == 255 { fillSpan16(row, r.width, v) } else {
                    for i in 0..<r.width { row[i] = blend565(row[i], src, a) }
                }
            }
        }
    }

    /// Fills whole pixels with a linear gradient from `start` (top, or left when not
    /// `vertical`) to `end`, opaque. On RGB565 a 4×4 ordered (Bayer) dither spreads each
    /// channel between its two nearest levels, so the 5- and 6-bit steps do not show as bands.
    public func fillGradient(_ rect: PixelRect, from start: Color, to end: Color, vertical: Bool = true) {
        let r = rect.intersection(drawable)
        if r.isEmpty { return }
        addDamage(r)
        let length = Double(vertical ? rect.height : rect.width)
        let s = SIMD3<Double>(Double(start.r), Double(start.g), Double(start.b))
        let e = SIMD3<Double>(Double(end.r), Double(end.g), Double(end.b))
        // Bayer 4×4 thresholds (0…15) as fractions of a level, centred in their sixteenths.
        let bayer: [Double] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { ($0 + 0.5) / 16 }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX {
                let position = Double(vertical ? y - rect.y : x - rect.x) + 0.5
                let c = s + (e - s) * (position / length)
                switch buffer.format {
                case .xrgb8888:
                    let q = (c + 0.5).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
                    buffer.row32(y)[x] = 0xFF00_0000 | UInt32(q.x) << 16 | UInt32(q.y) << 8 | UInt32(q.z)
                case .rgb565:
                    let t = bayer[(y & 3) * 4 + (x & 3)]
                    let r5 = Swift.min(Swift.max((c.x * 31 / 255 + t).rounded(.down), 0), 31)
                    let g6 = Swift.min(Swift.max((c.y * 63 / 255 + t).rounded(.down), 0), 63)
                    let b5 = Swift.min(Swift.max((c.z * 31 / 255 + t).rounded(.down), 0), 31)
                    buffer.row16(y)[x] = UInt16(r5) << 11 | UInt16(g6) << 5 | UInt16(b5)
                }
            }
        }
    }

    // MARK: Anti-aliased shapes

    /// An axis-aligned rectangle at sub-pixel position, anti-aliased edges.
    public func fillRect(_ rect: Rect, color: Color) {
        fillRect(rect, transform: .identity, color: color)
    }

    /// `rect` mapped through `transform` (rotation, non-uniform scale, shear, translation).
    public func fillRect(_ rect: Rect, transform t: AffineTransform, color: Color) {
        guard color.a > 0, !rect.isEmpty else { return }
        let p0 = t.apply(Vec2(rect.minX, rect.minY)), p1 = t.apply(Vec2(rect.maxX, rect.minY))
        let p2 = t.apply(Vec2(rect.maxX, rect.maxY)), p3 = t.apply(Vec2(rect.minX, rect.maxY))
        fillQuad(p0, p1, p2, p3, color)
    }

    /// A filled disc; any radius from a fraction of a pixel to far beyond the screen.
    public func fillCircle(center: Vec2, radius: Double, color: Color) {
        guard color.a > 0, radius > 0, radius.isFinite, center.isFinite else { return }
        // Wholly outside: nothing to do (and no vertices to make).
        if center.x + radius <= 0 || center.y + radius <= 0 || center.x - radius >= Double(width)
            || center.y - radius >= Double(height) { return }
        let n = Canvas.circleVertexCount(radius: radius)
        circleVertices(center.x, center.y, radius, n)
        fillConvex(n, color)
    }

    /// A ring centred on the circle of `radius`, `lineWidth` wide (a stroked circle).
    public func strokeCircle(center: Vec2, radius: Double, lineWidth: Double, color: Color) {
        guard color.a > 0, radius > 0, lineWidth > 0, radius.isFinite, lineWidth.isFinite, center.isFinite
        else { return }
        let outer = radius + lineWidth / 2, inner = radius - lineWidth / 2
        if inner <= 0 { fillCircle(center: center, radius: outer, color: color); return }
        if center.x + outer <= 0 || center.y + outer <= 0 || center.x - outer >= Double(width)
            || center.y - outer >= Double(height) { return }
        // Same vertex count for both outlines so that the ring's width is even all round;
        // the inner one runs the other way, so the winding cancels inside it.
        let n = Canvas.circleVertexCount(radius: outer)
        beginFill()
        circleVertices(center.x, center.y, outer, n)
        addPolygon(n, reversed: false)
        circleVertices(center.x, center.y, inner, n)
        addPolygon(n, reversed: true)
        endFill(color)
    }

    /// A straight segment `width` wide with square-cut (butt) ends.
    public func drawLine(from a: Vec2, to b: Vec2, width: Double, color: Color) {
        guard color.a > 0, width > 0, width.isFinite, a.isFinite, b.isFinite else { return }
        let d = b - a
        let length = d.length
        guard length > 0 else { return }
        let n = d.perpendicular * (width / 2 / length)
        fillQuad(a + n, b + n, b - n, a - n, color)
    }

    /// A closed polygon, non-zero winding (edges between consecutive points and back to the first).
    public func fillPolygon(_ points: [Vec2], color: Color) {
        guard color.a > 0, points.count >= 3 else { return }
        for p in points where !p.isFinite { return }
        beginFill()
        var prev = points[points.count - 1]
        for p in points {
            addEdge(prev.x, prev.y, p.x, p.y)
            prev = p
        }
        endFill(color)
    }

    // MARK: Outlines

    private func fillQuad(_ p0: Vec2, _ p1: Vec2, _ p2: Vec2, _ p3: Vec2, _ color: Color) {
        guard p0.isFinite && p1.isFinite && p2.isFinite && p3.isFinite else { return }
        let v = vertices
        v[0] = SIMD2(p0.x, p0.y); v[1] = SIMD2(p1.x, p1.y); v[2] = SIMD2(p2.x, p2.y); v[3] = SIMD2(p3.x, p3.y)
        fillConvex(4, color)
    }

    /// Vertices for a circle so that no chord of the inscribed polygon would stray more than
    /// 0.2 px from the arc; the area-true polygon used here strays at most 0.14 px out and
    /// 0.07 px in, about what cairo's default tolerance (0.1 px, inscribed, so all inward)
    /// gives, with 30 % fewer vertices than 0.1 px would need: rows holding a vertex take the
    /// slower cell path, so this is a fifth of the cost of a disc. A multiple of 8 so that
    /// the polygon has the circle's mirror symmetries exactly.
    static func circleVertexCount(radius: Double) -> Int {
        let tolerance = 0.2
        var n = 8
        if radius > tolerance {
            let step = acos(1 - tolerance / radius)
            let wanted = (Double.pi / step).rounded(.up)
            n = wanted.isFinite ? Int(Swift.min(wanted, Double(maxCircleVertices))) : maxCircleVertices
        }
        n = Swift.max(16, (n + 7) & ~7)
        return Swift.min(n, maxCircleVertices)
    }

    /// Writes the `n` vertices of a circle's polygon into `vertices`.
    private func circleVertices(_ cx: Double, _ cy: Double, _ r: Double, _ n: Int) {
        let m = n / 8
        let theta = 2 * Double.pi / Double(n)
        // Radius of the polygon with the same area as the circle (the chords would lose a
        // sliver per side otherwise): r' = r·√(θ / sin θ).
        let rr = r * (theta / _sin(theta)).squareRoot()
        // Vertices at angles (k + ½)θ: the polygon then has the circle's mirror symmetries
        // exactly, and its extreme points are edge midpoints (r'·cos(θ/2) < r), so it never
        // pokes out of the circle's bounding box. First octant by rotation recurrence (trig
        // once per circle), the other seven by symmetry.
        let cs = _cos(theta), sn = _sin(theta)
        let v = vertices
        var c = _cos(theta / 2) * rr, s = _sin(theta / 2) * rr
        for j in 0..<m {
            let nc = c * cs - s * sn
            let ns = s * cs + c * sn
            // Octants 0, 2, 4, 6 run with j; 1, 3, 5, 7 against it.
            v[j] = SIMD2(cx + c, cy + s)
            v[2 * m + j] = SIMD2(cx - s, cy + c)
            v[4 * m + j] = SIMD2(cx - c, cy - s)
            v[6 * m + j] = SIMD2(cx + s, cy - c)
            let k = m - 1 - j
            v[m + k] = SIMD2(cx + s, cy + c)
            v[3 * m + k] = SIMD2(cx - c, cy + s)
            v[5 * m + k] = SIMD2(cx - s, cy - c)
            v[7 * m + k] = SIMD2(cx + c, cy - s)
            c = nc; s = ns
        }
    }

    // MARK: Convex shapes: row by row, two chains

    /// One side of a convex shape within one row, as one straight piece whose x runs
    /// linearly over [lo, hi] while y crosses the row part of height h. The area of pixel
    /// column c lying left of it is h·(G(hi − c) − G(lo − c)) / (hi − lo), with G the
    /// integral of clamp(z, 0, 1); k = h / (hi − lo) = |dy/dx| comes from the segment, so
    /// no row needs a division.
    private struct RowSide {
        var lo: Double, hi: Double, k: Double

        @inline(__always) init(lo: Double, hi: Double, k: Double) {
            self.lo = lo; self.hi = hi; self.k = k
        }
        @inline(__always) init(_ xa: Double, _ xb: Double, _ h: Double, _ steepness: Double) {
            lo = Swift.min(xa, xb); hi = Swift.max(xa, xb); k = steepness
            if hi - lo < 1e-6 {
                // A (nearly) vertical piece gets a hair of width around its mean x, so that
                // one formula serves.
                let mid = (lo + hi) * 0.5
                lo = mid - 0.5e-6; hi = mid + 0.5e-6; k = h * 1e6
            }
        }
        /// Area left of the piece in column c, when the piece lies inside that column.
        @inline(__always) func singleColumnArea(_ c: Int, _ h: Double) -> Double {
            h * ((lo + hi) * 0.5 - Double(c))
        }
    }

    /// A downward walk along one side of a convex polygon.
    private struct Chain {
        var index: Int, next: Int
        let step: Int
        var a: SIMD2<Double>, b: SIMD2<Double>
        var dxdy: Double
        /// |dy/dx| (infinite for a vertical segment).
        var steepness: Double
        init(_ v: UnsafeMutablePointer<SIMD2<Double>>, _ n: Int, top: Int, step: Int) {
            self.step = step
            index = top; next = (top + step) % n
            a = v[index]; b = v[next]
            dxdy = 0; steepness = 0
            slopes()
        }
        @inline(__always) mutating func slopes() {
            let dy = b.y - a.y, dx = b.x - a.x
            dxdy = dy > 0 ? dx / dy : 0
            steepness = dy / abs(dx)
        }
        @inline(__always) mutating func advance(_ v: UnsafeMutablePointer<SIMD2<Double>>, _ n: Int) {
            index = next
            next = next + step >= n ? next + step - n : next + step
            a = b; b = v[next]
            slopes()
        }
    }

    /// Fills the convex polygon `vertices[0..<n]` (either orientation).
    private func fillConvex(_ n: Int, _ color: Color) {
        if let coverageSink {
            convex(CoveragePainter(base: coverageSink, width: buffer.width), n)
        } else {
            switch (buffer.format, clip) {
            case (.xrgb8888, nil): convex(XRGBPainter(buffer: buffer, color: color), n)
            case (.rgb565, nil): convex(RGB565Painter(buffer: buffer, color: color), n)
            case (.xrgb8888, _?): convex(ClippedPainter(XRGBPainter(buffer: buffer, color: color), drawable), n)
            case (.rgb565, _?): convex(ClippedPainter(RGB565Painter(buffer: buffer, color: color), drawable), n)
            }
        }
    }

    @inline(__always) private func convex<P: Painter>(_ painter: P, _ n: Int) {
        let v = vertices
        var top = 0, bottom = 0
        for i in 1..<n {
            if v[i].y < v[top].y { top = i }
            if v[i].y > v[bottom].y { bottom = i }
        }
        let yMin = v[top].y, yMax = v[bottom].y
        let h = Double(buffer.height)
        guard yMin < yMax, yMin < h, yMax > 0 else { return }
        // Only the rows of the clip: each row's coverage depends on the outline alone (the
        // chains are found again from the row's y), so rows outside it need no sweeping.
        let rows = clip == nil || coverageSink != nil ? bounds : drawable
        let firstRow = Swift.max(Int(Swift.max(yMin, 0)), rows.y)
        let lastRow = Swift.min(Int(Swift.min(yMax, h).rounded(.up)) - 1, buffer.height - 1, rows.maxY - 1)
        if firstRow > lastRow { return }
        // The chains start downward from the top vertex, one each way round.
        var right = Chain(v, n, top: top, step: 1)
        var left = Chain(v, n, top: top, step: n - 1)
        var minCol = Int.max, maxCol = Int.min
        let w = Double(buffer.width)
        var row = firstRow - 1
        while row < lastRow {
            row += 1
            let y0 = Swift.max(Double(row), yMin), y1 = Swift.min(Double(row + 1), yMax)
            // Pieces that end at or above this row's top are done (a vertex on a row boundary
            // then leaves the row simple).
            while right.b.y <= y0 && right.next != bottom { right.advance(v, n) }
            while left.b.y <= y0 && left.next != bottom { left.advance(v, n) }
            // Commonest case: whole rows on which both current segments carry on.
            if y0 == Double(row) && right.a.y <= y0 && left.a.y <= y0 {
                // (Clamped before Int(): a huge shape's segments may end far beyond any Int.)
                let end = Int(Swift.min(Swift.min(right.b.y, left.b.y), Double(lastRow + 1))) - 1
                if end >= row, let last = paintBand(painter, left, right, row, end, &minCol, &maxCol) {
                    row = last
                    continue
                }
            }
            // Fast path, most rows of most shapes: each side crosses the row as one straight
            // piece, inside the canvas (or wholly beyond the edge it faces). The edge pixels'
            // coverage is then a closed form (see `RowSide`), with no cells.
            if let (ls, rs) = simpleSides(left, right, y0, y1, w) {
                if rs.hi <= 0 || ls.lo >= w { continue } // the row's part lies off the canvas
                let hh = y1 - y0
                let pixels = painter.row(row)
                var gapStart = 0, gapEnd = buffer.width
                if ls.hi > 0 {
                    let l0 = Int(ls.lo), l1 = Int(ls.hi)
                    if l0 == l1 {
                        paintEdge(painter, pixels, l0, Float(hh - ls.singleColumnArea(l0, hh)))
                    } else {
                        paintSide(painter, pixels, ls, l0, l1, hh, left: true)
                    }
                    gapStart = l1 + 1
                    if l0 < minCol { minCol = l0 }
                }
                if rs.lo < w {
                    let r0 = Int(rs.lo), r1 = Int(rs.hi)
                    if r0 == r1 {
                        paintEdge(painter, pixels, r0, Float(rs.singleColumnArea(r0, hh)))
                    } else {
                        paintSide(painter, pixels, rs, r0, r1, hh, left: false)
                    }
                    gapEnd = r0
                    if r1 > maxCol { maxCol = r1 }
                }
                if gapEnd > gapStart { fillGap(painter, pixels, gapStart, gapEnd, Float(hh), &minCol, &maxCol) }
                continue
            }
            var loA = Int.max, hiA = Int.min, loB = Int.max, hiB = Int.min
            walk(&right, n, bottom, y0, y1, 1, &loA, &hiA)
            walk(&left, n, bottom, y0, y1, -1, &loB, &hiB)
            if loB < loA { swap(&loA, &loB); swap(&hiA, &hiB) }
            if loA == Int.max { continue }
            let pixels = painter.row(row)
            var run: Float = 0
            sweepCells(painter, pixels, rowCells, loA, hiA, &run, &minCol, &maxCol)
            var end = hiA
            if loB != Int.max {
                if loB > hiA + 1 {
                    fillGap(painter, pixels, hiA + 1, loB, run, &minCol, &maxCol)
                    sweepCells(painter, pixels, rowCells, loB, hiB, &run, &minCol, &maxCol)
                } else if hiB > hiA {
                    sweepCells(painter, pixels, rowCells, hiA + 1, hiB, &run, &minCol, &maxCol)
                }
                end = Swift.max(hiA, hiB)
            }
            // Right side clipped away: the coverage carries on to the canvas edge.
            if run != 0 && end + 1 < buffer.width {
                fillGap(painter, pixels, end + 1, buffer.width, run, &minCol, &maxCol)
            }
        }
        if minCol <= maxCol {
            addDamage(PixelRect(x: minCol, y: firstRow, width: maxCol - minCol + 1, height: lastRow - firstRow + 1))
        }
    }

    /// When both chains cross the row [y0, y1] as one straight piece each, each inside the
    /// canvas or wholly beyond its left (for the left side) or right (for the right side)
    /// edge, in different columns: those pieces as (left, right).
    @inline(__always) private func simpleSides(_ left: Chain, _ right: Chain, _ y0: Double, _ y1: Double,
                                               _ w: Double) -> (RowSide, RowSide)? {
        guard right.a.y <= y0 && right.b.y >= y1 && left.a.y <= y0 && left.b.y >= y1 && y1 > y0 else { return nil }
        let ra = right.a.x + (y0 - right.a.y) * right.dxdy, rb = right.a.x + (y1 - right.a.y) * right.dxdy
        let la = left.a.x + (y0 - left.a.y) * left.dxdy, lb = left.a.x + (y1 - left.a.y) * left.dxdy
        let h = y1 - y0
        let one = RowSide(ra, rb, h, right.steepness), other = RowSide(la, lb, h, left.steepness)
        let swapped = ra + rb < la + lb
        let l = swapped ? one : other, r = swapped ? other : one
        let leftOK = l.hi <= 0 || (l.lo >= 0 && l.hi < w)
        let rightOK = r.lo >= w || (r.lo >= 0 && r.hi < w)
        // Sides sharing a column need cells (their coverages subtract in the same pixel).
        guard leftOK && rightOK && (l.hi <= 0 || r.lo >= w || Int(l.hi) < Int(r.lo)) else { return nil }
        return (l, r)
    }

    /// Whole rows from `from` on (up to `to`) during which each chain stays on its current
    /// segment: x moves by dx/dy per row on both sides, so each row costs its edge pixels and
    /// its span and no tests. The band ends early where a side would leave the canvas or the
    /// sides come within a column of each other (the per-row path handles those rows); nil,
    /// with nothing painted, when that is already so in row `from`. Returns the last row painted.
    @inline(__always) private func paintBand<P: Painter>(_ painter: P, _ a: Chain, _ b: Chain, _ from: Int, _ to: Int,
                                                         _ minCol: inout Int, _ maxCol: inout Int) -> Int? {
        let top = Double(from), bottom = Double(to + 1)
        let aTop = a.a.x + (top - a.a.y) * a.dxdy, bTop = b.a.x + (top - b.a.y) * b.dxdy
        let aEnd = a.a.x + (bottom - a.a.y) * a.dxdy, bEnd = b.a.x + (bottom - b.a.y) * b.dxdy
        let aIsLeft = aTop + aEnd < bTop + bEnd
        var lTop = aIsLeft ? aTop : bTop, rTop = aIsLeft ? bTop : aTop
        let lStep = aIsLeft ? a.dxdy : b.dxdy, rStep = aIsLeft ? b.dxdy : a.dxdy
        let lK = aIsLeft ? a.steepness : b.steepness, rK = aIsLeft ? b.steepness : a.steepness
        guard lK < 1e12 && rK < 1e12 else { return nil } // near-vertical pieces: per-row path
        // Each condition is linear in the row index i: g0 + i·slope ≥ 0 (with a hair of
        // margin); the band ends where one stops holding. A whole column between the pieces
        // (they must not share a pixel).
        let margin = 1e-6, w = Double(buffer.width)
        var rows = Double(to - from)
        @inline(__always) func holds(_ g0: Double, _ slope: Double) -> Bool {
            if !(g0 >= 0) { return false } // NaN too
            if slope < 0 { rows = Swift.min(rows, (g0 / -slope).rounded(.down)) }
            return true
        }
        // A side either lies inside the canvas or wholly beyond the edge it faces (then the
        // span runs to that edge), for the whole band.
        let lMin = Swift.min(lTop, lTop + lStep), lMax = Swift.max(lTop, lTop + lStep)
        let rMin = Swift.min(rTop, rTop + rStep), rMax = Swift.max(rTop, rTop + rStep)
        let lInside = lMin >= margin, rInside = rMax <= w - margin
        guard lInside ? holds(lMin - margin, lStep) && holds(w - lMax - margin, -lStep) : holds(-lMax, -lStep),
              rInside ? holds(rMin - margin, rStep) && holds(w - rMax - margin, -rStep) : holds(rMin - w, rStep),
              holds(rMin - lMax - 1 - margin, rStep - lStep)
        else { return nil }
        let last = from + Int(rows)
        let lEnd = lTop + lStep * Double(last + 1 - from), rEnd = rTop + rStep * Double(last + 1 - from)
        let lFirst = lTop, rFirst = rTop
        for row in from...last {
            let lBottom = lTop + lStep, rBottom = rTop + rStep
            let pixels = painter.row(row)
            var spanStart = 0, spanEnd = buffer.width
            if lInside {
                let ll = Swift.min(lTop, lBottom), lh = Swift.max(lTop, lBottom)
                let l0 = Int(ll), l1 = Int(lh)
                if l0 == l1 {
                    paintEdge(painter, pixels, l0, Float(1 - ((ll + lh) * 0.5 - Double(l0))))
                } else {
                    paintSide(painter, pixels, RowSide(lo: ll, hi: lh, k: lK), l0, l1, 1, left: true)
                }
                spanStart = l1 + 1
            }
            if rInside {
                let rl = Swift.min(rTop, rBottom), rh = Swift.max(rTop, rBottom)
                let r0 = Int(rl), r1 = Int(rh)
                if r0 == r1 {
                    paintEdge(painter, pixels, r0, Float((rl + rh) * 0.5 - Double(r0)))
                } else {
                    paintSide(painter, pixels, RowSide(lo: rl, hi: rh, k: rK), r0, r1, 1, left: false)
                }
                spanEnd = r0
            }
            if spanEnd > spanStart { painter.span(pixels, spanStart, spanEnd - spanStart, 1) }
            lTop = lBottom; rTop = rBottom
        }
        // Both sides are straight over the band: their extreme columns are at its ends.
        let left = lInside ? Int(Swift.min(lFirst, lEnd)) : 0
        let right = rInside ? Int(Swift.max(rFirst, rEnd)) : buffer.width - 1
        if left < minCol { minCol = left }
        if right > maxCol { maxCol = right }
        return last
    }

    /// The pixels of one single-piece side over columns c0 < c1. Columns the piece crosses
    /// from side to side have an area that falls linearly (by |dy/dx| per column), so only the
    /// two end columns need the general form.
    @inline(__always) private func paintSide<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                         _ side: RowSide, _ c0: Int, _ c1: Int, _ hh: Double,
                                                         left: Bool) {
        let sign: Double = left ? -1 : 1, base = left ? hh : 0
        // End columns in closed form: in c0 the piece starts (lo − c0 in [0, 1)) and runs out
        // (hi − c0 ≥ 1); in c1 it ends (hi − c1 in [0, 1)) having started left of it.
        let f0 = side.lo - Double(c0), f1 = side.hi - Double(c1)
        paintEdge(painter, pixels, c0, Float(base + sign * side.k * (side.hi - Double(c0) - 0.5 - f0 * f0 * 0.5)))
        var a = side.k * (side.hi - Double(c0 + 1) - 0.5)
        var c = c0 + 1
        while c < c1 {
            paintEdge(painter, pixels, c, Float(base + sign * a))
            a -= side.k
            c += 1
        }
        paintEdge(painter, pixels, c1, Float(base + sign * side.k * f1 * f1 * 0.5))
    }

    @inline(__always) private func paintEdge<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                         _ x: Int, _ coverage: Float) {
        // No test for "nothing to do": weight 0 leaves the pixel as it was, and the branch
        // would be unpredictable.
        painter.pixel(pixels, x, Swift.min(abs(coverage), 1))
    }

    /// Deposits the part of `chain` between y0 and y1 (one row) into `rowCells`.
    @inline(__always) private func walk(_ chain: inout Chain, _ n: Int, _ bottom: Int, _ y0: Double, _ y1: Double,
                                        _ sign: Double, _ lo: inout Int, _ hi: inout Int) {
        while true {
            if chain.b.y > y0 {
                let sy0 = Swift.max(chain.a.y, y0), sy1 = Swift.min(chain.b.y, y1)
                if sy1 > sy0 {
                    let xa = chain.a.x + (sy0 - chain.a.y) * chain.dxdy
                    let xb = sy1 == chain.b.y ? chain.b.x : chain.a.x + (sy1 - chain.a.y) * chain.dxdy
                    addRowSegment(rowCells, xa, xb, (sy1 - sy0) * sign, &lo, &hi)
                }
                if chain.b.y >= y1 { return }
            }
            if chain.next == bottom { return }
            chain.advance(vertices, n)
        }
    }

    @inline(__always) private func sweepCells<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                          _ cells: UnsafeMutablePointer<SIMD2<Float>>,
                                                          _ from: Int, _ to: Int, _ run: inout Float,
                                                          _ minCol: inout Int, _ maxCol: inout Int) {
        var c = from
        var r = run
        while c <= to {
            let cell = cells[c]
            cells[c] = .zero
            let value = cell.y - (r + cell.x)
            r += cell.x
            painter.pixel(pixels, c, Swift.min(abs(value), 1)) // weight 0 changes nothing
            c += 1
        }
        run = r
        // Damage by cells swept: a cell whose coverage rounds to nothing may widen it by a pixel.
        if from < minCol { minCol = from }
        if to > maxCol { maxCol = to }
    }

    @inline(__always) private func fillGap<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                       _ from: Int, _ to: Int, _ run: Float,
                                                       _ minCol: inout Int, _ maxCol: inout Int) {
        let a = Swift.min(abs(run), 1)
        if a >= P.visible && to > from {
            painter.span(pixels, from, to - from, a)
            if from < minCol { minCol = from }
            if to - 1 > maxCol { maxCol = to - 1 }
        }
    }

    // MARK: General outlines (rings, polygons): whole-canvas cells

    @inline(__always) private func beginFill() { rowMin = Int.max; rowMax = Int.min }

    private func addPolygon(_ n: Int, reversed: Bool) {
        let v = vertices
        var prev = v[n - 1]
        for k in 0..<n {
            let p = v[k]
            if reversed { addEdge(p.x, p.y, prev.x, prev.y) } else { addEdge(prev.x, prev.y, p.x, p.y) }
            prev = p
        }
    }

    /// Deposits edge (x0, y0) → (x1, y1) into the cells of every canvas row it crosses.
    @inline(__always) private func addEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let h = Double(buffer.height)
        let sign: Double = y1 > y0 ? 1 : -1
        let (xa, ya, xb, yb) = y1 > y0 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let top = Swift.max(ya, 0), bottom = Swift.min(yb, h)
        if !(top < bottom) { return }
        let dxdy = (xb - xa) / (yb - ya)
        var row = Int(top)
        if row >= buffer.height { return }
        let lastRow = Swift.min(Int(bottom.rounded(.up)) - 1, buffer.height - 1)
        if row < rowMin { rowMin = row }
        if lastRow > rowMax { rowMax = lastRow }
        var yTop = top
        var xTop = xa + (top - ya) * dxdy
        while row <= lastRow {
            let yBottom = Swift.min(Double(row + 1), bottom)
            let xBottom = yBottom == yb ? xb : xa + (yBottom - ya) * dxdy
            if yBottom > yTop {
                var lo = Int.max, hi = Int.min
                addRowSegment(cells + row * cellStride, xTop, xBottom, (yBottom - yTop) * sign, &lo, &hi)
                if lo <= hi { noteRange(row, lo, hi) }
            }
            yTop = yBottom; xTop = xBottom
            row += 1
        }
    }

    // MARK: Row segments → cells (both paths)

    /// A segment inside one row going from x = `xa` to `xb` while y advances by `dy` (signed).
    /// Parts left of the canvas become a vertical line at x = 0 (same coverage for every pixel
    /// inside); parts right of it cannot affect any pixel inside and are dropped.
    @inline(__always) private func addRowSegment(_ base: UnsafeMutablePointer<SIMD2<Float>>, _ xa: Double, _ xb: Double,
                                                 _ dy: Double, _ lo: inout Int, _ hi: inout Int) {
        let w = Double(buffer.width)
        if xa >= 0 && xb >= 0 && xa <= w && xb <= w {
            walkColumns(base, xa, xb, dy, &lo, &hi)
            return
        }
        // Overflowed geometry (coordinates near Double's limits) draws nothing rather than trap.
        if xa.isNaN || xb.isNaN || dy.isNaN { return }
        var xa = xa, xb = xb, dy = dy
        if xa <= 0 && xb <= 0 {
            accumulate(base, dy, 0)
            lo = 0; if hi < 0 { hi = 0 }
            return
        }
        if xa >= w && xb >= w { return }
        if xa < 0 || xb < 0 {
            // Split at x = 0; the outside part goes to column 0 as a vertical line.
            let f = (0 - xa) / (xb - xa) // fraction of the way where x = 0
            let outside = xa < 0 ? dy * f : dy * (1 - f)
            accumulate(base, outside, 0)
            lo = 0; if hi < 0 { hi = 0 }
            dy -= outside
            if xa < 0 { xa = 0 } else { xb = 0 }
        }
        if xa > w || xb > w {
            let f = (w - xa) / (xb - xa)
            dy = xa <= w ? dy * f : dy * (1 - f)
            if xa > w { xa = w } else { xb = w }
        }
        walkColumns(base, xa, xb, dy, &lo, &hi)
    }

    /// Spreads a row segment over the columns it crosses: each column gets the height it
    /// spends there (cover) and the area between the segment and the column's left side.
    @inline(__always) private func walkColumns(_ base: UnsafeMutablePointer<SIMD2<Float>>, _ xa: Double, _ xb: Double,
                                               _ dy: Double, _ lo: inout Int, _ hi: inout Int) {
        let lastCol = buffer.width - 1
        let ca = Swift.min(Int(xa), lastCol), cb = Swift.min(Int(xb), lastCol)
        if ca == cb {
            let mid = (xa + xb) * 0.5 - Double(ca)
            accumulate(base + ca, dy, dy * mid)
            if ca < lo { lo = ca }
            if ca > hi { hi = ca }
            return
        }
        let dydx = dy / (xb - xa)
        if xb > xa {
            // First, partial column.
            var edge = Double(ca + 1)
            var d = (edge - xa) * dydx
            accumulate(base + ca, d, d * ((xa + edge) * 0.5 - Double(ca)))
            var used = d
            // Whole columns: the segment crosses each in full width, mean x at the middle.
            let full = SIMD2<Float>(Float(dydx), Float(dydx * 0.5))
            var c = ca + 1
            while c < cb {
                base[c] += full
                c += 1
            }
            used += dydx * Double(cb - ca - 1)
            edge = Double(cb)
            d = dy - used
            accumulate(base + cb, d, d * (xb - edge) * 0.5)
            if ca < lo { lo = ca }
            if cb > hi { hi = cb }
        } else {
            var edge = Double(ca)
            var d = (edge - xa) * dydx // has dy's sign: both factors change sign together
            accumulate(base + ca, d, d * ((xa + edge) * 0.5 - Double(ca)))
            var used = d
            let full = SIMD2<Float>(Float(-dydx), Float(-dydx * 0.5))
            var c = ca - 1
            while c > cb {
                base[c] += full
                c -= 1
            }
            used -= dydx * Double(ca - cb - 1)
            edge = Double(cb + 1)
            d = dy - used
            accumulate(base + cb, d, d * ((xb + edge) * 0.5 - Double(cb)))
            if cb < lo { lo = cb }
            if ca > hi { hi = ca }
        }
    }

    @inline(__always) private func accumulate(_ cell: UnsafeMutablePointer<SIMD2<Float>>, _ cover: Double, _ area: Double) {
        cell.pointee += SIMD2(Float(cover), Float(area))
    }

    /// Remembers that row `row` has cells in columns lo…hi.
    @inline(__always) private func noteRange(_ row: Int, _ lo: Int, _ hi: Int) {
        let base = row * Canvas.rangesPerRow
        let n = Int(rangeCount[row])
        let lo32 = Int32(lo), hi32 = Int32(hi)
        // Consecutive edges of an outline touch neighbouring cells: extend the range they share.
        for i in 0..<n {
            let l = rangeLo[base + i], h = rangeHi[base + i]
            if lo32 <= h + 1 && hi32 >= l - 1 {
                if lo32 < l { rangeLo[base + i] = lo32 }
                if hi32 > h { rangeHi[base + i] = hi32 }
                return
            }
        }
        if n < Canvas.rangesPerRow {
            rangeLo[base + n] = lo32; rangeHi[base + n] = hi32
            rangeCount[row] = Int32(n + 1)
            return
        }
        // Full: widen the closest range (cells in between are zero, and sweeping zeros is harmless).
        var best = 0, bestGap = Int32.max
        for i in 0..<n {
            let gap = lo32 > rangeHi[base + i] ? lo32 - rangeHi[base + i] : rangeLo[base + i] - hi32
            if gap < bestGap { bestGap = gap; best = i }
        }
        if lo32 < rangeLo[base + best] { rangeLo[base + best] = lo32 }
        if hi32 > rangeHi[base + best] { rangeHi[base + best] = hi32 }
    }

    /// When set (tests), fills add their exact coverage here (width × height Floats) and
    /// leave the pixels alone.
    var coverageSink: UnsafeMutablePointer<Float>?

    private func endFill(_ color: Color) {
        if rowMin > rowMax { return }
        var minCol = Int.max, maxCol = Int.min
        if let coverageSink {
            sweep(CoveragePainter(base: coverageSink, width: buffer.width), &minCol, &maxCol)
        } else {
            switch (buffer.format, clip) {
            case (.xrgb8888, nil): sweep(XRGBPainter(buffer: buffer, color: color), &minCol, &maxCol)
            case (.rgb565, nil): sweep(RGB565Painter(buffer: buffer, color: color), &minCol, &maxCol)
            case (.xrgb8888, _?): sweep(ClippedPainter(XRGBPainter(buffer: buffer, color: color), drawable), &minCol, &maxCol)
            case (.rgb565, _?): sweep(ClippedPainter(RGB565Painter(buffer: buffer, color: color), drawable), &minCol, &maxCol)
            }
        }
        if minCol <= maxCol {
            addDamage(PixelRect(x: minCol, y: rowMin, width: maxCol - minCol + 1, height: rowMax - rowMin + 1))
        }
    }

    /// Turns the cells of rows rowMin…rowMax into pixels and zeroes them again.
    @inline(__always) private func sweep<P: Painter>(_ painter: P, _ minCol: inout Int, _ maxCol: inout Int) {
        let w = buffer.width
        for row in rowMin...rowMax {
            let n = Int(rangeCount[row])
            if n == 0 { continue }
            rangeCount[row] = 0
            // Ranges sorted by start, in place (at most 4: insertion sort).
            let lo = rangeLo + row * Canvas.rangesPerRow, hi = rangeHi + row * Canvas.rangesPerRow
            if n > 1 {
                for i in 1..<n {
                    let l = lo[i], h = hi[i]
                    var j = i
                    while j > 0 && lo[j - 1] > l { lo[j] = lo[j - 1]; hi[j] = hi[j - 1]; j -= 1 }
                    lo[j] = l; hi[j] = h
                }
            }
            let cellRow = cells + row * cellStride
            let pixels = painter.row(row)
            var run: Float = 0 // sum of covers left of the current column
            var x = 0
            var i = 0
            while i < n {
                let start = Int(lo[i])
                var end = Int(hi[i])
                i += 1
                while i < n && Int(lo[i]) <= end + 1 { end = Swift.max(end, Int(hi[i])); i += 1 }
                let from = Swift.max(start, x)
                if from > x { fillGap(painter, pixels, x, from, run, &minCol, &maxCol) }
                sweepCells(painter, pixels, cellRow, from, end, &run, &minCol, &maxCol)
                x = end + 1
            }
            if x < w && run != 0 { fillGap(painter, pixels, x, w, run, &minCol, &maxCol) }
        }
    }
}

/// Writes one pixel format. A generic parameter (not an existential) so the sweep is
/// specialised per format and the stores inline. Coverage arrives in (0, 1].
protocol Painter {
    associatedtype Pixel
    /// The least coverage worth painting.
    static var visible: Float { get }
    func row(_ y: Int) -> UnsafeMutablePointer<Pixel>
    func span(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ count: Int, _ coverage: Float)
    func pixel(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage: Float)
}

// Below half a level of 8-bit alpha nothing would change; float noise stays out too.
let halfLevel: Float = 0.5 / 255

struct XRGBPainter: Painter {
    static var visible: Float { halfLevel }
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, spreadSrc: UInt64, alpha: UInt32, alphaScale: Float
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb; alpha = UInt32(color.a)
        spreadSrc = spreadChannels(color.xrgb)
        alphaScale = Float(color.a)
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * stride).assumingMemoryBound(to: UInt32.self)
    }
    @inline(__always) func span(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ count: Int, _ coverage: Float) {
        let a = UInt32(coverage * alphaScale + 0.5)
        if a == 255 { fillSpan32(row + x, count, src); return }
        for i in x..<(x + count) { row[i] = blendXRGB(row[i], spread: spreadSrc, a) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ coverage: Float) {
        blend(row, x, UInt32(coverage * alphaScale + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ a: UInt32) {
        row[x] = blendXRGB(row[x], spread: spreadSrc, a) // exact at 0 and 255, so no branches
    }
}

struct RGB565Painter: Painter {
    static var visible: Float { halfLevel }
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, solid: UInt16, alpha: UInt32, alphaScale: Float
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb
        solid = color.rgb565Value; alpha = UInt32(color.a); alphaScale = Float(color.a)
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        (base + y * stride).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) func span(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ count: Int, _ coverage: Float) {
        let a = UInt32(coverage * alphaScale + 0.5)
        if a == 255 { fillSpan16(row + x, count, solid); return }
        for i in x..<(x + count) { row[i] = blend565(row[i], src, a) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ coverage: Float) {
        blend(row, x, UInt32(coverage * alphaScale + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ a: UInt32) {
        row[x] = a == 255 ? solid : blend565(row[x], src, a)
    }
}

/// Paints through `Base` only inside `clip`. Convex shapes skip the rows outside it; the
/// general outlines (rings, polygons) still sweep them (their cells must be zeroed) but write
/// nothing. Used only when a clip is set, so the unclipped path keeps its speed.
struct ClippedPainter<Base: Painter>: Painter {
    typealias Pixel = Base.Pixel
    static var visible: Float { Base.visible }
    let base: Base
    let x0: Int, x1: Int
    let firstRow: UnsafeMutablePointer<Pixel>, endRow: UnsafeMutablePointer<Pixel>
    init(_ base: Base, _ clip: PixelRect) {
        self.base = base
        x0 = clip.x; x1 = clip.maxX
        firstRow = base.row(clip.y)
        endRow = clip.isEmpty ? firstRow : base.row(clip.maxY - 1) + 1
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Pixel> { base.row(y) }
    @inline(__always) func span(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ count: Int, _ coverage: Float) {
        guard row >= firstRow && row < endRow else { return }
        let a = Swift.max(x, x0), b = Swift.min(x + count, x1)
        if b > a { base.span(row, a, b - a, coverage) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage: Float) {
        guard row >= firstRow && row < endRow && x >= x0 && x < x1 else { return }
        base.pixel(row, x, coverage)
    }
}

/// Adds exact coverage into a Float image instead of painting: lets tests measure the
/// rasterizer without 8-bit rounding.
struct CoveragePainter: Painter {
    static var visible: Float { 1e-9 }
    let base: UnsafeMutablePointer<Float>, width: Int
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Float> { base + y * width }
    @inline(__always) func span(_ row: UnsafeMutablePointer<Float>, _ x: Int, _ count: Int, _ coverage: Float) {
        for i in x..<(x + count) { row[i] += coverage }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<Float>, _ x: Int, _ coverage: Float) {
        row[x] += coverage
    }
}
