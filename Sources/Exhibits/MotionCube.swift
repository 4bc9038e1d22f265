import Dynamics
import Geometry
import Gestures

/// Seed 000: tap to drop a circle or a square of a random colour; they fall, collide and
/// bounce inside the screen. Pan drags a shape, pinch scales it, rotation turns it, all three
/// at once with two fingers; a held shape has no gravity but still collides, and on release it
/// keeps the finger's velocity. Gravity follows the tilt of the stand.
///
/// A tap on a shape does not spawn another one on top of it (UIKit's tap recognizer on the
/// background view would, since it also sees touches on subviews): the screen-level tap only
/// takes touches that land on the background, and a tap on a shape pokes it up instead, so a
/// visitor's tap is never dead.
public final class MotionCube: Exhibit {
    public static let info = ExhibitInfo(name: "motion-cube", title: "Motion Cube",
                                         instruction: "Tap to drop shapes; drag, pinch, turn them; tilt the stand",
                                         tileColor: Color(rgb: 0x5856D6))

    public enum Kind: String, Sendable { case circle, square }

    struct Shape {
        let id: Int
        let body: Dynamics.ItemID
        let kind: Kind
        let color: Color
        /// Current side (square) or diameter (circle), after pinches.
        var side: Double
    }

    /// A shape in a visitor's hands: where the fingers want it, and which gestures hold it.
    struct Grab {
        var target: Vec2
        var angle: Double
        var side: Double
        var panning = false, pinching = false, rotating = false
        /// The finger's velocity when the pan ended (px/s), flung at the release.
        var flingVelocity: Vec2? = nil
        var spin: Double? = nil
        var isLetGo: Bool { !panning && !pinching && !rotating }
    }

    /// The seed's item behavior: shapes bounce back with half their speed.
    public static let elasticity = 0.5
    /// How far a pinch may scale a shape, relative to its 100 px (× scale) birth size.
    public static let scaleLimits: ClosedRange<Double> = 0.5...2.5
    static let birthSide = 100.0
    /// Pixels (× scale) a second finger may land outside a held shape and still join its pinch.
    static let adoptionRadius = 120.0
    /// Upward speed (px/s × scale) a tap on a shape gives it: about one shape height of hop.
    static let pokeSpeed = 450.0
    /// Gravity changes smaller than this (UIKit units) are sensor noise: applying them would
    /// wake a resting pile at every sample and the kiosk would never sleep.
    static let gravityDeadband = 0.02
    static let background = Color(rgb: 0xF2F2F7)
    /// iOS system colours: saturated, distinct on the light background.
    static let palette: [Color] = [0xFF3B30, 0xFF9500, 0xFFCC00, 0x34C759, 0x00C7BE, 0x30B0C7,
                                   0x32ADE6, 0x007AFF, 0x5856D6, 0xAF52DE, 0xFF2D55, 0xA2845E].map { Color(rgb: $0) }

    private let world: DynamicsWorld
    private let gravity = GravityBehavior()
    private let collision = CollisionBehavior()
    private let material = ItemBehavior()
    private let gestures: GestureEnvironment
    private var random: SeededGenerator
    private var shapes: [Shape] = []
    private var grabs: [Int: Grab] = [:]
    private var nextID = 0
    private var lastColorIndex = -1
    private let width: Double, height: Double, scale: Double
    private let cap: Int
    /// The time the world has been advanced to.
    private var worldTime: Microseconds
    private var appliedGravity = Vec2(0, 1)

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = environment.scale
        cap = max(1, environment.options.motionCubeShapeCap)
        worldTime = environment.startTime
        self.gestures = gestures
        self.random = random
        world = DynamicsWorld(bounds: Rect(x: 0, y: 0, width: width, height: height))
        // The solver's tolerances (slop, sleep speed) are sized for 100 px items.
        world.tuning.lengthUnit = 100 * scale
        collision.translatesReferenceBoundsIntoBoundary = true
        material.elasticity = MotionCube.elasticity
        // A bigger panel has more pixels, not a bigger world: 1 g falls the same fraction of
        // the screen per second at every size.
        gravity.gravityDirection = appliedGravity * scale
        for behavior in [gravity, collision, material] as [DynamicBehavior] { world.addBehavior(behavior) }

        let spawn = TapGestureRecognizer(name: "spawn") { [unowned self] tap in
            if tap.state == .ended { self.spawn(at: tap.location) }
        }
        spawn.shouldReceiveTouch = { [unowned self] point in self.shapeID(at: point) == nil }
        gestures.add(spawn)
        gestures.attachToItems(hitTest: { [unowned self] in self.shapeID(at: $0) },
                               adoptionRadius: MotionCube.adoptionRadius * scale) { [unowned self] id in
            self.recognizers(for: id)
        }
    }

    // MARK: Shapes

    private var minSide: Double { MotionCube.birthSide * scale * MotionCube.scaleLimits.lowerBound }
    private var maxSide: Double { MotionCube.birthSide * scale * MotionCube.scaleLimits.upperBound }

    private func spawn(at point: Vec2) {
        syncPausedWorld()
        if shapes.count >= cap {
            // The oldest leaves, unless someone holds it: then the oldest free one.
            guard let oldest = shapes.first(where: { grabs[$0.id] == nil }) else { return }
            remove(oldest)
        }
        let kind: Kind = random.next() & 1 == 0 ? .circle : .square
        var colorIndex = Int(random.next() % UInt64(MotionCube.palette.count))
        // Two shapes in a row never share a colour, so a new one stands out from the last.
        if colorIndex == lastColorIndex { colorIndex = (colorIndex + 1) % MotionCube.palette.count }
        lastColorIndex = colorIndex
        let side = MotionCube.birthSide * scale
        let half = side / 2
        // Centred under the finger, moved in just enough to be born inside the screen.
        let center = Vec2(clamp(point.x, half, width - half), clamp(point.y, half, height - half))
        let shape: ItemShape = kind == .circle ? .circle(radius: half) : .rectangle(width: side, height: side)
        let body = world.addItem(shape, center: center)
        gravity.addItem(body)
        collision.addItem(body)
        material.addItem(body)
        shapes.append(Shape(id: nextID, body: body, kind: kind, color: MotionCube.palette[colorIndex], side: side))
        nextID += 1
    }

    private func remove(_ shape: Shape) {
        gestures.removeItem(shape.id)
        grabs[shape.id] = nil
        world.removeItem(shape.body)
        shapes.removeAll { $0.id == shape.id }
    }

    private func index(of id: Int) -> Int? { shapes.firstIndex { $0.id == id } }

    /// The topmost shape (last drawn) under `point`, exactly inside its outline.
    func shapeID(at point: Vec2) -> Int? {
        for shape in shapes.reversed() {
            guard let c = world.center(of: shape.body), let angle = world.rotation(of: shape.body) else { continue }
            let local = (point - c).rotated(by: -angle)
            let half = shape.side / 2
            switch shape.kind {
            case .circle: if local.length <= half { return shape.id }
            case .square: if abs(local.x) <= half && abs(local.y) <= half { return shape.id }
            }
        }
        return nil
    }

    /// A world that sleeps owes no time: what a gesture changes starts from the gesture's
    /// moment, not from the last frame before the kiosk went to sleep.
    private func syncPausedWorld() {
        if world.isPaused { worldTime = max(worldTime, gestures.now) }
    }

    // MARK: Gestures

    private func recognizers(for id: Int) -> [GestureRecognizer] {
        let pan = PanGestureRecognizer(name: "pan shape") { [unowned self] pan in
            switch pan.state {
            case .began, .changed:
                self.handle(id) { $0.panning = true; $0.target += pan.translation }
                pan.setTranslation(.zero)
            case .ended:
                let v = pan.velocity
                self.handle(id) { $0.panning = false; $0.flingVelocity = v }
            case .cancelled:
                self.handle(id) { $0.panning = false }
            default:
                break
            }
        }
        let pinch = PinchGestureRecognizer(name: "pinch shape") { [unowned self] pinch in
            switch pinch.state {
            case .began, .changed:
                let factor = pinch.scale
                self.handle(id) { grab in
                    grab.pinching = true
                    grab.side = clamp(grab.side * factor, self.minSide, self.maxSide)
                }
                pinch.scale = 1
            case .ended, .cancelled:
                self.handle(id) { $0.pinching = false }
            default:
                break
            }
        }
        let rotation = RotationGestureRecognizer(name: "rotate shape") { [unowned self] rotation in
            switch rotation.state {
            case .began, .changed:
                let turn = rotation.rotation
                self.handle(id) { $0.rotating = true; $0.angle += turn }
                rotation.rotation = 0
            case .ended:
                let w = rotation.velocity
                self.handle(id) { $0.rotating = false; $0.spin = w }
            case .cancelled:
                self.handle(id) { $0.rotating = false }
            default:
                break
            }
        }
        let poke = TapGestureRecognizer(name: "poke shape") { [unowned self] tap in
            if tap.state == .ended { self.poke(id) }
        }
        pan.recognizeSimultaneously(with: pinch)
        pan.recognizeSimultaneously(with: rotation)
        pinch.recognizeSimultaneously(with: rotation)
        return [pan, pinch, rotation, poke]
    }

    /// Applies a gesture's change to the shape's grab: holds it on the first gesture, moves the
    /// held target, and lets go (with the finger's velocity) when the last gesture ends.
    private func handle(_ id: Int, _ change: (inout Grab) -> Void) {
        guard let i = index(of: id) else { return }
        let body = shapes[i].body
        syncPausedWorld()
        var grab: Grab
        if let existing = grabs[id] {
            grab = existing
        } else {
            guard let c = world.center(of: body), let angle = world.rotation(of: body) else { return }
            grab = Grab(target: c, angle: angle, side: shapes[i].side)
            world.hold(body)
            // The seed: no gravity while held, collision and elasticity stay.
            gravity.removeItem(body)
        }
        change(&grab)
        if grab.isLetGo {
            grabs[id] = nil
            world.release(body, velocity: grab.flingVelocity, angularVelocity: grab.spin)
            gravity.addItem(body)
            return
        }
        // A target beyond the screen's edge is one the shape can never reach: keep it where
        // the shape can be, so that it follows the finger back at once.
        let half = grab.side / 2
        let extent = shapes[i].kind == .circle ? half : half * (abs(_cos(grab.angle)) + abs(_sin(grab.angle)))
        grab.target = Vec2(clamp(grab.target.x, min(extent, width / 2), max(width - extent, width / 2)),
                           clamp(grab.target.y, min(extent, height / 2), max(height - extent, height / 2)))
        grab.flingVelocity = nil
        grab.spin = nil
        grabs[id] = grab
        let resized = grab.side != shapes[i].side
        shapes[i].side = grab.side
        world.moveHeld(body, to: grab.target, rotation: grab.angle, size: resized ? Vec2(grab.side, grab.side) : nil)
    }

    private func poke(_ id: Int) {
        guard let i = index(of: id), grabs[id] == nil, let v = world.velocity(of: shapes[i].body) else { return }
        syncPausedWorld()
        world.setVelocity(Vec2(v.x, min(v.y, 0) - MotionCube.pokeSpeed * scale), of: shapes[i].body)
    }

    // MARK: Exhibit

    public func motion(gravity g: Vec2, altitude: Double?) {
        guard g.isFinite, (g - appliedGravity).length > MotionCube.gravityDeadband else { return }
        appliedGravity = g
        syncPausedWorld()
        gravity.gravityDirection = g * scale
    }

    public func advance(to time: Microseconds) {
        guard time > worldTime else { return }
        let seconds = Double(time - worldTime) / 1_000_000
        worldTime = time
        world.advance(by: seconds)
    }

    /// A sleeping world with no finger down draws nothing new: the kiosk may block.
    public var isAnimating: Bool { !world.isPaused || gestures.touchCount > 0 }

    public func draw(into list: inout [DrawCommand]) -> Color {
        for shape in shapes {
            guard let c = world.center(of: shape.body), let angle = world.rotation(of: shape.body) else { continue }
            let half = shape.side / 2
            switch shape.kind {
            case .circle:
                list.append(.circle(center: c, radius: half, color: shape.color))
            case .square:
                list.append(.rect(Rect(x: -half, y: -half, width: shape.side, height: shape.side),
                                  transform: AffineTransform.rotation(angle).translated(c.x, c.y), color: shape.color))
            }
        }
        return MotionCube.background
    }

    public func state() -> ExhibitState {
        let items = shapes.compactMap { shape -> ItemState? in
            guard let c = world.center(of: shape.body), let angle = world.rotation(of: shape.body) else { return nil }
            return ItemState(id: shape.id, shape: shape.kind.rawValue, center: c, width: shape.side, height: shape.side,
                             rotation: normalizeAngle(angle), color: shape.color)
        }
        return ExhibitState(background: MotionCube.background, items: items, extras: [
            ("gravity", .object([("x", .number(appliedGravity.x)), ("y", .number(appliedGravity.y))])),
            ("held", .array(shapes.filter { grabs[$0.id] != nil }.map { .int($0.id) })),
            ("shapeCap", .int(cap)),
        ])
    }

    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    """
}
