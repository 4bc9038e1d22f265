#if canImport(Glibc)
import Glibc
#endif
import Geometry

/// Draws anti-aliased shapes into a `PixelBuffer` (XRGB8888 or RGB565) and records what it
/// changed.
///
/// Every pixel gets the exact area of the shape inside it, as in FreeType's and Skia's analytic
/// rasterizers. Every shape is a polygon; a circle is the one cairo fills for it
/// (CircleFlattening.swift), and discs and rings of most radii go through their own
/// rasterizer (Discs.swift: per row, each arc's area per column in closed form). Convex polygons
/// (transformed rectangles, lines) go row by row along their
/// two sides: where each side crosses the row as one short straight piece (most rows), the
/// edge pixels' areas are a closed form, and runs of whole rows on the same two segments
/// (bands) step x by dx/dy with no per-row tests; elsewhere the pieces deposit signed cover and area
/// into a row of cells that a sweep turns into coverage. Between the sides lies a span of
/// constant coverage, stored with vector stores and no per-pixel arithmetic, so cost follows
/// the outline, not the area. General polygons deposit into whole-canvas cells and are swept
/// the same way (non-zero winding). Shapes partly or wholly outside the canvas are
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
    // leaves there. Rows × (width + 1) pairs of Float (twice a frame's bytes), zero except
    // during a fill. Only general polygons (and rings beyond `ringRadiusLimit`) use it:
    // made on their first fill, so a canvas that never draws one does not carry it.
    private var wholeCanvasCells: UnsafeMutablePointer<SIMD2<Float>>?
    var cells: UnsafeMutablePointer<SIMD2<Float>> {
        if let c = wholeCanvasCells { return c }
        let c = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: cellStride * buffer.height)
        c.initialize(repeating: .zero, count: cellStride * buffer.height)
        wholeCanvasCells = c
        return c
    }
    let cellStride: Int
    /// Whether the whole-canvas cells were made (a general polygon was filled).
    var holdsWholeCanvasCells: Bool { wholeCanvasCells != nil }
    // Per row, up to `rangesPerRow` column ranges [lo, hi] that hold non-zero cells.
    static let rangesPerRow = 4
    let rangeLo: UnsafeMutablePointer<Int32>
    let rangeHi: UnsafeMutablePointer<Int32>
    let rangeCount: UnsafeMutablePointer<Int32>
    // Rows touched by the current fill.
    var rowMin = Int.max, rowMax = Int.min
    // Vertices of the current convex shape (a circle has at most `maxCircleVertices`).
    static let maxCircleVertices = 8192
    let vertices: UnsafeMutablePointer<SIMD2<Double>>
    // One row of cells for convex shapes: stays in L1 while the shape is swept row by row.
    let rowCells: UnsafeMutablePointer<SIMD2<Float>>
    // Where a disc's or ring's outlines cross each column line x = 0…width, and each row line
    // from the disc's top row on (see Discs.swift).
    let outerColumns: LineCrossings, innerColumns: LineCrossings
    let outerRows: LineCrossings, innerRows: LineCrossings
    // The quarter polygons of a disc's or ring's outlines, kept for the next circle of the
    // same radius.
    var outerQuarter = FlatQuarter()
    var innerQuarter = FlatQuarter()

    public init(buffer: PixelBuffer) {
        self.buffer = buffer
        cellStride = buffer.width + 1
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
        outerColumns = LineCrossings(count: buffer.width + 1); innerColumns = LineCrossings(count: buffer.width + 1)
        outerRows = LineCrossings(count: buffer.height + 1); innerRows = LineCrossings(count: buffer.height + 1)
        damageRects.reserveCapacity(maxDamageRects + 1)
    }

    /// A canvas over a fresh buffer.
    public convenience init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        self.init(buffer: PixelBuffer(width: width, height: height, format: format))
    }

    deinit {
        wholeCanvasCells?.deallocate(); rangeLo.deallocate(); rangeHi.deallocate(); rangeCount.deallocate()
        vertices.deallocate(); rowCells.deallocate()
        outerColumns.deallocate(); innerColumns.deallocate(); outerRows.deallocate(); innerRows.deallocate()
        outerQuarter.deallocate(); innerQuarter.deallocate()
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
    var damageCollapsed = false

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

    /// How far from the origin, in pixels, a shape's outline may reach and still be drawn.
    /// Shapes far larger than the canvas are clipped exactly (rows and columns are counted on
    /// the canvas, clamped before any Int), but differences of coordinates near Double's
    /// limit overflow to infinity and then NaN, which no Int conversion survives: geometry
    /// beyond ±1e300 px, or not finite, is turned away (not drawn).
    public static let reach = 1e300

    /// Whether `p`, grown by `margin` on every side, lies within `reach` (false for NaN).
    @inline(__always) static func withinReach(_ p: Vec2, margin: Double = 0) -> Bool {
        abs(p.x) + margin <= reach && abs(p.y) + margin <= reach
    }

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
        guard color.a > 0, radius > 0, Canvas.withinReach(center, margin: radius) else { return }
        // Wholly outside: nothing to do (and no vertices to make).
        if center.x + radius <= 0 || center.y + radius <= 0 || center.x - radius >= Double(width)
            || center.y - radius >= Double(height) { return }
        if Canvas.isQuarterTurn(radius) {
            fillRound(center.x, center.y, outer: radius, inner: 0, color)
            return
        }
        fillConvex(flattenedCircle(center.x, center.y, radius), color)
    }

    /// Whether cairo builds a circle of `radius` from quarter turns (the disc rasterizer's case).
    static func isQuarterTurn(_ radius: Double) -> Bool {
        radius >= quarterTurnRadii.low && radius < quarterTurnRadii.high
    }

    /// Rings up to this radius (px) go through the disc rasterizer: its quarter table grows
    /// with the radius (about 16 bytes a pixel of it), and a larger ring is an arc across
    /// even a 1080×1920 screen.
    static let ringRadiusLimit = 4096.0

    /// A ring centred on the circle of `radius`, `lineWidth` wide (a stroked circle).
    public func strokeCircle(center: Vec2, radius: Double, lineWidth: Double, color: Color) {
        guard color.a > 0, radius > 0, lineWidth > 0, Canvas.withinReach(center, margin: radius + lineWidth)
        else { return }
        let outer = radius + lineWidth / 2, inner = radius - lineWidth / 2
        // A hole under a thousandth of a pixel is no hole.
        if inner < 1e-3 { fillCircle(center: center, radius: outer, color: color); return }
        if center.x + outer <= 0 || center.y + outer <= 0 || center.x - outer >= Double(width)
            || center.y - outer >= Double(height) { return }
        // Rings go through the disc rasterizer at any radius a screen holds, so that none needs
        // the whole-canvas cells (a ring being drawn starts tiny and may grow past the screen):
        // outside cairo's quarter-turn radii they keep the quarter-turn polygon, flattened to
        // the same tolerance, where cairo would start from half or third turns.
        if outer < Canvas.ringRadiusLimit {
            fillRound(center.x, center.y, outer: outer, inner: inner, color)
            return
        }
        // The inner outline runs the other way, so the winding cancels inside it.
        beginFill()
        addPolygon(flattenedCircle(center.x, center.y, outer), reversed: false)
        addPolygon(flattenedCircle(center.x, center.y, inner), reversed: true)
        endFill(color)
    }

    /// A straight segment `width` wide with square-cut (butt) ends.
    public func drawLine(from a: Vec2, to b: Vec2, width: Double, color: Color) {
        guard color.a > 0, width > 0, Canvas.withinReach(a, margin: width), Canvas.withinReach(b, margin: width) else { return }
        let d = b - a
        let length = d.length
        guard length > 0 else { return }
        let n = d.perpendicular * (width / 2 / length)
        fillQuad(a + n, b + n, b - n, a - n, color)
    }

    /// A closed polygon, non-zero winding (edges between consecutive points and back to the first).
    public func fillPolygon(_ points: [Vec2], color: Color) {
        guard color.a > 0, points.count >= 3 else { return }
        for p in points where !Canvas.withinReach(p) { return }
        // A convex one (an icon's triangle) goes row by row like the other convex shapes,
        // without the whole-canvas cells.
        if let n = convexVertices(points) {
            fillConvex(n, color)
            return
        }
        beginFill()
        var prev = points[points.count - 1]
        for p in points {
            addEdge(prev.x, prev.y, p.x, p.y)
            prev = p
        }
        endFill(color)
    }

    /// Copies `points` into `vertices` (repeated points dropped) when they make a convex
    /// polygon, one turn round, and returns how many there are; nil otherwise. Every turn
    /// the same way and y turning back exactly twice is one convex turn (a star turns the
    /// same way throughout but goes round more than once).
    func convexVertices(_ points: [Vec2]) -> Int? {
        guard points.count <= Canvas.maxCircleVertices else { return nil }
        let v = vertices
        var n = 0
        for p in points where n == 0 || p.x != v[n - 1].x || p.y != v[n - 1].y {
            v[n] = SIMD2(p.x, p.y); n += 1
        }
        while n > 1 && v[n - 1] == v[0] { n -= 1 }
        guard n >= 3 else { return nil }
        var turn = 0.0, yTurns = 0, lastDy = 0.0
        for i in 0..<n {
            let a = v[i], b = v[(i + 1) % n], c = v[(i + 2) % n]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if cross != 0 {
                if turn == 0 { turn = cross } else if (cross > 0) != (turn > 0) { return nil }
            }
            if !cross.isFinite { return nil }
        }
        guard turn != 0 else { return nil }
        // y's direction along the closed outline: count where it reverses.
        for i in 0..<n where v[(i + 1) % n].y != v[i].y {
            let dy = v[(i + 1) % n].y - v[i].y
            if lastDy == 0 { lastDy = dy; continue }
            if (dy > 0) != (lastDy > 0) { yTurns += 1 }
            lastDy = dy
        }
        // Closing the loop: from the last direction back to the first.
        if let first = (0..<n).first(where: { v[($0 + 1) % n].y != v[$0].y }) {
            let dy = v[(first + 1) % n].y - v[first].y
            if (dy > 0) != (lastDy > 0) { yTurns += 1 }
        }
        return yTurns == 2 ? n : nil
    }

    // MARK: Outlines

    func fillQuad(_ p0: Vec2, _ p1: Vec2, _ p2: Vec2, _ p3: Vec2, _ color: Color) {
        guard Canvas.withinReach(p0) && Canvas.withinReach(p1) && Canvas.withinReach(p2) && Canvas.withinReach(p3) else { return }
        let v = vertices
        v[0] = SIMD2(p0.x, p0.y); v[1] = SIMD2(p1.x, p1.y); v[2] = SIMD2(p2.x, p2.y); v[3] = SIMD2(p3.x, p3.y)
        fillConvex(4, color)
    }

    /// When set (tests), fills add their exact coverage here (width × height Floats) and
    /// leave the pixels alone.
    var coverageSink: UnsafeMutablePointer<Float>?
}
