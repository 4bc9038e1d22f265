import Geometry

/// The collision bounds of an item, in its own frame (centre at the origin, unrotated).
public enum ItemShape: Equatable, Sendable {
    /// UIKit's `.ellipse` for a square view.
    case circle(radius: Double)
    /// UIKit's default `.rectangle` bounds.
    case rectangle(width: Double, height: Double)
    /// A convex polygon (UIKit's `.path`); points around the centre, any winding. The item keeps
    /// the convex hull (at most `maxPolygonVertices` points) re-centred on its centroid, which is
    /// the item's centre.
    case polygon([Vec2])

    /// Width and height of the bounding box.
    public var size: Vec2 {
        switch self {
        case .circle(let r): return Vec2(2 * r, 2 * r)
        case .rectangle(let w, let h): return Vec2(w, h)
        case .polygon(let points):
            var lo = Vec2(Double.infinity, .infinity), hi = -lo
            for p in points { lo = Vec2(min(lo.x, p.x), min(lo.y, p.y)); hi = Vec2(max(hi.x, p.x), max(hi.y, p.y)) }
            return points.isEmpty ? .zero : hi - lo
        }
    }

    /// The same shape stretched to a new bounding-box size (a pinch).
    public func resized(to newSize: Vec2) -> ItemShape {
        let old = size
        switch self {
        case .circle: return .circle(radius: max(newSize.x, newSize.y) / 2)
        case .rectangle: return .rectangle(width: newSize.x, height: newSize.y)
        case .polygon(let points):
            let sx = old.x > 0 ? newSize.x / old.x : 1, sy = old.y > 0 ? newSize.y / old.y : 1
            return .polygon(points.map { Vec2($0.x * sx, $0.y * sy) })
        }
    }
}

public let maxPolygonVertices = 8

/// Shape kinds, ordered so that a pair is always collided as (lower kind, higher kind).
enum ShapeKind: UInt8 {
    case wall = 0       // half-plane: the reference bounds, one per side
    case segment = 1    // two-sided line segment: a named boundary
    case polygon = 2
    case circle = 3
}

/// A shape ready for collision: centroid-relative vertices with outward normals, and mass data.
struct ShapeGeometry {
    var kind: ShapeKind
    var radius: Double = 0
    var vertices: [Vec2] = []
    var normals: [Vec2] = []
    var area: Double = 0
    /// Second moment of area about the centroid (multiply by density for inertia).
    var areaInertia: Double = 0
    /// Offset from the item's nominal centre to the centroid.
    var centroid: Vec2 = .zero
    /// Largest distance from the centroid to the surface.
    var extent: Double = 0

    /// Validates and prepares an item shape; `nil` for degenerate input (zero size, NaN,
    /// fewer than three distinct hull points) and for sizes beyond `DynamicsLimits.largestItem`.
    init?(_ shape: ItemShape) {
        switch shape {
        case .circle(let r):
            guard DynamicsLimits.acceptsLength(2 * r) else { return nil }
            self.init(kind: .circle)
            radius = r
            area = Double.pi * r * r
            areaInertia = area * r * r / 2
            extent = r
        case .rectangle(let w, let h):
            guard DynamicsLimits.acceptsLength(w), DynamicsLimits.acceptsLength(h) else { return nil }
            self.init(hull: [Vec2(-w / 2, -h / 2), Vec2(w / 2, -h / 2), Vec2(w / 2, h / 2), Vec2(-w / 2, h / 2)])
        case .polygon(let points):
            let reach = DynamicsLimits.largestItem / 2
            guard points.allSatisfy({ $0.isFinite && abs($0.x) <= reach && abs($0.y) <= reach }) else { return nil }
            let hull = convexHull(points)
            guard hull.count >= 3 else { return nil }
            self.init(hull: hull)
        }
    }

    /// `hull` is convex and counter-clockwise in the mathematical sense (cross of successive
    /// edges positive).
    private init?(hull: [Vec2]) {
        kind = .polygon
        var a = 0.0, cx = 0.0, cy = 0.0, inertia = 0.0
        let origin = hull[0]
        for i in 1..<(hull.count - 1) {
            let e1 = hull[i] - origin, e2 = hull[i + 1] - origin
            let d = e1.cross(e2)
            let triangleArea = d / 2
            a += triangleArea
            cx += triangleArea * (e1.x + e2.x) / 3
            cy += triangleArea * (e1.y + e2.y) / 3
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
            inertia += (d / 12) * (intx2 + inty2)
        }
        guard a > 1e-9 else { return nil }
        let c = Vec2(cx / a, cy / a)
        area = a
        // Parallel-axis: inertia about `origin` → about the centroid.
        areaInertia = inertia - a * c.lengthSquared
        centroid = origin + c
        vertices = hull.map { $0 - centroid }
        normals = (0..<vertices.count).map { i in
            let e = vertices[(i + 1) % vertices.count] - vertices[i]
            return Vec2(e.y, -e.x).normalized
        }
        extent = vertices.map { $0.length }.max() ?? 0
    }

    /// The shape as the engine uses it: a polygon becomes its convex hull around its centroid
    /// (the item's centre), so that drawing it around `center` matches the collisions.
    func canonical(_ shape: ItemShape) -> ItemShape {
        if case .polygon = shape { return .polygon(vertices) }
        return shape
    }

    static func wall() -> ShapeGeometry { ShapeGeometry(kind: .wall) }
    static func segment(length: Double) -> ShapeGeometry {
        var g = ShapeGeometry(kind: .segment)
        g.vertices = [Vec2(-length / 2, 0), Vec2(length / 2, 0)]
        g.normals = [Vec2(0, -1), Vec2(0, 1)]
        g.extent = length / 2
        return g
    }
    private init(kind: ShapeKind) { self.kind = kind }
}

/// Andrew's monotone chain; returns at most `maxPolygonVertices` points, counter-clockwise in
/// the mathematical sense, collinear points dropped. Big hulls are decimated evenly.
func convexHull(_ input: [Vec2]) -> [Vec2] {
    let points = input.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
    guard points.count >= 3 else { return points }
    func cross(_ o: Vec2, _ a: Vec2, _ b: Vec2) -> Double { (a - o).cross(b - o) }
    var lower: [Vec2] = [], upper: [Vec2] = []
    for p in points {
        while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 1e-12 { lower.removeLast() }
        lower.append(p)
    }
    for p in points.reversed() {
        while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 1e-12 { upper.removeLast() }
        upper.append(p)
    }
    var hull = Array(lower.dropLast() + upper.dropLast())
    if hull.count > maxPolygonVertices {
        let n = hull.count
        hull = (0..<maxPolygonVertices).map { hull[$0 * n / maxPolygonVertices] }
    }
    return hull
}
