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
    public static let profile = ExhibitProfile(
        name: "motion-cube", tileColor: Color(rgb: 0x5856D6), options: [shapeCap], demoTrace: demoTrace,
        benchScene: .script("shape-pile"))
    /// [exhibits.motion-cube] shape_cap
    public static let shapeCap = ExhibitOption.integer("shape_cap", default: 40, range: 1...500,
                                                      doc: "Most shapes on screen; the oldest leaves when a new one comes.")

    public enum Kind: String, Sendable { case circle, square }

    struct Shape {
        let id: Int
        let body: ItemID
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
    /// Not UIKit's default (none): some grip lets piles come to rest so that the kiosk sleeps.
    public static let friction = 0.5
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
    /// Where shapes live: the screen below the app's controls (the walls are its edges).
    private let area: Rect
    private let cap: Int
    /// The time the world has been advanced to.
    private var worldTime: Microseconds
    private var appliedGravity = Vec2(0, 1)

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = environment.scale
        cap = max(1, environment.options.integer(MotionCube.shapeCap))
        worldTime = environment.startTime
        self.gestures = gestures
        self.random = random
        area = environment.safeArea
        world = DynamicsWorld(bounds: area)
        // The solver's tolerances (slop, sleep speed) are sized for 100 px items.
        world.tuning.lengthUnit = 100 * scale
        collision.translatesReferenceBoundsIntoBoundary = true
        material.elasticity = MotionCube.elasticity
        material.friction = MotionCube.friction
        // A bigger panel has more pixels, not a bigger world: 1 g falls the same fraction of
        // the screen per second at every size.
        gravity.gravityDirection = appliedGravity * scale
        for behavior in [gravity, collision, material] as [DynamicBehavior] { world.addBehavior(behavior) }

        let spawn = TapGestureRecognizer(name: "spawn") { [unowned(unsafe) self] tap in
            if tap.state == .ended { self.spawn(at: tap.location) }
        }
        spawn.shouldReceiveTouch = { [unowned(unsafe) self] point in self.shapeID(at: point) == nil }
        gestures.add(spawn)
        gestures.attachToItems(hitTest: { [unowned(unsafe) self] in self.shapeID(at: $0) },
                               adoptionRadius: MotionCube.adoptionRadius * scale) { [unowned(unsafe) self] id in
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
        let center = Vec2(clamp(point.x, half, width - half), clamp(point.y, area.minY + half, area.maxY - half))
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
        let pan = PanGestureRecognizer(name: "pan shape") { [unowned(unsafe) self] pan in
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
        let pinch = PinchGestureRecognizer(name: "pinch shape") { [unowned(unsafe) self] pinch in
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
        let rotation = RotationGestureRecognizer(name: "rotate shape") { [unowned(unsafe) self] rotation in
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
        let poke = TapGestureRecognizer(name: "poke shape") { [unowned(unsafe) self] tap in
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
        let wasHeld = grabs[id] != nil
        if let existing = grabs[id] {
            grab = existing
        } else {
            guard let c = world.center(of: body), let angle = world.rotation(of: body) else { return }
            grab = Grab(target: c, angle: angle, side: shapes[i].side)
        }
        change(&grab)
        if grab.isLetGo {
            // (A gesture cancelled before it held anything has nothing to let go.)
            guard wasHeld else { return }
            grabs[id] = nil
            world.release(body, velocity: grab.flingVelocity, angularVelocity: grab.spin)
            gravity.addItem(body)
            return
        }
        if !wasHeld {
            world.hold(body)
            // The seed: no gravity while held, collision and elasticity stay.
            gravity.removeItem(body)
        }
        // A target beyond the screen's edge is one the shape can never reach: keep it where
        // the shape can be, so that it follows the finger back at once.
        let half = grab.side / 2
        let extent = shapes[i].kind == .circle ? half : half * (abs(_cos(grab.angle)) + abs(_sin(grab.angle)))
        grab.target = Vec2(clamp(grab.target.x, min(extent, width / 2), max(width - extent, width / 2)),
                           clamp(grab.target.y, min(area.minY + extent, area.center.y), max(area.maxY - extent, area.center.y)))
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

    public var actsOnTapsAnywhere: Bool { true }

    /// Four shapes dropped, one dragged up and pinched bigger while turned (two fingers), let
    /// go onto the others, one more dropped: about 8 s with the attract loop's pause.
    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":0,"type":"touch","phase":"down","id":0,"x":400,"y":300}
    {"t":70,"type":"touch","phase":"up","id":0,"x":400,"y":300}
    {"t":400,"type":"touch","phase":"down","id":0,"x":100,"y":260}
    {"t":470,"type":"touch","phase":"up","id":0,"x":100,"y":260}
    {"t":800,"type":"touch","phase":"down","id":0,"x":220,"y":200}
    {"t":870,"type":"touch","phase":"up","id":0,"x":220,"y":200}
    {"t":1300,"type":"touch","phase":"down","id":0,"x":150,"y":110}
    {"t":1370,"type":"touch","phase":"up","id":0,"x":150,"y":110}
    {"t":3200,"type":"touch","phase":"down","id":0,"x":400,"y":750}
    {"t":3240,"type":"touch","phase":"move","id":0,"x":395.3,"y":725.3}
    {"t":3280,"type":"touch","phase":"move","id":0,"x":390.7,"y":700.7}
    {"t":3320,"type":"touch","phase":"move","id":0,"x":386,"y":676}
    {"t":3360,"type":"touch","phase":"move","id":0,"x":381.3,"y":651.3}
    {"t":3400,"type":"touch","phase":"move","id":0,"x":376.7,"y":626.7}
    {"t":3440,"type":"touch","phase":"move","id":0,"x":372,"y":602}
    {"t":3480,"type":"touch","phase":"move","id":0,"x":367.3,"y":577.3}
    {"t":3520,"type":"touch","phase":"move","id":0,"x":362.7,"y":552.7}
    {"t":3560,"type":"touch","phase":"move","id":0,"x":358,"y":528}
    {"t":3600,"type":"touch","phase":"move","id":0,"x":353.3,"y":503.3}
    {"t":3640,"type":"touch","phase":"move","id":0,"x":348.7,"y":478.7}
    {"t":3680,"type":"touch","phase":"move","id":0,"x":344,"y":454}
    {"t":3720,"type":"touch","phase":"move","id":0,"x":339.3,"y":429.3}
    {"t":3760,"type":"touch","phase":"move","id":0,"x":334.7,"y":404.7}
    {"t":3800,"type":"touch","phase":"move","id":0,"x":330,"y":380}
    {"t":4000,"type":"touch","phase":"down","id":1,"x":372,"y":380}
    {"t":4040,"type":"touch","phase":"move","id":0,"x":328.7,"y":379.4}
    {"t":4040,"type":"touch","phase":"move","id":1,"x":373.3,"y":380.6}
    {"t":4080,"type":"touch","phase":"move","id":0,"x":327.4,"y":378.8}
    {"t":4080,"type":"touch","phase":"move","id":1,"x":374.6,"y":381.2}
    {"t":4120,"type":"touch","phase":"move","id":0,"x":326.1,"y":378.1}
    {"t":4120,"type":"touch","phase":"move","id":1,"x":375.9,"y":381.9}
    {"t":4160,"type":"touch","phase":"move","id":0,"x":324.8,"y":377.4}
    {"t":4160,"type":"touch","phase":"move","id":1,"x":377.2,"y":382.6}
    {"t":4200,"type":"touch","phase":"move","id":0,"x":323.6,"y":376.6}
    {"t":4200,"type":"touch","phase":"move","id":1,"x":378.4,"y":383.4}
    {"t":4240,"type":"touch","phase":"move","id":0,"x":322.4,"y":375.7}
    {"t":4240,"type":"touch","phase":"move","id":1,"x":379.6,"y":384.3}
    {"t":4280,"type":"touch","phase":"move","id":0,"x":321.2,"y":374.7}
    {"t":4280,"type":"touch","phase":"move","id":1,"x":380.8,"y":385.3}
    {"t":4320,"type":"touch","phase":"move","id":0,"x":320,"y":373.7}
    {"t":4320,"type":"touch","phase":"move","id":1,"x":382,"y":386.3}
    {"t":4360,"type":"touch","phase":"move","id":0,"x":318.9,"y":372.7}
    {"t":4360,"type":"touch","phase":"move","id":1,"x":383.1,"y":387.3}
    {"t":4400,"type":"touch","phase":"move","id":0,"x":317.8,"y":371.5}
    {"t":4400,"type":"touch","phase":"move","id":1,"x":384.2,"y":388.5}
    {"t":4440,"type":"touch","phase":"move","id":0,"x":316.8,"y":370.3}
    {"t":4440,"type":"touch","phase":"move","id":1,"x":385.2,"y":389.7}
    {"t":4480,"type":"touch","phase":"move","id":0,"x":315.7,"y":369.1}
    {"t":4480,"type":"touch","phase":"move","id":1,"x":386.3,"y":390.9}
    {"t":4520,"type":"touch","phase":"move","id":0,"x":314.8,"y":367.8}
    {"t":4520,"type":"touch","phase":"move","id":1,"x":387.2,"y":392.2}
    {"t":4560,"type":"touch","phase":"move","id":0,"x":313.8,"y":366.4}
    {"t":4560,"type":"touch","phase":"move","id":1,"x":388.2,"y":393.6}
    {"t":4600,"type":"touch","phase":"move","id":0,"x":313,"y":365}
    {"t":4600,"type":"touch","phase":"move","id":1,"x":389,"y":395}
    {"t":4640,"type":"touch","phase":"move","id":0,"x":312.1,"y":363.6}
    {"t":4640,"type":"touch","phase":"move","id":1,"x":389.9,"y":396.4}
    {"t":4680,"type":"touch","phase":"move","id":0,"x":311.3,"y":362.1}
    {"t":4680,"type":"touch","phase":"move","id":1,"x":390.7,"y":397.9}
    {"t":4720,"type":"touch","phase":"move","id":0,"x":310.6,"y":360.5}
    {"t":4720,"type":"touch","phase":"move","id":1,"x":391.4,"y":399.5}
    {"t":4760,"type":"touch","phase":"move","id":0,"x":309.9,"y":358.9}
    {"t":4760,"type":"touch","phase":"move","id":1,"x":392.1,"y":401.1}
    {"t":4800,"type":"touch","phase":"move","id":0,"x":309.3,"y":357.2}
    {"t":4800,"type":"touch","phase":"move","id":1,"x":392.7,"y":402.8}
    {"t":5000,"type":"touch","phase":"up","id":0,"x":309.3,"y":357.2}
    {"t":5000,"type":"touch","phase":"up","id":1,"x":392.7,"y":402.8}
    {"t":6000,"type":"touch","phase":"down","id":0,"x":380,"y":150}
    {"t":6070,"type":"touch","phase":"up","id":0,"x":380,"y":150}
    """
}
