import CCairo
import Geometry
import Testing
@testable import Raster

/// A circle is the polygon cairo fills for cairo_arc at its default tolerance.
@Suite struct CircleFlatteningTests {
    /// cairo's own polygon for the circle: its path flattened, without the closing point.
    static func cairoPolygon(_ centre: Vec2, _ r: Double) -> [Vec2] {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4), let cr = cairo_create(surface)
        else { return [] }
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        cairo_arc(cr, centre.x, centre.y, r, 0, 2 * Double.pi)
        guard let path = cairo_copy_path_flat(cr) else { return [] }
        defer { cairo_path_destroy(path) }
        var points: [Vec2] = []
        var i = 0
        while i < Int(path.pointee.num_data) {
            let header = path.pointee.data[i].header
            if header.type == CAIRO_PATH_MOVE_TO || header.type == CAIRO_PATH_LINE_TO {
                let p = path.pointee.data[i + 1].point
                points.append(Vec2(p.x, p.y))
            }
            i += Int(header.length)
        }
        if points.count > 1, let first = points.first, let last = points.last,
           abs(first.x - last.x) < 1e-6 && abs(first.y - last.y) < 1e-6 {
            points.removeLast()
        }
        return points
    }

    static func ourPolygon(_ centre: Vec2, _ r: Double) -> [Vec2] {
        let canvas = Canvas(width: 4, height: 4)
        let n = canvas.flattenedCircle(centre.x, centre.y, r)
        return (0..<n).map { Vec2(canvas.vertices[$0].x, canvas.vertices[$0].y) }
    }

    /// Radii on both sides of where cairo changes the number of Bézier arcs (5.4 and
    /// 366.9 px), tiny to huge, at centres off the pixel grid.
    @Test(arguments: [0.3, 1.0, 2.2, 5.0, 5.5, 12.0, 50.0, 133.7, 300.0, 366.0, 367.5, 1000.0, 5000.0])
    func ourPolygonIsCairos(radius: Double) {
        for centre in [Vec2(40.37, 30.81), Vec2(7.5, 900.25)] {
            let theirs = Self.cairoPolygon(centre, radius), ours = Self.ourPolygon(centre, radius)
            #expect(ours.count == theirs.count, "radius \(radius): \(ours.count) vertices, cairo \(theirs.count)")
            guard ours.count == theirs.count else { continue }
            // cairo keeps points in 24.8 fixed point and halves its Béziers there, truncating
            // (up to 1/256 px a halving, about ten halvings deep for the largest).
            let worst = zip(ours, theirs).map { ($0 - $1).length }.max() ?? 0
            #expect(worst < 0.04, "radius \(radius): a vertex \(worst) px from cairo's")
        }
    }

    /// The quarter-turn table (the disc rasterizer's) holds the same polygon as the whole
    /// outline, in its first quarter, relative to the centre.
    @Test(arguments: [5.41, 6.0, 20.3, 50.0, 199.9, 366.8])
    func quarterTableIsTheOutlinesFirstQuarter(radius: Double) {
        #expect(Canvas.isQuarterTurn(radius))
        let outline = Self.ourPolygon(.zero, radius)
        var quarter = FlatQuarter()
        defer { quarter.deallocate() }
        let scratch = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: Canvas.maxCircleVertices)
        defer { scratch.deallocate() }
        quarter.prepare(radius: radius, scratch: scratch)
        #expect(outline.count == 4 * quarter.edges)
        for j in 0...quarter.edges {
            let p = outline[j % outline.count]
            #expect(abs(p.x - quarter.w[j]) < 1e-9 && abs(p.y - quarter.y[j]) < 1e-9, "vertex \(j) of radius \(radius)")
        }
        // Its half-width is linear between vertices and meets them.
        for j in 0..<quarter.edges {
            let mid = (quarter.y[j] + quarter.y[j + 1]) / 2
            #expect(abs(quarter.halfWidth(mid, edge: quarter.edge(at: mid)) - (quarter.w[j] + quarter.w[j + 1]) / 2) < 1e-9)
        }
    }

    /// Every vertex lies within the tolerance of the true circle (inside it, or outside by the
    /// Bézier's own error), so the picture is the circle's to a tenth of a pixel.
    @Test(arguments: [0.7, 3.0, 12.0, 50.0, 400.0])
    func polygonHugsTheCircle(radius: Double) {
        let centre = Vec2(3.3, 4.4)
        let polygon = Self.ourPolygon(centre, radius)
        for (k, p) in polygon.enumerated() {
            let q = polygon[(k + 1) % polygon.count]
            #expect(abs((p - centre).length - radius) <= Canvas.flatness, "vertex \(k)")
            // The chord's middle: the deepest the polygon cuts into the disc.
            #expect(radius - ((p + q) * 0.5 - centre).length <= Canvas.flatness + 1e-9, "edge \(k)")
        }
    }
}

/// The area of `polygon` (convex, either orientation) inside pixel (px, py): the polygon cut
/// by the pixel's four sides, then the shoelace formula (independent of the rasterizer).
func polygonAreaInPixel(_ polygon: [Vec2], _ px: Int, _ py: Int) -> Double {
    var points = polygon
    let x0 = Double(px), x1 = Double(px + 1), y0 = Double(py), y1 = Double(py + 1)
    func cut(_ inside: (Vec2) -> Bool, _ crossing: (Vec2, Vec2) -> Vec2) {
        guard !points.isEmpty else { return }
        var out: [Vec2] = []
        var previous = points[points.count - 1]
        for p in points {
            if inside(p) {
                if !inside(previous) { out.append(crossing(previous, p)) }
                out.append(p)
            } else if inside(previous) {
                out.append(crossing(previous, p))
            }
            previous = p
        }
        points = out
    }
    func atX(_ x: Double) -> (Vec2, Vec2) -> Vec2 {
        { a, b in Vec2(x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)) }
    }
    func atY(_ y: Double) -> (Vec2, Vec2) -> Vec2 {
        { a, b in Vec2(a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y) }
    }
    cut({ $0.x >= x0 }, atX(x0)); cut({ $0.x <= x1 }, atX(x1))
    cut({ $0.y >= y0 }, atY(y0)); cut({ $0.y <= y1 }, atY(y1))
    return polygonArea(points)
}

func polygonArea(_ points: [Vec2]) -> Double {
    guard points.count >= 3 else { return 0 }
    var twice = 0.0
    var previous = points[points.count - 1]
    for p in points {
        twice += previous.x * p.y - previous.y * p.x
        previous = p
    }
    return abs(twice) / 2
}
