import Geometry
import Gestures

/// Seed 001: a square inside four coloured borders, moved by tilting the stand. The filtered
/// gravity integrates into velocity on a fixed 1/120 s tick (deterministic whatever the frame
/// rate); the square never crosses a border and takes the colour of the one it touches. Double
/// tap or a long press toggles square ↔ circle, a shake paints the background, a finger can
/// drag it, and with a barometer (option on) the background is a grey that darkens with height.
///
/// The box behaves like a puck on a tilted table: it starts moving only once the tilt beats
/// static friction, slows by damping and a little kinetic friction, and bounces softly off the
/// borders. When it rests (no tilt, or pressed into a border by the tilt) it stops ticking, so
/// the kiosk sleeps until the tilt changes.
public final class TiltBox: Exhibit {
    public static let profile = ExhibitProfile(
        name: "tilt-box", tileColor: Color(r: 200, g: 70, b: 60), options: [altitudeGrey], demoTrace: demoTrace,
        benchScene: .demo(release: 3, what: "dragged up and dropped"))
    /// [exhibits.tilt-box] altitude_grey
    public static let altitudeGrey = ExhibitOption.boolean("altitude_grey", default: false,
                                                          doc: "With a barometer, the background grey follows the altitude (higher is darker).")

    public enum Edge: String, CaseIterable, Sendable { case top, right, bottom, left }

    public static let borderColors: [Edge: Color] = [
        .top: Color(rgb: 0x007AFF), .right: Color(rgb: 0x34C759),
        .bottom: Color(rgb: 0xFF9500), .left: Color(rgb: 0xAF52DE),
    ]
    public static let startColor = Color(rgb: 0xFF3B30)
    public static let startBackground = Color(rgb: 0xF2F2F7)
    public static let tick: Microseconds = 1_000_000 / 120

    // Table physics, in g (1 g = 1000 px/s² at 480 px wide, scaled with the screen).
    static let staticFriction = 0.03
    static let kineticFriction = 0.02
    /// Velocity damping, 1/s.
    static let damping = 1.5
    /// Share of the normal speed kept when bouncing off a border; slower hits just stop.
    static let restitution = 0.3
    static let minimumBounceSpeed = 80.0   // px/s at 480 wide
    /// Altitude range mapped onto light … dark grey (metres relative to start).
    static let altitudeRange = 10.0
    static let lightGrey = 235.0, darkGrey = 70.0

    public private(set) var center: Vec2
    public private(set) var velocity = Vec2.zero
    public private(set) var isCircle = false
    public private(set) var color = TiltBox.startColor
    public private(set) var lastTouched: Edge? = nil
    public private(set) var isHeld = false
    public private(set) var shakeColor: Color? = nil
    public private(set) var shakes = 0
    public private(set) var toggles = 0
    private var gravity = Vec2.zero
    private var altitude: Double? = nil
    private var resting = false
    private var now: Microseconds
    private var lastTick: Microseconds
    private var dragStart = Vec2.zero
    private var random: SeededGenerator
    /// The box and its borders: the safe area, so the box never passes under the home control.
    private let area: Rect
    private let scale: Double
    private let altitudeGrey: Bool
    public let border: Double
    public let side: Double

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        area = Rect(x: environment.safeArea.minX, y: environment.safeArea.minY.rounded(),
                    width: environment.safeArea.width, height: environment.safeArea.maxY - environment.safeArea.minY.rounded())
        scale = environment.scale
        border = (20 * scale).rounded()
        side = 100 * scale
        altitudeGrey = environment.options.boolean(TiltBox.altitudeGrey)
        now = environment.startTime
        lastTick = now
        self.random = random
        center = area.center
        gestures.attachToItems(hitTest: { [unowned(unsafe) self] p in self.contains(p) ? 0 : nil }) { [unowned(unsafe) self] _ in
            let doubleTap = TapGestureRecognizer(name: "toggle (double tap)") { [unowned(unsafe) self] tap in
                if tap.state == .ended { self.toggleShape() }
            }
            doubleTap.numberOfTapsRequired = 2
            // Force touch stand-in. It and the double tap share touches, so whichever is
            // recognized first makes the other fail: never both for one gesture.
            let longPress = LongPressGestureRecognizer(name: "toggle (long press)") { [unowned(unsafe) self] press in
                if press.state == .began { self.toggleShape() }
            }
            let pan = PanGestureRecognizer(name: "drag") { [unowned(unsafe) self] pan in self.drag(pan) }
            // Holding still long enough to toggle, then moving, still drags.
            pan.recognizeSimultaneously(with: longPress)
            return [doubleTap, longPress, pan]
        }
    }

    // MARK: geometry

    /// Where the centre may go: the box stays wholly inside the borders.
    private var limits: (min: Vec2, max: Vec2) {
        let h = side / 2
        return (Vec2(area.minX + border + h, area.minY + border + h), Vec2(area.maxX - border - h, area.maxY - border - h))
    }

    /// Fingers are wider than the pointer UIKit was designed for: a little slack around the box.
    private func contains(_ p: Vec2) -> Bool {
        let slack = 8 * scale, h = side / 2
        if isCircle { return p.distance(to: center) <= h + slack }
        return abs(p.x - center.x) <= h + slack && abs(p.y - center.y) <= h + slack
    }

    // MARK: gestures

    private func toggleShape() {
        isCircle.toggle()
        toggles += 1
    }

    private func drag(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            isHeld = true
            velocity = .zero
            dragStart = center
            fallthrough
        case .changed:
            let (lo, hi) = limits
            let target = dragStart + pan.translation
            let clamped = Vec2(min(max(target.x, lo.x), hi.x), min(max(target.y, lo.y), hi.y))
            // Pressed against a border by the finger: it touches it, so it takes its colour.
            if target.x < lo.x { touch(.left) } else if target.x > hi.x { touch(.right) }
            if target.y < lo.y { touch(.top) } else if target.y > hi.y { touch(.bottom) }
            center = clamped
        case .ended, .cancelled:
            isHeld = false
            // Let go: it keeps the finger's velocity (a fling), capped to something sane.
            var v = pan.state == .ended ? pan.velocity : .zero
            let cap = 2500 * scale
            if v.length > cap { v = v * (cap / v.length) }
            velocity = v.isFinite ? v : .zero
            wake()
        default:
            break
        }
    }

    private func touch(_ edge: Edge) {
        lastTouched = edge
        color = TiltBox.borderColors[edge]!
    }

    // MARK: sensors

    public func motion(gravity g: Vec2, altitude a: Double?) {
        gravity = g.isFinite ? g : .zero
        altitude = a.flatMap { $0.isFinite ? $0 : nil }
        if resting && !isHeld && effectiveTilt().length > TiltBox.staticFriction { wake() }
    }

    public func shake() {
        shakes += 1
        // Always drawn from the stream, also while the altitude grey hides it, so the colours a
        // visitor sees do not depend on whether a barometer exists.
        shakeColor = randomColor(differentFrom: shakeColor ?? TiltBox.startBackground)
    }

    /// A light, saturated-enough colour so the box and the borders stay readable on it.
    private func randomColor(differentFrom previous: Color) -> Color {
        while true {
            let hue = random.unit() * 6, saturation = 0.25 + 0.45 * random.unit(), value = 0.8 + 0.2 * random.unit()
            let c = TiltBox.hsv(hue, saturation, value)
            let d = abs(Int(c.r) - Int(previous.r)) + abs(Int(c.g) - Int(previous.g)) + abs(Int(c.b) - Int(previous.b))
            if d > 60 { return c }
        }
    }

    static func hsv(_ h: Double, _ s: Double, _ v: Double) -> Color {
        let i = Int(h) % 6, f = h - Double(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (Double, Double, Double)
        switch i {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        func byte(_ x: Double) -> UInt8 { UInt8(min(max((x * 255).rounded(), 0), 255)) }
        return Color(r: byte(r), g: byte(g), b: byte(b))
    }

    /// The background: the altitude grey when it is on and a barometer reports (it wins over a
    /// shake's colour: the technician made the background an altimeter, and a shake must not
    /// make it lie), otherwise the last shake's colour, otherwise the start colour.
    public var background: Color {
        if altitudeGrey, let a = altitude {
            let f = (min(max(a, -TiltBox.altitudeRange), TiltBox.altitudeRange) + TiltBox.altitudeRange) / (2 * TiltBox.altitudeRange)
            let level = UInt8((TiltBox.lightGrey + (TiltBox.darkGrey - TiltBox.lightGrey) * f).rounded())
            return Color(r: level, g: level, b: level)
        }
        return shakeColor ?? TiltBox.startBackground
    }

    private var backgroundSource: String {
        if altitudeGrey, altitude != nil { return "altitude" }
        return shakeColor != nil ? "shake" : "start"
    }

    // MARK: time

    /// The tilt minus what the borders the box is pressed against take up.
    private func effectiveTilt() -> Vec2 {
        var a = gravity
        let (lo, hi) = limits
        if center.x <= lo.x && a.x < 0 || center.x >= hi.x && a.x > 0 { a.x = 0 }
        if center.y <= lo.y && a.y < 0 || center.y >= hi.y && a.y > 0 { a.y = 0 }
        return a
    }

    private func wake() {
        guard resting else { return }
        resting = false
        // Time spent resting is not owed to the simulation.
        lastTick = now
    }

    public func advance(to time: Microseconds) {
        guard time > now else { return }
        now = time
        if resting || isHeld {
            lastTick = now
            return
        }
        // A stalled frame (or a long pause) is not caught up beyond half a second.
        if now - lastTick > 500_000 { lastTick = now - 500_000 }
        while lastTick + TiltBox.tick <= now, !resting {
            lastTick += TiltBox.tick
            step(dt: Double(TiltBox.tick) / 1_000_000)
        }
    }

    private func step(dt: Double) {
        let unit = 1000 * scale
        let tilt = effectiveTilt()
        if velocity == .zero && tilt.length <= TiltBox.staticFriction {
            resting = true
            return
        }
        var v = velocity + tilt * (unit * dt)
        v = v * (1 / (1 + TiltBox.damping * dt))
        let speed = v.length, friction = TiltBox.kineticFriction * unit * dt
        v = speed <= friction ? .zero : v * ((speed - friction) / speed)
        var p = center + v * dt
        let (lo, hi) = limits
        let minimumBounce = TiltBox.minimumBounceSpeed * scale
        // A corner hit touches two borders: the one met harder is the one it takes the colour of.
        var hits: [(edge: Edge, speed: Double)] = []
        func bounce(_ component: inout Double) {
            component = abs(component) > minimumBounce ? -component * TiltBox.restitution : 0
        }
        if p.x < lo.x { p.x = lo.x; if v.x < 0 { hits.append((.left, -v.x)); bounce(&v.x) } }
        if p.x > hi.x { p.x = hi.x; if v.x > 0 { hits.append((.right, v.x)); bounce(&v.x) } }
        if p.y < lo.y { p.y = lo.y; if v.y < 0 { hits.append((.top, -v.y)); bounce(&v.y) } }
        if p.y > hi.y { p.y = hi.y; if v.y > 0 { hits.append((.bottom, v.y)); bounce(&v.y) } }
        if let hardest = hits.max(by: { $0.speed < $1.speed }) { touch(hardest.edge) }
        center = p
        velocity = v
        if velocity == .zero && effectiveTilt().length <= TiltBox.staticFriction { resting = true }
    }

    /// Moving on its own (not resting, not held: a held box only moves with the finger).
    public var isAnimating: Bool { !resting && !isHeld }

    // MARK: output

    private var borderRects: [(Edge, PixelRect)] {
        let x = Int(area.minX), y = Int(area.minY), w = Int(area.width), h = Int(area.height), b = Int(border)
        return [(.top, PixelRect(x: x, y: y, width: w, height: b)),
                (.right, PixelRect(x: x + w - b, y: y + b, width: b, height: h - 2 * b)),
                (.bottom, PixelRect(x: x, y: y + h - b, width: w, height: b)),
                (.left, PixelRect(x: x, y: y + b, width: b, height: h - 2 * b))]
    }

    public func draw(into list: inout [DrawCommand]) -> Color {
        for (edge, r) in borderRects { list.append(.fillPixels(r, TiltBox.borderColors[edge]!)) }
        // A darker rim keeps the box readable when it has taken the colour of the border it
        // sits against.
        let rim = 2 * scale
        let dark = Color(r: UInt8(Double(color.r) * 0.7), g: UInt8(Double(color.g) * 0.7), b: UInt8(Double(color.b) * 0.7))
        if isCircle {
            list.append(.circle(center: center, radius: side / 2, color: dark))
            list.append(.circle(center: center, radius: side / 2 - rim, color: color))
        } else {
            list.append(.rect(Rect(center: center, width: side, height: side), transform: .identity, color: dark))
            list.append(.rect(Rect(center: center, width: side - 2 * rim, height: side - 2 * rim), transform: .identity, color: color))
        }
        return background
    }

    public func state() -> ExhibitState {
        ExhibitState(
            background: background,
            items: [ItemState(id: 0, shape: isCircle ? "circle" : "square", center: center, width: side, height: side,
                              color: color)],
            extras: [
                ("area", .object([("x", .number(area.minX)), ("y", .number(area.minY)),
                                  ("width", .number(area.width)), ("height", .number(area.height))])),
                ("borders", .array(Edge.allCases.map { e in
                    .object([("edge", .string(e.rawValue)), ("color", .string(TiltBox.borderColors[e]!.hex))])
                })),
                ("touching", lastTouched.map { .string($0.rawValue) } ?? .null),
                ("held", .bool(isHeld)),
                ("resting", .bool(resting)),
                ("backgroundSource", .string(backgroundSource)),
                ("shakes", .int(shakes)),
            ])
    }

    public var actsOnTapsAnywhere: Bool { true }

    /// Without an accelerometer (previews, CI) gravity points down, so the box rests on the
    /// bottom border: the demo works there. Double tap it, drag it up and let it fall, hold it.
    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":1500,"type":"touch","phase":"down","id":0,"x":240,"y":730}
    {"t":1560,"type":"touch","phase":"up","id":0,"x":240,"y":730}
    {"t":1740,"type":"touch","phase":"down","id":0,"x":240,"y":730}
    {"t":1800,"type":"touch","phase":"up","id":0,"x":240,"y":730}
    {"t":3000,"type":"touch","phase":"down","id":0,"x":240,"y":730}
    {"t":3100,"type":"touch","phase":"move","id":0,"x":230,"y":680}
    {"t":3200,"type":"touch","phase":"move","id":0,"x":210,"y":600}
    {"t":3300,"type":"touch","phase":"move","id":0,"x":190,"y":500}
    {"t":3400,"type":"touch","phase":"move","id":0,"x":180,"y":400}
    {"t":3500,"type":"touch","phase":"move","id":0,"x":180,"y":300}
    {"t":3900,"type":"touch","phase":"up","id":0,"x":180,"y":300}
    {"t":6000,"type":"touch","phase":"down","id":0,"x":180,"y":730}
    {"t":6800,"type":"touch","phase":"up","id":0,"x":180,"y":730}
    """
}
