import Geometry

public enum CollisionMode: Sendable {
    case items, boundaries, everything
    var includesItems: Bool { self != .boundaries }
    var includesBoundaries: Bool { self != .items }
}

public struct EdgeInsets: Equatable, Sendable {
    public var top, left, bottom, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = EdgeInsets()
}

/// Who an item touched.
public enum ContactParty: Equatable, Sendable {
    case item(ItemID)
    case boundary(BoundaryIdentifier)
}

/// A began/ended contact reported to a collision behavior.
public struct ContactEvent: Equatable, Sendable {
    public var item: ItemID
    public var other: ContactParty
    /// Where the surfaces touched (the first manifold point), screen pixels.
    public var point: Vec2
}

/// Items of the same collision behavior collide with each other (mode items) and/or with its
/// boundaries (mode boundaries): the reference bounds, with insets, and named segments.
public final class CollisionBehavior: ItemsBehavior {
    public var collisionMode: CollisionMode = .everything { didSet { if collisionMode != oldValue { changed() } } }
    public var translatesReferenceBoundsIntoBoundary = false {
        didSet { if translatesReferenceBoundsIntoBoundary != oldValue { changed() } }
    }
    public private(set) var referenceBoundsInsets = EdgeInsets.zero
    public private(set) var boundaries: [(identifier: String, from: Vec2, to: Vec2)] = []
    public var onBeganContact: ((ContactEvent) -> Void)?
    public var onEndedContact: ((ContactEvent) -> Void)?
    /// The behavior's bit in the world's collision masks (0 when beyond the 64th behavior).
    var bit: UInt64 = 0

    public init(items: [ItemID] = [], mode: CollisionMode = .everything) {
        super.init(items: items)
        collisionMode = mode
    }

    /// Insets that are not finite or beyond `DynamicsLimits.farthestCoordinate` are refused
    /// (the old ones stay).
    public func setTranslatesReferenceBoundsIntoBoundary(insets: EdgeInsets) {
        let limit = DynamicsLimits.farthestCoordinate
        if [insets.top, insets.left, insets.bottom, insets.right].allSatisfy({ $0.isFinite && abs($0) <= limit }) {
            referenceBoundsInsets = insets
        }
        translatesReferenceBoundsIntoBoundary = true
        changed()
    }

    /// Adds (or replaces) a two-sided line-segment boundary; ends beyond `DynamicsLimits` are
    /// refused.
    public func addBoundary(identifier: String, from: Vec2, to: Vec2) {
        guard DynamicsLimits.acceptsPoint(from), DynamicsLimits.acceptsPoint(to) else { return }
        boundaries.removeAll { $0.identifier == identifier }
        boundaries.append((identifier, from, to))
        changed()
    }

    /// Adds the edges of a rectangle as boundary segments named "identifier.top" … ".left".
    public func addBoundary(identifier: String, rect: Rect) {
        let a = Vec2(rect.minX, rect.minY), b = Vec2(rect.maxX, rect.minY)
        let c = Vec2(rect.maxX, rect.maxY), d = Vec2(rect.minX, rect.maxY)
        addBoundary(identifier: identifier + ".top", from: a, to: b)
        addBoundary(identifier: identifier + ".right", from: b, to: c)
        addBoundary(identifier: identifier + ".bottom", from: c, to: d)
        addBoundary(identifier: identifier + ".left", from: d, to: a)
    }

    public func removeBoundary(identifier: String) {
        let before = boundaries.count
        boundaries.removeAll { $0.identifier == identifier }
        if boundaries.count != before { changed() }
    }

    public func removeAllBoundaries() {
        guard !boundaries.isEmpty else { return }
        boundaries.removeAll()
        changed()
    }

    public var boundaryIdentifiers: [String] { boundaries.map { $0.identifier } }
}
