import Geometry

/// Connects an item to a fixed anchor or to another item, between points offset from their
/// centres (in the items' frames). Rigid at `frequency` 0 (a rod of `length`); otherwise a
/// spring of that frequency (Hz) and damping ratio (1 = critical).
public final class AttachmentBehavior: DynamicBehavior {
    public let item: ItemID
    public let offset: Vec2
    public let attachedItem: ItemID?
    public let attachedOffset: Vec2
    /// The world point of an item–anchor attachment (points beyond `DynamicsLimits` are
    /// refused).
    public var anchorPoint: Vec2 {
        didSet {
            if !DynamicsLimits.acceptsPoint(anchorPoint) { anchorPoint = oldValue }
            if anchorPoint != oldValue { anchorRefused = false; changed() }
        }
    }
    /// Rest length; by default the distance when the behavior joined the world.
    public var length: Double {
        get { storedLength ?? 0 }
        set { if Self.acceptsLength(newValue), newValue != storedLength { storedLength = newValue; changed() } }
    }
    /// Hz; 0 is rigid. NaN and negative values are refused; above `stiffest` it is a rod.
    public var frequency = 0.0 {
        didSet {
            if !(frequency >= 0) { frequency = oldValue }
            frequency = min(frequency, Self.stiffest)
            if frequency != oldValue { changed() }
        }
    }
    /// Damping ratio; NaN and infinite values are refused, negative ones are 0.
    public var damping = 0.0 {
        didSet {
            if !damping.isFinite { damping = oldValue }
            damping = max(damping, 0)
            if damping != oldValue { changed() }
        }
    }
    /// The stiffest spring, Hz.
    public static let stiffest = 1000.0

    private var storedLength: Double?
    /// The anchor given was beyond the limits: the item is held where it is when it joins.
    private var anchorRefused = false
    var impulse = 0.0     // warm start across steps

    /// An anchor or offset beyond `DynamicsLimits`, or a length that is not a finite distance
    /// within them, is refused: the anchor becomes the item's point when the behavior joins the
    /// world, the offset zero, the length the distance then.
    public init(item: ItemID, offsetFromCenter offset: Vec2 = .zero, attachedToAnchor anchor: Vec2, length: Double? = nil) {
        self.item = item; self.offset = DynamicsLimits.acceptsPoint(offset) ? offset : .zero
        attachedItem = nil; attachedOffset = .zero
        anchorRefused = !DynamicsLimits.acceptsPoint(anchor)
        anchorPoint = anchorRefused ? .zero : anchor
        storedLength = length.flatMap { Self.acceptsLength($0) ? $0 : nil }
    }

    public init(item: ItemID, offsetFromCenter offset: Vec2 = .zero, attachedTo other: ItemID,
                offsetFromCenter otherOffset: Vec2 = .zero, length: Double? = nil) {
        self.item = item; self.offset = DynamicsLimits.acceptsPoint(offset) ? offset : .zero
        attachedItem = other; attachedOffset = DynamicsLimits.acceptsPoint(otherOffset) ? otherOffset : .zero
        anchorPoint = .zero
        storedLength = length.flatMap { Self.acceptsLength($0) ? $0 : nil }
    }

    static func acceptsLength(_ l: Double) -> Bool { l >= 0 && l <= 2 * DynamicsLimits.farthestCoordinate }

    override func didJoinWorld() {
        guard let world, let a = world.worldPoint(item, offset) else { return }
        if anchorRefused && attachedItem == nil { anchorPoint = a; anchorRefused = false }
        guard storedLength == nil else { return }
        let b = attachedItem.flatMap { world.worldPoint($0, attachedOffset) } ?? anchorPoint
        storedLength = a.distance(to: b)
    }
}

/// Pulls an item to a point like a damped spring (UIKit's snap): damping 0…1, default 0.5.
public final class SnapBehavior: DynamicBehavior {
    public let item: ItemID
    /// Points beyond `DynamicsLimits` are refused.
    public var snapPoint: Vec2 {
        didSet {
            if !DynamicsLimits.acceptsPoint(snapPoint) { snapPoint = oldValue }
            if snapPoint != oldValue { pointRefused = false; changed() }
        }
    }
    /// 0…1; NaN is refused.
    public var damping = 0.5 {
        didSet {
            damping = damping.isNaN ? oldValue : min(max(damping, 0), 1)
            if damping != oldValue { changed() }
        }
    }
    /// Also turn the item back to this rotation (radians); nil leaves rotation free. Angles
    /// beyond `DynamicsLimits.largestAngle` are refused.
    public var targetRotation: Double? = 0 {
        didSet {
            if let r = targetRotation, !DynamicsLimits.acceptsAngle(r) { targetRotation = oldValue }
            if targetRotation != oldValue { changed() }
        }
    }
    var impulseX = 0.0, impulseY = 0.0, angularImpulse = 0.0
    /// The point given was beyond the limits: the item snaps to where it is when it joins.
    private var pointRefused = false

    public init(item: ItemID, snapTo point: Vec2) {
        self.item = item
        pointRefused = !DynamicsLimits.acceptsPoint(point)
        snapPoint = pointRefused ? .zero : point
    }

    override func didJoinWorld() {
        guard pointRefused, let center = world?.center(of: item) else { return }
        snapPoint = center
    }
}

extension DynamicsWorld {
    func worldPoint(_ id: ItemID, _ offset: Vec2) -> Vec2? {
        guard let b = body(id) else { return nil }
        let c = bodies.pose[b].cosA, s = bodies.pose[b].sinA
        return Vec2(bodies.pose[b].x + c * offset.x - s * offset.y, bodies.pose[b].y + s * offset.x + c * offset.y)
    }
}
