import Geometry

/// What the engine accepts from outside. Numbers beyond these are refused (the setter keeps
/// the old value) or replaced (a new item's centre, its rotation), so that nothing a sensor,
/// a finger or a configuration file says can make the world's numbers infinite or NaN.
public enum DynamicsLimits {
    /// The largest item, in pixels along any side (a screen is at most a few thousand):
    /// beyond it, areas and inertias (side⁴) overflow the precision the solver needs.
    public static let largestItem = 100_000.0
    /// How far from the origin a position may be, in pixels.
    public static let farthestCoordinate = 1_000_000.0
    /// The largest rotation accepted, in radians: beyond it the angle's sine and cosine
    /// are noise.
    public static let largestAngle = 1_000_000.0
    /// Substeps a step at most: each costs a full solve.
    public static let mostSubsteps = 64
    /// The shortest and longest fixed step, seconds.
    public static let shortestStep = 1e-5, longestStep = 0.1

    static func acceptsPoint(_ p: Vec2) -> Bool {
        p.isFinite && abs(p.x) <= farthestCoordinate && abs(p.y) <= farthestCoordinate
    }

    static func acceptsAngle(_ a: Double) -> Bool { a.isFinite && abs(a) <= largestAngle }

    static func acceptsLength(_ l: Double) -> Bool { l.isFinite && l > 0 && l <= largestItem }

    /// Finite, not negative in size, within the coordinate range.
    static func acceptsBounds(_ r: Rect) -> Bool {
        acceptsPoint(r.origin) && r.width >= 0 && r.height >= 0 && acceptsPoint(Vec2(r.maxX, r.maxY))
    }

    /// A world's reference bounds: as `acceptsBounds`, and at least a pixel wide and high.
    static func acceptsWorldBounds(_ r: Rect) -> Bool { acceptsBounds(r) && r.width >= 1 && r.height >= 1 }
}
