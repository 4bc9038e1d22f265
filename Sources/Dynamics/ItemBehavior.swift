import Geometry

/// Material and motion properties of its items (UIKit's UIDynamicItemBehavior). When several
/// item behaviors name the same item, the one added last wins; removing it restores defaults.
public final class ItemBehavior: ItemsBehavior {
    /// Restitution 0…1 (Box2D mixing: the larger of the two); NaN, infinite and negative
    /// values are refused.
    public var elasticity = 0.0 {
        didSet {
            if !(elasticity.isFinite && elasticity >= 0) { elasticity = oldValue }
            if elasticity != oldValue { changed() }
        }
    }
    /// Coulomb friction (mixed as the geometric mean); NaN, infinite and negative values are
    /// refused.
    public var friction = 0.0 {
        didSet {
            if !(friction.isFinite && friction >= 0) { friction = oldValue }
            if friction != oldValue { changed() }
        }
    }
    /// Mass per area: a 100×100 item of density 1 has UIKit mass 0.01. NaN, negative values
    /// and more than `Self.densest` are refused.
    public var density = 1.0 {
        didSet {
            if !(density >= 0 && density <= Self.densest) { density = oldValue }
            if density != oldValue { changed() }
        }
    }
    /// Linear damping, 1/s (NaN, infinite and negative values are refused).
    public var resistance = 0.0 {
        didSet {
            if !(resistance.isFinite && resistance >= 0) { resistance = oldValue }
            if resistance != oldValue { changed() }
        }
    }
    public var angularResistance = 0.0 {
        didSet {
            if !(angularResistance.isFinite && angularResistance >= 0) { angularResistance = oldValue }
            if angularResistance != oldValue { changed() }
        }
    }
    /// The densest material accepted (a million times water's 1 here): beyond it masses
    /// overflow the solver's single precision.
    public static let densest = 1_000_000.0
    public var allowsRotation = true { didSet { if allowsRotation != oldValue { changed() } } }
    public var isAnchored = false { didSet { if isAnchored != oldValue { changed() } } }

    private var pendingLinear: [(ItemID, Vec2)] = []
    private var pendingAngular: [(ItemID, Double)] = []

    public override init(items: [ItemID] = []) { super.init(items: items) }

    public func addLinearVelocity(_ v: Vec2, for id: ItemID) {
        guard v.isFinite else { return }
        if let world, let b = world.body(id) {
            if !world.bodies.slot[b].isStatic {
                let sum = world.cappedSpeed(Vec2(world.bodies.motion[b].vx + v.x, world.bodies.motion[b].vy + v.y))
                world.bodies.motion[b].vx = sum.x; world.bodies.motion[b].vy = sum.y
                world.wake(b)
            }
        } else { pendingLinear.append((id, v)) }
    }

    public func linearVelocity(for id: ItemID) -> Vec2 { world?.velocity(of: id) ?? .zero }

    public func addAngularVelocity(_ w: Double, for id: ItemID) {
        guard w.isFinite else { return }
        if let world, let b = world.body(id) {
            if !world.bodies.slot[b].isStatic && world.bodies.slot[b].allowsRotation {
                world.bodies.motion[b].w += w
                world.wake(b)
            }
        } else { pendingAngular.append((id, w)) }
    }

    public func angularVelocity(for id: ItemID) -> Double { world?.angularVelocity(of: id) ?? 0 }

    override func didJoinWorld() {
        let linear = pendingLinear, angular = pendingAngular
        pendingLinear.removeAll(); pendingAngular.removeAll()
        for (id, v) in linear { addLinearVelocity(v, for: id) }
        for (id, w) in angular { addAngularVelocity(w, for: id) }
    }
}
