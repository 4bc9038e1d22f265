import Geometry

/// Connects an item to a fixed anchor or to another item, between points offset from their
/// centres (in the items' frames). Rigid at `frequency` 0 (a rod of `length`); otherwise a
/// spring of that frequency (Hz) and damping ratio (1 = critical).
public final class AttachmentBehavior: DynamicBehavior {
    public let item: ItemID
    public let offset: Vec2
    public let attachedItem: ItemID?
    public let attachedOffset: Vec2
    /// The world point of an item–anchor attachment.
    public var anchorPoint: Vec2 { didSet { if anchorPoint != oldValue, anchorPoint.isFinite { changed() } } }
    /// Rest length; by default the distance when the behavior joined the world.
    public var length: Double {
        get { storedLength ?? 0 }
        set { if newValue.isFinite, newValue >= 0, newValue != storedLength { storedLength = newValue; changed() } }
    }
    public var frequency = 0.0 { didSet { if frequency != oldValue { changed() } } }
    public var damping = 0.0 { didSet { if damping != oldValue { changed() } } }

    private var storedLength: Double?
    var impulse = 0.0     // warm start across steps

    public init(item: ItemID, offsetFromCenter offset: Vec2 = .zero, attachedToAnchor anchor: Vec2, length: Double? = nil) {
        self.item = item; self.offset = offset
        attachedItem = nil; attachedOffset = .zero
        anchorPoint = anchor
        storedLength = length
    }

    public init(item: ItemID, offsetFromCenter offset: Vec2 = .zero, attachedTo other: ItemID,
                offsetFromCenter otherOffset: Vec2 = .zero, length: Double? = nil) {
        self.item = item; self.offset = offset
        attachedItem = other; attachedOffset = otherOffset
        anchorPoint = .zero
        storedLength = length
    }

    override func didJoinWorld() {
        guard storedLength == nil, let world, let a = world.worldPoint(item, offset) else { return }
        let b = attachedItem.flatMap { world.worldPoint($0, attachedOffset) } ?? anchorPoint
        storedLength = a.distance(to: b)
    }
}

/// Pulls an item to a point like a damped spring (UIKit's snap): damping 0…1, default 0.5.
public final class SnapBehavior: DynamicBehavior {
    public let item: ItemID
    public var snapPoint: Vec2 { didSet { if snapPoint != oldValue, snapPoint.isFinite { changed() } } }
    public var damping = 0.5 { didSet { damping = min(max(damping, 0), 1); if damping != oldValue { changed() } } }
    /// Also turn the item back to this rotation (radians); nil leaves rotation free.
    public var targetRotation: Double? = 0 { didSet { if targetRotation != oldValue { changed() } } }
    var impulseX = 0.0, impulseY = 0.0, angularImpulse = 0.0

    public init(item: ItemID, snapTo point: Vec2) {
        self.item = item
        snapPoint = point
    }
}

extension DynamicsWorld {
    func worldPoint(_ id: ItemID, _ offset: Vec2) -> Vec2? {
        guard let b = body(id) else { return nil }
        let c = bodies.pose[b].cosA, s = bodies.pose[b].sinA
        return Vec2(bodies.pose[b].x + c * offset.x - s * offset.y, bodies.pose[b].y + s * offset.x + c * offset.y)
    }
}
