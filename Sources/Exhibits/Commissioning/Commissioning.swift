import Geometry
import Gestures

/// The installers' screen: a dot and its coordinates under every finger, with corner targets
/// to check touch calibration; a bubble level with the screen-frame tilt and the edge that is
/// down; the test pattern (grid, corner markers, an arrow to the portrait top, colour bars);
/// the devices in use; and, in the app, a button to the touch calibration screen.
public final class Commissioning: Exhibit {
    public static let profile = ExhibitProfile(
        name: "commissioning", tileColor: Color(r: 60, g: 60, b: 70), demoTrace: demoTrace, isInstallerScreen: true)

    private let width: Double, height: Double, scale: Double
    private let fonts: FontSet
    private let devices: [String]
    private let homeControl: Rect?
    private var fingers: [Int: Vec2] = [:]
    private var gravity = Vec2(0, 1)
    /// The button that opens the calibration screen; nil where there is no app to open it.
    let calibrateButton: Rect?
    static let fingerColors: [Color] = [Color(rgb: 0xFF453A), Color(rgb: 0x32D74B), Color(rgb: 0x0A84FF),
                                        Color(rgb: 0xFFD60A), Color(rgb: 0xBF5AF2), Color(rgb: 0x64D2FF)]

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = environment.scale
        fonts = environment.fonts
        devices = environment.devices
        homeControl = environment.homeControl
        if let openScreen = environment.openScreen {
            let s = environment.scale, height = Double(environment.height)
            let button = Rect(center: Vec2(width / 2, Self.barTop(height: height, scale: s) - 36 * s), width: 220 * s, height: 44 * s)
            calibrateButton = button
            gestures.add(TapGestureRecognizer(region: button, name: "open \(Calibration.profile.name)") { tap in
                if tap.state == .ended { openScreen(Calibration.exhibitType) }
            })
        } else {
            calibrateButton = nil
        }
    }

    /// The top of the colour bars.
    static func barTop(height: Double, scale: Double) -> Double { (height - 130 * scale).rounded(.down) }

    public func touches(_ frame: TouchFrame) {
        for e in frame.events {
            switch e.phase {
            case .down, .move: fingers[e.slot] = e.position
            case .up, .cancel: fingers[e.slot] = nil
            }
        }
    }

    public func motion(gravity g: Vec2, altitude: Double?) { gravity = g }
    public func advance(to time: Microseconds) {}
    public var isAnimating: Bool { false }

    /// The screen edge gravity points at: what a visitor sees as "down".
    public var downEdge: String {
        if gravity.length < 0.15 { return "flat" }
        if abs(gravity.x) > abs(gravity.y) { return gravity.x > 0 ? "right" : "left" }
        return gravity.y > 0 ? "bottom" : "top"
    }

    private var targets: [Vec2] {
        let m = 40 * scale
        // Under the home control a target could not be touched: it moves just below it.
        let topLeft = homeControl.map { Vec2(m, $0.maxY + m) } ?? Vec2(m, m)
        return [topLeft, Vec2(width - m, m), Vec2(width - m, height - m), Vec2(m, height - m)]
    }

    public func draw(into list: inout [DrawCommand]) -> Color {
        let grid = Color(r: 44, g: 50, b: 58), text = Color(r: 230, g: 232, b: 236)
        let step = 40 * scale
        var x = step
        while x < width { list.append(.line(from: Vec2(x, 0), to: Vec2(x, height), width: 1, color: grid)); x += step }
        var y = step
        while y < height { list.append(.line(from: Vec2(0, y), to: Vec2(width, y), width: 1, color: grid)); y += step }
        // Corner markers on the very edge pixels: a cropped panel shows it at once.
        let l = 28 * scale, w = 3 * scale
        for (cx, sx) in [(0.0, 1.0), (width, -1.0)] {
            for (cy, sy) in [(0.0, 1.0), (height, -1.0)] {
                list.append(.line(from: Vec2(cx, cy + sy * w / 2), to: Vec2(cx + sx * l, cy + sy * w / 2), width: w, color: .white))
                list.append(.line(from: Vec2(cx + sx * w / 2, cy), to: Vec2(cx + sx * w / 2, cy + sy * l), width: w, color: .white))
            }
        }
        for t in targets {
            list.append(.ring(center: t, radius: 14 * scale, lineWidth: 2, color: Color(rgb: 0xFFD60A)))
            list.append(.line(from: t - Vec2(20 * scale, 0), to: t + Vec2(20 * scale, 0), width: 1, color: Color(rgb: 0xFFD60A)))
            list.append(.line(from: t - Vec2(0, 20 * scale), to: t + Vec2(0, 20 * scale), width: 1, color: Color(rgb: 0xFFD60A)))
        }
        // The portrait top.
        let top = 60 * scale, cx = width / 2
        list.append(.polygon([Vec2(cx, top - 40 * scale), Vec2(cx + 26 * scale, top - 8 * scale), Vec2(cx + 9 * scale, top - 8 * scale),
                              Vec2(cx + 9 * scale, top + 26 * scale), Vec2(cx - 9 * scale, top + 26 * scale),
                              Vec2(cx - 9 * scale, top - 8 * scale), Vec2(cx - 26 * scale, top - 8 * scale)], color: .white))
        list.append(fonts.text("TOP", centeredAt: Vec2(cx, top + 50 * scale), size: 18 * scale, bold: true, color: .white))
        // Devices in use, and text the fonts cannot draw.
        var line = top + 86 * scale
        for d in (devices + fonts.coverageProblems.map { $0.screenLine }).prefix(6) {
            list.append(fonts.text(d, centeredAt: Vec2(cx, line), size: 14 * scale, color: text))
            line += 20 * scale
        }
        // Bubble level: the dot shows which way is down, as far out as the tilt is strong.
        let centre = Vec2(cx, height * 0.52), radius = 80 * scale
        list.append(.circle(center: centre, radius: radius, color: Color(r: 28, g: 34, b: 40)))
        list.append(.ring(center: centre, radius: radius, lineWidth: 2, color: text))
        list.append(.ring(center: centre, radius: radius / 2, lineWidth: 1, color: grid))
        let g = gravity.length > 1 ? gravity.normalized : gravity
        list.append(.line(from: centre, to: centre + g * radius, width: 2, color: Color(rgb: 0x32D74B)))
        list.append(.circle(center: centre + g * radius, radius: 10 * scale, color: Color(rgb: 0x32D74B)))
        list.append(fonts.text("tilt (\(Self.fixed(gravity.x)), \(Self.fixed(gravity.y))) g · down: \(downEdge)",
                               centeredAt: Vec2(cx, centre.y + radius + 30 * scale), size: 16 * scale, color: text))
        // Colour bars.
        let bars: [UInt32] = [0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF, 0x000000]
        let barTop = Int(Self.barTop(height: height, scale: scale)), barHeight = Int(40 * scale)
        for (i, rgb) in bars.enumerated() {
            let x0 = Int(Double(i) * width / Double(bars.count)), x1 = Int(Double(i + 1) * width / Double(bars.count))
            list.append(.fillPixels(PixelRect(x: x0, y: barTop, width: x1 - x0, height: barHeight), Color(rgb: rgb)))
        }
        if let button = calibrateButton {
            list.append(.rect(button, transform: .identity, color: Color(r: 44, g: 50, b: 58)))
            list.append(fonts.text("Calibrate touch", centeredAt: button.center, size: 16 * scale, bold: true, color: text))
        }
        // A dot under every finger, with its coordinates.
        for (id, p) in fingers.sorted(by: { $0.key < $1.key }) {
            let color = Self.fingerColors[id % Self.fingerColors.count]
            list.append(.ring(center: p, radius: 30 * scale, lineWidth: 3, color: color))
            list.append(.circle(center: p, radius: 6 * scale, color: color))
            let labelY = p.y - 40 * scale < 20 * scale ? p.y + 56 * scale : p.y - 40 * scale
            list.append(fonts.text("\(Self.pixel(p.x)), \(Self.pixel(p.y))", centeredAt: Vec2(p.x, labelY),
                                   size: 16 * scale, bold: true, color: color))
        }
        return Color(r: 16, g: 20, b: 24)
    }

    /// A touch coordinate as whole pixels; a finger reported far off any screen (a driver's
    /// nonsense) shows as "?" rather than trapping in the conversion.
    static func pixel(_ v: Double) -> String {
        abs(v) <= 1e9 ? String(Int(v.rounded())) : "?"
    }

    static func fixed(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100 + 0.0
        return String(r)
    }

    public func state() -> ExhibitState {
        ExhibitState(background: Color(r: 16, g: 20, b: 24),
                     controls: targets.enumerated().map { ControlState(id: "target.\($0.offset)", frame: Rect(center: $0.element, width: 28 * scale, height: 28 * scale)) }
                        + (calibrateButton.map { [ControlState(id: "calibrate", frame: $0)] } ?? []),
                     extras: [
                        ("fingers", .array(fingers.sorted(by: { $0.key < $1.key }).map {
                            .object([("id", .int($0.key)), ("x", .number($0.value.x)), ("y", .number($0.value.y))])
                        })),
                        ("gravity", .object([("x", .number(gravity.x)), ("y", .number(gravity.y))])),
                        ("downEdge", .string(downEdge)),
                        ("devices", .array(devices.map { .string($0) })),
                     ])
    }

    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":0,"type":"touch","phase":"down","id":0,"x":40,"y":40}
    {"t":600,"type":"touch","phase":"up","id":0,"x":40,"y":40}
    {"t":800,"type":"touch","phase":"down","id":0,"x":440,"y":760}
    {"t":800,"type":"touch","phase":"down","id":1,"x":40,"y":760}
    {"t":1400,"type":"touch","phase":"up","id":0,"x":440,"y":760}
    {"t":1400,"type":"touch","phase":"up","id":1,"x":40,"y":760}
    """
}
