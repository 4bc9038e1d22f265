import Geometry

/// Base of every behavior, as in UIKit: composable through child behaviors, with an optional
/// `action` run at the start of every step. Changing anything wakes the world.
open class DynamicBehavior {
    /// The world this behavior is in. Not retained: the world owns its behaviors; it clears
    /// this reference when the behavior is removed and in its own deinit, so it never dangles.
    public internal(set) unowned(unsafe) var world: DynamicsWorld?
    /// Runs once per step, before the step, while the behavior is in a world and the world is
    /// running (a paused world runs no steps: feed sensor data through properties, which wake it).
    public var action: (() -> Void)?
    public private(set) var childBehaviors: [DynamicBehavior] = []

    public init() {}

    public func addChildBehavior(_ child: DynamicBehavior) {
        guard child !== self, !childBehaviors.contains(where: { $0 === child }) else { return }
        childBehaviors.append(child)
        if let world { child.attach(to: world) }
        changed()
    }

    public func removeChildBehavior(_ child: DynamicBehavior) {
        guard let i = childBehaviors.firstIndex(where: { $0 === child }) else { return }
        childBehaviors.remove(at: i)
        child.attach(to: nil)
        changed()
    }

    func attach(to world: DynamicsWorld?) {
        self.world = world
        for child in childBehaviors { child.attach(to: world) }
        if world != nil { didJoinWorld() }
    }

    /// Hook: the behavior (or its parent) was added to a world.
    func didJoinWorld() {}
    /// Hook: an item left the world.
    func forget(_ id: ItemID) {}

    func changed(wakeEverything: Bool = true) { world?.configurationChanged(wakeEverything: wakeEverything) }
}

/// A behavior acting on a list of items.
open class ItemsBehavior: DynamicBehavior {
    public private(set) var items: [ItemID]

    public init(items: [ItemID] = []) {
        var unique: [ItemID] = []
        for id in items where !unique.contains(id) { unique.append(id) }
        self.items = unique
    }

    public func addItem(_ id: ItemID) {
        guard !items.contains(id) else { return }
        items.append(id)
        changed()
    }

    public func removeItem(_ id: ItemID) {
        guard let i = items.firstIndex(of: id) else { return }
        items.remove(at: i)
        changed()
    }

    override func forget(_ id: ItemID) {
        if let i = items.firstIndex(of: id) { items.remove(at: i) }
    }
}

/// Gravity for its items: direction (0, 1) = down at magnitude 1 = 1000 px/s², as in UIKit.
public final class GravityBehavior: ItemsBehavior {
    /// Direction scaled by magnitude (UIKit's `gravityDirection`).
    public var gravityDirection = Vec2(0, 1) {
        didSet {
            if !gravityDirection.isFinite { gravityDirection = oldValue }
            if gravityDirection != oldValue { world?.gravityChanged() }
        }
    }
    /// Radians, clockwise from +x on screen.
    public var angle: Double {
        get { gravityDirection.angle }
        set { setAngle(newValue, magnitude: magnitude) }
    }
    public var magnitude: Double {
        get { gravityDirection.length }
        set { setAngle(angle, magnitude: newValue) }
    }
    public func setAngle(_ angle: Double, magnitude: Double) {
        gravityDirection = Vec2(angle: angle, length: magnitude)
    }
    /// 1.0 of UIKit gravity in px/s².
    public static let unitAcceleration = 1000.0
}
