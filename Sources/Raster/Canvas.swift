#if canImport(Glibc)
import Glibc
#endif
import Geometry

/// Draws anti-aliased shapes into a `PixelBuffer` (XRGB8888 or RGB565) and records what it
/// changed.
///
/// Every shape is turned into closed polygon edges, and each edge deposits its exact signed
/// area into the cells (pixels) it crosses, row by row, as FreeType's and Skia's analytic
/// rasterizers do. Sweeping a row then gives exact area coverage at edge pixels, and between
/// them a constant coverage: the interior spans, stored with vector stores and no per-pixel
/// arithmetic. Only touched cells are visited, so cost follows the outline, not the area.
/// Shapes partly or wholly outside the canvas are clipped exactly (coverage inside the
/// canvas is the same as if the canvas were infinite).
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
    // Unit-circle vertices for the current circle, and their capacity.
    private static let maxCircleVertices = 8192
    private let circleScratch: UnsafeMutablePointer<SIMD2<Double>>

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
        circleScratch = .allocate(capacity: Canvas.maxCircleVertices)
        circleScratch.initialize(repeating: .zero, count: Canvas.maxCircleVertices)
        damageRects.reserveCapacity(maxDamageRects + 1)
    }

    /// A canvas over a fresh buffer.
    public convenience init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        self.init(buffer: PixelBuffer(width: width, height: height, format: format))
    }

    deinit {
        cells.deallocate(); rangeLo.deallocate(); rangeHi.deallocate(); rangeCount.deallocate()
        circleScratch.deallocate()
    }

    // MARK: Damage

    /// Records `rect` (clipped to the canvas) as changed.
    public func addDamage(_ rect: PixelRect) {
        let r = rect.intersection(bounds)
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
        let r = rect.intersection(bounds)
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
        guard p0.isFinite && p1.isFinite && p2.isFinite && p3.isFinite else { return }
        beginFill()
        addEdge(p0.x, p0.y, p1.x, p1.y)
        addEdge(p1.x, p1.y, p2.x, p2.y)
        addEdge(p2.x, p2.y, p3.x, p3.y)
        addEdge(p3.x, p3.y, p0.x, p0.y)
        endFill(color)
    }

    /// A filled disc; any radius from a fraction of a pixel to far beyond the screen.
    public func fillCircle(center: Vec2, radius: Double, color: Color) {
        guard color.a > 0, radius > 0, radius.isFinite, center.isFinite else { return }
        beginFill()
        addCircle(center.x, center.y, radius, reversed: false)
        endFill(color)
    }

    /// A ring centred on the circle of `radius`, `lineWidth` wide (a stroked circle).
    public func strokeCircle(center: Vec2, radius: Double, lineWidth: Double, color: Color) {
        guard color.a > 0, radius > 0, lineWidth > 0, radius.isFinite, lineWidth.isFinite, center.isFinite
        else { return }
        let outer = radius + lineWidth / 2, inner = radius - lineWidth / 2
        beginFill()
        // Same vertex count for both outlines so the ring's width is even all round.
        let n = Canvas.circleVertexCount(radius: outer)
        addCircle(center.x, center.y, outer, reversed: false, vertexCount: n)
        if inner > 0 { addCircle(center.x, center.y, inner, reversed: true, vertexCount: n) }
        endFill(color)
    }

    /// A straight segment `width` wide with square-cut (butt) ends.
    public func drawLine(from a: Vec2, to b: Vec2, width: Double, color: Color) {
        guard color.a > 0, width > 0, width.isFinite, a.isFinite, b.isFinite else { return }
        let d = b - a
        let length = d.length
        guard length > 0 else { return }
        let n = d.perpendicular * (width / 2 / length)
        let p0 = a + n, p1 = b + n, p2 = b - n, p3 = a - n
        beginFill()
        addEdge(p0.x, p0.y, p1.x, p1.y)
        addEdge(p1.x, p1.y, p2.x, p2.y)
        addEdge(p2.x, p2.y, p3.x, p3.y)
        addEdge(p3.x, p3.y, p0.x, p0.y)
        endFill(color)
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

    // MARK: Outline → cells

    @inline(__always) private func beginFill() { rowMin = Int.max; rowMax = Int.min }

    /// Vertices for a circle so that no chord strays more than ~0.04 px from the arc; a
    /// multiple of 8 so that the polygon has the circle's mirror symmetries exactly.
    static func circleVertexCount(radius: Double) -> Int {
        let tolerance = 0.04
        var n = 8
        if radius > tolerance {
            let step = acos(1 - tolerance / radius)
            let wanted = (Double.pi / step).rounded(.up)
            n = wanted.isFinite ? Int(Swift.min(wanted, Double(maxCircleVertices))) : maxCircleVertices
        }
        n = Swift.max(16, (n + 7) & ~7)
        return Swift.min(n, maxCircleVertices)
    }

    private func addCircle(_ cx: Double, _ cy: Double, _ r: Double, reversed: Bool, vertexCount: Int? = nil) {
        let n = vertexCount ?? Canvas.circleVertexCount(radius: r)
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
        let v = circleScratch
        var c = _cos(theta / 2), s = _sin(theta / 2)
        for j in 0..<m {
            v[j] = SIMD2(c, s)
            let nc = c * cs - s * sn
            s = s * cs + c * sn
            c = nc
        }
        @inline(__always) func unit(_ k: Int) -> SIMD2<Double> {
            let o = k / m, j = k - o * m
            switch o {
            case 0: return v[j]
            case 1: let q = v[m - 1 - j]; return SIMD2(q.y, q.x)
            case 2: let q = v[j]; return SIMD2(-q.y, q.x)
            case 3: let q = v[m - 1 - j]; return SIMD2(-q.x, q.y)
            case 4: let q = v[j]; return SIMD2(-q.x, -q.y)
            case 5: let q = v[m - 1 - j]; return SIMD2(-q.y, -q.x)
            case 6: let q = v[j]; return SIMD2(q.y, -q.x)
            default: let q = v[m - 1 - j]; return SIMD2(q.x, -q.y)
            }
        }
        var prev = unit(0)
        var px = cx + rr * prev.x, py = cy + rr * prev.y
        for k in 1...n {
            prev = unit(k == n ? 0 : k)
            let x = cx + rr * prev.x, y = cy + rr * prev.y
            if reversed { addEdge(x, y, px, py) } else { addEdge(px, py, x, y) }
            px = x; py = y
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
                addRowSegment(row, xTop, xBottom, (yBottom - yTop) * sign)
            }
            yTop = yBottom; xTop = xBottom
            row += 1
        }
    }

    /// A segment inside one row going from x = `xa` to `xb` while y advances by `dy` (signed).
    /// Parts left of the canvas become a vertical line at x = 0 (same coverage for every pixel
    /// inside); parts right of it cannot affect any pixel inside and are dropped.
    @inline(__always) private func addRowSegment(_ row: Int, _ xa: Double, _ xb: Double, _ dy: Double) {
        let w = Double(buffer.width)
        var xa = xa, xb = xb, dy = dy
        if xa <= 0 && xb <= 0 { deposit(row, 0, 0, 0, dy); return }
        if xa >= w && xb >= w { return }
        if xa < 0 || xb < 0 {
            // Split at x = 0; the outside part goes to column 0 as a vertical line.
            let f = (0 - xa) / (xb - xa) // fraction of the way where x = 0
            let outside = xa < 0 ? dy * f : dy * (1 - f)
            deposit(row, 0, 0, 0, outside)
            dy -= outside
            if xa < 0 { xa = 0 } else { xb = 0 }
        }
        if xa > w || xb > w {
            let f = (w - xa) / (xb - xa)
            let inside = xa <= w ? dy * f : dy * (1 - f)
            dy = inside
            if xa > w { xa = w } else { xb = w }
        }
        walkColumns(row, xa, xb, dy)
    }

    @inline(__always) private func deposit(_ row: Int, _ col: Int, _ lo: Int, _ hi: Int, _ dy: Double) {
        accumulate(cells + row * cellStride + col, dy, 0)
        noteRange(row, lo, hi)
    }

    /// Spreads a row segment over the columns it crosses: each column gets the height it
    /// spends there (cover) and the area between the segment and the column's left side.
    @inline(__always) private func walkColumns(_ row: Int, _ xa: Double, _ xb: Double, _ dy: Double) {
        let lastCol = buffer.width - 1
        let ca = Swift.min(Int(xa), lastCol), cb = Swift.min(Int(xb), lastCol)
        let base = cells + row * cellStride
        if ca == cb {
            let mid = (xa + xb) * 0.5 - Double(ca)
            accumulate(base + ca, dy, dy * mid)
            noteRange(row, ca, ca)
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
            let fullD = Float(dydx), fullA = Float(dydx * 0.5)
            var c = ca + 1
            while c < cb {
                base[c] += SIMD2(fullD, fullA)
                used += dydx
                c += 1
            }
            edge = Double(cb)
            d = dy - used
            accumulate(base + cb, d, d * (xb - edge) * 0.5)
            noteRange(row, ca, cb)
        } else {
            var edge = Double(ca)
            var d = (edge - xa) * dydx // xa > edge, dydx has sign of -dy… d has dy's sign
            accumulate(base + ca, d, d * ((xa + edge) * 0.5 - Double(ca)))
            var used = d
            let fullD = Float(-dydx), fullA = Float(-dydx * 0.5)
            var c = ca - 1
            while c > cb {
                base[c] += SIMD2(fullD, fullA)
                used -= dydx
                c -= 1
            }
            edge = Double(cb + 1)
            d = dy - used
            accumulate(base + cb, d, d * ((xb + edge) * 0.5 - Double(cb)))
            noteRange(row, cb, ca)
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

    // MARK: Cells → pixels

    /// When set (tests), fills add their exact coverage here (width × height Floats) and
    /// leave the pixels alone.
    var coverageSink: UnsafeMutablePointer<Float>?

    private func endFill(_ color: Color) {
        if rowMin > rowMax { return }
        var minCol = Int.max, maxCol = Int.min
        if let coverageSink {
            sweep(CoveragePainter(base: coverageSink, width: buffer.width), &minCol, &maxCol)
        } else {
            switch buffer.format {
            case .xrgb8888:
                sweep(XRGBPainter(buffer: buffer, color: color), &minCol, &maxCol)
        case .rgb565:
                sweep(RGB565Painter(buffer: buffer, color: color), &minCol, &maxCol)
            }
        }
        if minCol <= maxCol {
            addDamage(PixelRect(x: minCol, y: rowMin, width: maxCol - minCol + 1, height: rowMax - rowMin + 1))
        }
    }

    /// Turns the cells of rows rowMin…rowMax into pixels and zeroes them again.
    @inline(__always) private func sweep<P: Painter>(_ painter: P, _ minCol: inout Int, _ maxCol: inout Int) {
        let w = buffer.width
        let visible = P.visible
        for row in rowMin...rowMax {
            let n = Int(rangeCount[row])
            if n == 0 { continue }
            rangeCount[row] = 0
            let rb = row * Canvas.rangesPerRow
            // Ranges sorted by start (at most 4: insertion sort).
            var lo = SIMD4<Int32>(repeating: Int32.max), hi = SIMD4<Int32>(repeating: Int32.max)
            for i in 0..<n {
                var j = i
                let l = rangeLo[rb + i], h = rangeHi[rb + i]
                while j > 0 && lo[j - 1] > l { lo[j] = lo[j - 1]; hi[j] = hi[j - 1]; j -= 1 }
                lo[j] = l; hi[j] = h
            }
            let cellRow = cells + row * cellStride
            let pixels = painter.row(row)
            var run: Float = 0 // sum of covers left of the current column
            var x = 0
            var i = 0
            var rowLo = Int.max, rowHi = Int.min
            while i < n {
                let start = Int(lo[i])
                var end = Int(hi[i])
                i += 1
                while i < n && Int(lo[i]) <= end + 1 { end = Swift.max(end, Int(hi[i])); i += 1 }
                let from = Swift.max(start, x)
                if from > x && run != 0 {
                    let a = Swift.min(abs(run), 1)
                    if a >= visible {
                        painter.span(pixels, x, from - x, a)
                        if x < rowLo { rowLo = x }
                        rowHi = Swift.max(rowHi, from - 1)
                    }
                }
                var c = from
                while c <= end {
                    let cell = cellRow[c]
                    cellRow[c] = .zero
                    let value = cell.y - (run + cell.x)
                    run += cell.x
                    let a = Swift.min(abs(value), 1)
                    if a >= visible {
                        painter.pixel(pixels, c, a)
                        if c < rowLo { rowLo = c }
                        if c > rowHi { rowHi = c }
                    }
                    c += 1
                }
                x = end + 1
            }
            if x < w && run != 0 {
                // Right side clipped away: the coverage carries on to the canvas edge.
                let a = Swift.min(abs(run), 1)
                if a >= visible {
                    painter.span(pixels, x, w - x, a)
                    if x < rowLo { rowLo = x }
                    rowHi = w - 1
                }
            }
            if rowLo < minCol { minCol = rowLo }
            if rowHi > maxCol { maxCol = rowHi }
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
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, alpha: UInt32, alphaScale: Float
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb; alpha = UInt32(color.a)
        alphaScale = Float(color.a)
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * stride).assumingMemoryBound(to: UInt32.self)
    }
    @inline(__always) func span(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ count: Int, _ coverage: Float) {
        let a = UInt32(coverage * alphaScale + 0.5)
        if a == 255 { fillSpan32(row + x, count, src); return }
        for i in x..<(x + count) { row[i] = blendXRGB(row[i], src, a) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ coverage: Float) {
        blend(row, x, UInt32(coverage * alphaScale + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ a: UInt32) {
        row[x] = a == 255 ? src : blendXRGB(row[x], src, a)
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
