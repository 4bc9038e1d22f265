import Geometry
@testable import Dynamics

/// A world with gravity, collision against the reference bounds and one item behavior, as an
/// exhibit sets it up.
struct Scene {
    let world: DynamicsWorld
    let gravity = GravityBehavior()
    let collision = CollisionBehavior()
    let material = ItemBehavior()

    init(bounds: Rect = Rect(x: 0, y: 0, width: 480, height: 800), boundary: Bool = true) {
        world = DynamicsWorld(bounds: bounds)
        collision.translatesReferenceBoundsIntoBoundary = boundary
        world.addBehavior(gravity)
        world.addBehavior(collision)
        world.addBehavior(material)
    }

    @discardableResult
    func add(_ shape: ItemShape, at p: Vec2, rotation: Double = 0, gravity g: Bool = true) -> ItemID {
        let id = world.addItem(shape, center: p, rotation: rotation)
        if g { gravity.addItem(id) }
        collision.addItem(id)
        material.addItem(id)
        return id
    }
}

/// Runs `steps` steps, calling `each` after every one.
func run(_ world: DynamicsWorld, steps: Int, _ each: (Int) -> Void = { _ in }) {
    for i in 0..<steps { world.step(); each(i) }
}
