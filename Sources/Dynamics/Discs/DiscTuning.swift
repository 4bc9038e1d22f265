import Geometry

/// The disc world's constants, in pixels of a 480 px wide screen (`DiscWorld.scale` scales
/// them) and microseconds.
public struct DiscTuning: Sendable {
    /// Fixed step (µs): 1/120 s.
    public var stepInterval: Microseconds = 8_333
    public var stepSeconds: Double { Double(stepInterval) / 1_000_000 }
    /// Speed kept at each edge bounce (the whole velocity, so the angle is kept).
    public var wallRestitution = 0.8
    /// Restitution of disc–disc impacts: elastic-ish.
    public var discRestitution = 0.9
    /// Gravity 1.0 = 1000 px/s² (UIKit).
    public var gravityPixels = 1000.0
    /// Slower than this (px/s) for `restTime` and a disc comes to rest.
    public var restSpeed = 15.0
    public var restTime: Microseconds = 250_000
    /// Impacts on an edge slower than this (px/s) are resting contact: the normal velocity is
    /// removed instead of bounced, so a disc lying on an edge can still slide.
    public var contactSpeed = 30.0
    /// Fastest launch (px/s): 33 px per step. Faster, a disc could cross another in one step
    /// and miss the collision.
    public var maximumSpeed = 4000.0
    /// Overlap (px) beyond a step's approach that still counts as touching.
    public var contactSlop = 1.5
    /// Friction of a disc lying on an edge (sliding along it).
    public var edgeFriction = 0.4
    /// Side of the grid cell whose order the pairs are solved in (px); the broad phase
    /// looks for pairs in cells half of it.
    public var cellSize = 48.0

    public init() {}

    /// Each value that makes no sense (not finite, negative, restitution above 1, a step or a
    /// cell too small to count with) replaced by its default.
    public var sanitized: DiscTuning {
        let d = DiscTuning()
        var t = self
        func keep(_ v: Double, _ ok: (Double) -> Bool, _ fallback: Double) -> Double { v.isFinite && ok(v) ? v : fallback }
        if !(100...1_000_000).contains(t.stepInterval) { t.stepInterval = d.stepInterval }
        if t.restTime < 0 || t.restTime > 3_600_000_000 { t.restTime = d.restTime }
        t.wallRestitution = keep(t.wallRestitution, { (0...1).contains($0) }, d.wallRestitution)
        t.discRestitution = keep(t.discRestitution, { (0...1).contains($0) }, d.discRestitution)
        t.gravityPixels = keep(t.gravityPixels, { abs($0) <= 1_000_000 }, d.gravityPixels)
        t.restSpeed = keep(t.restSpeed, { $0 >= 0 }, d.restSpeed)
        t.contactSpeed = keep(t.contactSpeed, { $0 >= 0 }, d.contactSpeed)
        t.maximumSpeed = keep(t.maximumSpeed, { $0 > 0 && $0 <= 1_000_000 }, d.maximumSpeed)
        t.contactSlop = keep(t.contactSlop, { $0 >= 0 && $0 <= 1000 }, d.contactSlop)
        t.edgeFriction = keep(t.edgeFriction, { $0 >= 0 }, d.edgeFriction)
        t.cellSize = keep(t.cellSize, { $0 >= 1 && $0 <= DynamicsLimits.largestItem }, d.cellSize)
        return t
    }
}
