/// Solver tolerances in pixels, scaled like Box2D's with `lengthUnit` pixels per metre.
public struct Tuning: Sendable {
    /// Pixels per "metre": the size of an ordinary item. Box2D's tolerances scale with it.
    public var lengthUnit = 100.0
    /// Overlap tolerated at rest (Box2D's linear slop).
    public var linearSlop: Double { 0.005 * lengthUnit }
    /// How far past the reference bounds an item may be before the last-resort clamp puts it
    /// back, px. Resting contact under a deep pile at high gravity overlaps the edge by a few
    /// pixels (soft contacts); the clamp is for escapes and must not fight that.
    public var boundsTolerance = 4.0
    /// Contacts are created this far before the surfaces meet (plus the step's travel).
    public var speculativeDistance: Double { 4 * linearSlop }
    /// A manifold is carried along with its bodies instead of computed anew while they have
    /// moved (surface points, relative to when it was computed) no further than this.
    public var manifoldReuseDistance: Double { 0.02 * linearSlop }
    /// Soft contact stiffness (Hz) and damping ratio, as in Box2D v3.
    public var contactHertz = 30.0
    public var contactDampingRatio = 10.0
    public var jointHertz = 60.0
    public var jointDampingRatio = 2.0
    /// Overlap is pushed apart no faster than this, px/s.
    public var maxPushoutSpeed: Double { 3 * lengthUnit }
    /// Slower impacts do not bounce, px/s.
    public var restitutionThreshold: Double { 1 * lengthUnit }
    /// Rolling resistance of circles (Box2D v3's material coefficient): the torque against
    /// rolling is at most this × radius × normal force. A ball rolling on the floor slows by
    /// ~1.3 % of gravity (13 px/s² at UIKit's 1); a box rocking on a ball comes to rest.
    public var rollingResistance = 0.02
    /// A body is still while no point of it moves faster than this, px/s.
    public var sleepLinearSpeed: Double { 0.05 * lengthUnit }
    /// An island sleeps after being still this long.
    public var timeToSleep = 0.5
    /// Speed limits keep a runaway body finite (px/s, rad per substep).
    public var maxLinearSpeed = 100_000.0
    public var maxRotationPerSubstep = 0.25 * Double.pi
    /// A held item moves toward the finger no faster than this (px/s, rad/s) and with no more
    /// acceleration than this (px/s², rad/s²): it cannot be forced through anything.
    public var maxHeldSpeed = 6_000.0
    public var maxHeldAngularSpeed = 40.0
    public var maxHeldAcceleration = 50_000.0
    public var maxHeldAngularAcceleration = 4_000.0

    public init() {}

    /// Each value that is not finite, or outside the range where the solver's formulas hold
    /// (positive rates and limits, non-negative ratios and tolerances, nothing above 1e9),
    /// replaced by the one it had before.
    func accepted(else old: Tuning) -> Tuning {
        var t = self
        func keep(_ v: inout Double, _ fallback: Double, positive: Bool) {
            if !(v.isFinite && v <= 1e9 && (positive ? v > 0 : v >= 0)) { v = fallback }
        }
        keep(&t.lengthUnit, old.lengthUnit, positive: true)
        keep(&t.boundsTolerance, old.boundsTolerance, positive: false)
        keep(&t.contactHertz, old.contactHertz, positive: true)
        keep(&t.contactDampingRatio, old.contactDampingRatio, positive: false)
        keep(&t.jointHertz, old.jointHertz, positive: true)
        keep(&t.jointDampingRatio, old.jointDampingRatio, positive: false)
        keep(&t.rollingResistance, old.rollingResistance, positive: false)
        keep(&t.timeToSleep, old.timeToSleep, positive: false)
        keep(&t.maxLinearSpeed, old.maxLinearSpeed, positive: true)
        keep(&t.maxRotationPerSubstep, old.maxRotationPerSubstep, positive: true)
        keep(&t.maxHeldSpeed, old.maxHeldSpeed, positive: true)
        keep(&t.maxHeldAngularSpeed, old.maxHeldAngularSpeed, positive: true)
        keep(&t.maxHeldAcceleration, old.maxHeldAcceleration, positive: true)
        keep(&t.maxHeldAngularAcceleration, old.maxHeldAngularAcceleration, positive: true)
        return t
    }
}

/// Box2D v3's soft constraint coefficients for a spring of `hertz` and `dampingRatio` solved
/// with time step `h`.
struct Softness {
    var biasRate = 0.0, massScale = 1.0, impulseScale = 0.0

    init() {}
    init(hertz: Double, dampingRatio zeta: Double, h: Double) {
        guard hertz > 0 else { return }
        let omega = 2 * Double.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }
}
