import Dynamics
import Geometry
import Gestures
import Raster
import VisitorText

/// Seed 002: Newton's cradle on the dynamics engine, built as the seed builds it: five balls
/// on rigid attachments to a top bar, nearly touching, one collision behavior for the balls,
/// an item behavior with elasticity 1, no rotation and little resistance, gravity down.
/// Panning a ball pushes it with a continuous force of `translation.x / 10` (UIKit push
/// units); letting go removes the push and the ball swings.
///
/// Two changes from the seed, both so that it behaves like a real cradle on a narrow portrait
/// screen: the balls are heavy steel (a 100 px drag lifts one about 34°, not to the horizontal,
/// and the push is capped at the force that holds one ball at 38°, which keeps every swing on
/// screen), and while a finger pushes a ball its resistance is high (a hand holding a ball
/// does not let it oscillate about the finger), back to the low value on release.
public final class NewtonsCradle: Exhibit {
    /// The demo's touches follow the cradle: scaled like it and centred across the width.
    public static let profile = ExhibitProfile(
        name: "newtons-cradle", tileColor: Color(r: 90, g: 100, b: 120), demoTrace: demoTrace,
        demoPlacement: .uniformFromTop, benchScene: .demo(release: 1, what: "one ball pulled out and let go"))

    public static let ballCount = 5
    // Sizes at 480 px wide.
    static let radius = 24.0
    static let gap = 0.5
    static let stringLength = 190.0
    static let barY = 280.0
    /// Linear damping (1/s): a swing keeps most of its height for well over 10 s.
    public static let swingResistance = 0.04
    /// Linear damping while a finger pushes the ball (about critical for the pendulum).
    static let gripResistance = 4.0
    /// tan of the largest angle the push can hold a single ball at.
    static let maximumLiftSlope = 0.78
    /// Ball mass relative to a 100×100 item of density 1: sets how far a drag lifts a ball.
    static let massRatio = 1.5

    static let ballColor = Color(rgb: 0x8A929C)
    static let ballShade = Color(rgb: 0xB9C0C8)
    static let ballHighlight = Color(rgb: 0xF2F4F7)
    static let stringColor = Color(rgb: 0x3A3F47)
    static let frameColor = Color(rgb: 0x4B3A2E)
    static let frameLight = Color(rgb: 0x6E5646)
    static let background = Color(rgb: 0xE9E6DF)

    public let world: DynamicsWorld
    public private(set) var balls: [ItemID] = []
    public private(set) var anchors: [Vec2] = []
    private var materials: [ItemBehavior] = []
    private var pushes: [PushBehavior?]
    private var now: Microseconds
    private let width: Double, height: Double, scale: Double
    public let radius: Double
    public let stringLength: Double
    private let fonts: FontSet
    private let text: TextBook
    private let legibleTextSize: Double
    /// The instruction's box: under the base, across the screen.
    private let instructionBox: Rect

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = NewtonsCradle.layoutScale(width: environment.width, height: environment.height)
        now = environment.startTime
        radius = NewtonsCradle.radius * scale
        stringLength = NewtonsCradle.stringLength * scale
        pushes = Array(repeating: nil, count: NewtonsCradle.ballCount)
        fonts = environment.fonts
        text = environment.text
        legibleTextSize = environment.legibleTextSize
        let margin = (16 * environment.scale).rounded()
        let instructionTop = ((NewtonsCradle.barY + NewtonsCradle.stringLength + NewtonsCradle.radius + 70 + 22 + 24) * scale).rounded()
        instructionBox = Rect(x: margin, y: instructionTop, width: width - 2 * margin,
                              height: max(1, height - instructionTop - margin))
        world = DynamicsWorld(bounds: Rect(x: 0, y: 0, width: width, height: height))

        let spacing = 2 * radius + NewtonsCradle.gap * scale
        let gravity = GravityBehavior()
        // Gravity scales with the screen so that the cradle looks and times the same at any size.
        gravity.magnitude = scale
        let collision = CollisionBehavior()
        // The balls collide with each other; the screen edges are only a backstop.
        collision.translatesReferenceBoundsIntoBoundary = true
        // Mass independent of the screen size, so the same drag (in 480-wide pixels) lifts a
        // ball to the same angle at any size.
        let density = NewtonsCradle.massRatio * 10_000 / (Double.pi * NewtonsCradle.radius * NewtonsCradle.radius) / (scale * scale)
        for i in 0..<NewtonsCradle.ballCount {
            let anchor = Vec2(width / 2 + Double(i - NewtonsCradle.ballCount / 2) * spacing, NewtonsCradle.barY * scale)
            let ball = world.addItem(.circle(radius: radius), center: anchor + Vec2(0, stringLength))
            let material = ItemBehavior(items: [ball])
            material.elasticity = 1
            material.allowsRotation = false
            material.resistance = NewtonsCradle.swingResistance
            material.density = density
            gravity.addItem(ball)
            collision.addItem(ball)
            world.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: anchor))
            world.addBehavior(material)
            balls.append(ball); anchors.append(anchor); materials.append(material)
        }
        world.addBehavior(gravity)
        world.addBehavior(collision)

        gestures.attachToItems(hitTest: { [unowned(unsafe) self] p in self.ball(at: p) }) { [unowned(unsafe) self] index in
            [PanGestureRecognizer(name: "push ball \(index)") { [unowned(unsafe) self] pan in self.push(index, pan) }]
        }
    }

    /// The ball under the finger (the nearest one; a little slack, balls nearly touch anyway).
    private func ball(at p: Vec2) -> Int? {
        var best: (index: Int, distance: Double)?
        for (i, id) in balls.enumerated() {
            guard let c = world.center(of: id) else { continue }
            let d = c.distance(to: p)
            if d <= radius * 1.25, best == nil || d < best!.distance { best = (i, d) }
        }
        return best?.index
    }

    /// The seed's handler: a continuous push proportional to the horizontal translation.
    private func push(_ index: Int, _ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            if let old = pushes[index] { world.removeBehavior(old) }
            let push = PushBehavior(items: [balls[index]], mode: .continuous)
            pushes[index] = push
            world.addBehavior(push)
            materials[index].resistance = NewtonsCradle.gripResistance
            fallthrough
        case .changed:
            let limit = NewtonsCradle.maximumLiftSlope * NewtonsCradle.massRatio * 10 * scale
            let x = pan.translation.x / 10
            pushes[index]?.pushDirection = Vec2(min(max(x, -limit), limit), 0)
        case .ended, .cancelled:
            if let push = pushes[index] { world.removeBehavior(push) }
            pushes[index] = nil
            materials[index].resistance = NewtonsCradle.swingResistance
        default:
            break
        }
    }

    public func motion(gravity: Vec2, altitude: Double?) {}

    public func advance(to time: Microseconds) {
        guard time > now else { return }
        let seconds = Double(time - now) / 1_000_000
        now = time
        world.advance(by: seconds)
    }

    /// The world pauses once every ball sleeps (the cradle has come to rest, nobody pushing).
    public var isAnimating: Bool { !world.isPaused }

    // MARK: output

    public func draw(into list: inout [DrawCommand]) -> Color {
        let s = scale
        let barY = NewtonsCradle.barY * s
        let halfSpan = 2 * (2 * radius) + 90 * s
        let left = width / 2 - halfSpan, right = width / 2 + halfSpan
        let baseY = barY + stringLength + radius + 70 * s
        // The frame stands behind the balls (its rails are in another plane, as on a real
        // cradle), so posts and balls may overlap on screen.
        list.append(.rect(Rect(x: left - 30 * s, y: baseY, width: right - left + 60 * s, height: 22 * s),
                          transform: .identity, color: NewtonsCradle.frameColor))
        list.append(.rect(Rect(x: left - 30 * s, y: baseY, width: right - left + 60 * s, height: 5 * s),
                          transform: .identity, color: NewtonsCradle.frameLight))
        for x in [left, right] {
            list.append(.rect(Rect(x: x - 6 * s, y: barY - 8 * s, width: 12 * s, height: baseY - barY + 8 * s),
                              transform: .identity, color: NewtonsCradle.frameColor))
        }
        list.append(.rect(Rect(x: left - 10 * s, y: barY - 14 * s, width: right - left + 20 * s, height: 14 * s),
                          transform: .identity, color: NewtonsCradle.frameColor))
        list.append(.rect(Rect(x: left - 10 * s, y: barY - 14 * s, width: right - left + 20 * s, height: 4 * s),
                          transform: .identity, color: NewtonsCradle.frameLight))
        list.append(fonts.text(text[TextKey.instruction(NewtonsCradle.profile.name)], in: instructionBox,
                               size: max(20 * scale, legibleTextSize), minimumSize: legibleTextSize, alignment: .center,
                               vertical: .center, language: text.current.code, color: Color(rgb: 0x5A5650)))
        let centers = balls.map { world.center(of: $0) ?? .zero }
        for (anchor, c) in zip(anchors, centers) {
            list.append(.line(from: anchor, to: c, width: 1.5 * s, color: NewtonsCradle.stringColor))
        }
        // Shaded steel: body, a lighter upper-left, a highlight.
        for c in centers {
            list.append(.circle(center: c, radius: radius, color: NewtonsCradle.ballColor))
            list.append(.circle(center: c + Vec2(-0.14, -0.14) * radius, radius: radius * 0.78, color: NewtonsCradle.ballShade))
            list.append(.circle(center: c + Vec2(-0.36, -0.36) * radius, radius: radius * 0.24, color: NewtonsCradle.ballHighlight))
        }
        return NewtonsCradle.background
    }

    public func state() -> ExhibitState {
        let items = balls.enumerated().map { i, id in
            ItemState(id: i, shape: "circle", center: world.center(of: id) ?? .zero, width: 2 * radius, height: 2 * radius,
                      color: NewtonsCradle.ballColor)
        }
        return ExhibitState(
            background: NewtonsCradle.background, items: items,
            extras: [
                ("anchors", .array(anchors.map { .object([("x", .number($0.x)), ("y", .number($0.y))]) })),
                ("stringLength", .number(stringLength)),
                ("pushing", .array(pushes.indices.filter { pushes[$0] != nil }.map { .int($0) })),
            ])
    }

    /// The cradle is drawn for 480×800 and scaled by the smaller of the two ratios, so that
    /// on a square or 3:4 panel it hangs wholly on screen with its instruction (scaling by the
    /// width alone put the balls below a 720×720 screen); it stays centred across the width.
    static func layoutScale(width: Int, height: Int) -> Double {
        min(Double(width) / 480, Double(height) / 800)
    }

    /// Pull the left ball out and let go; later pull two from the right.
    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":500,"type":"touch","phase":"down","id":0,"x":143,"y":470}
    {"t":600,"type":"touch","phase":"move","id":0,"x":123,"y":470}
    {"t":700,"type":"touch","phase":"move","id":0,"x":93,"y":468}
    {"t":800,"type":"touch","phase":"move","id":0,"x":63,"y":466}
    {"t":900,"type":"touch","phase":"move","id":0,"x":43,"y":465}
    {"t":2200,"type":"touch","phase":"up","id":0,"x":43,"y":465}
    {"t":9000,"type":"touch","phase":"down","id":0,"x":288,"y":470}
    {"t":9100,"type":"touch","phase":"move","id":0,"x":308,"y":470}
    {"t":9200,"type":"touch","phase":"move","id":0,"x":338,"y":468}
    {"t":9300,"type":"touch","phase":"move","id":0,"x":368,"y":466}
    {"t":9400,"type":"touch","phase":"move","id":0,"x":388,"y":465}
    {"t":10700,"type":"touch","phase":"up","id":0,"x":388,"y":465}
    """
}
