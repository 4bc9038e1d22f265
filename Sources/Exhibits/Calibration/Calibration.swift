import Diagnostics
import Geometry
import Gestures
import Platform

/// The installers' touch calibration: four targets near the corners, touched in turn. From
/// where the touches landed the matrix that puts them onto the targets is fitted (through
/// the panel's present calibration and rotation, so the result is a `[touch] calibration`
/// line for the configuration file) and shown live: a ring where each finger is reported,
/// a dot where the new calibration would put it. Touching after the fourth target starts
/// again once the result has been seen for a moment (a long press anywhere).
public final class Calibration: Exhibit {
    public static let profile = ExhibitProfile(
        name: "calibration", tileColor: Color(r: 60, g: 70, b: 60), demoTrace: demoTrace, isInstallerScreen: true)

    private let width: Double, height: Double, scale: Double
    private let fonts: FontSet
    private let panel: TouchPanel?
    private let log: Log
    /// The portrait targets, in the order they are asked for.
    public let targets: [Vec2]
    /// Where the touch for each target landed so far (the finger's last point before it lifted).
    public private(set) var touched: [Vec2] = []
    /// The fitted calibration once all four are touched (nil when the four points do not
    /// determine one, or before).
    public private(set) var result: TouchCalibration?
    /// How far (px) the best fit may leave a touched target: 2 % of the shorter side, about
    /// 2 mm on a 7-inch panel.
    var disagreement: Double { max(8, 0.02 * min(width, height)) }
    /// Observed portrait point → corrected portrait point, for the live preview.
    private var correction: AffineTransform?
    private var fingers: [Int: Vec2] = [:]
    /// Fingers down when the screen started again (the long press): their lifting is no target's touch.
    private var liftsIgnored: Set<Int> = []
    private var restartPress: LongPressGestureRecognizer?

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = environment.scale
        fonts = environment.fonts
        panel = environment.touchPanel
        log = environment.log
        targets = Self.targets(width: width, height: height, below: environment.homeControl)
        let press = LongPressGestureRecognizer(region: Rect(x: 0, y: 0, width: width, height: height), name: "calibration.again") {
            [unowned(unsafe) self] p in
            if p.state == .began && self.correction != nil { self.startAgain() }
        }
        press.minimumPressDuration = 2_000_000
        gestures.add(press)
        restartPress = press
    }

    /// 12 % in from each edge (a panel is least accurate at its edges, but a fit needs
    /// spread); the top-left one below the home control.
    static func targets(width: Double, height: Double, below home: Rect?) -> [Vec2] {
        let mx = (width * 0.12).rounded(), my = (height * 0.12).rounded()
        let top = max(my, (home?.maxY ?? 0) + mx)
        return [Vec2(mx, top), Vec2(width - mx, top), Vec2(width - mx, height - my), Vec2(mx, height - my)]
    }

    public func touches(_ frame: TouchFrame) {
        for e in frame.events {
            switch e.phase {
            case .down, .move: fingers[e.slot] = e.position
            case .cancel: fingers[e.slot] = nil; liftsIgnored.remove(e.slot)
            case .up:
                fingers[e.slot] = nil
                if liftsIgnored.remove(e.slot) != nil { continue }
                if touched.count < targets.count {
                    touched.append(e.position)
                    if touched.count == targets.count { fit() }
                }
            }
        }
    }

    private func fit() {
        guard let k = TouchCalibration.fit(from: touched, to: targets) else {
            log.warning("calibration: the four touches do not determine a calibration; touch the targets again")
            touched.removeAll()
            return
        }
        // A panel's error is (near enough) affine, so four honest touches agree with one map;
        // a slipped finger or a target touched out of turn does not, and its fit would put
        // every touch off. One touch e px astray leaves about e/4 at each target.
        let misses = zip(touched, targets).map { k.apply($0).distance(to: $1) }
        if let worst = misses.indices.max(by: { misses[$0] < misses[$1] }), misses[worst] > disagreement {
            log.warning("calibration: the four touches do not agree (target \(worst + 1) lands \(Int(min(misses[worst], 100_000).rounded())) px "
                        + "from the best fit); touch the targets again")
            touched.removeAll()
            return
        }
        correction = k
        if let panel { result = panel.calibration.recalibrated(observed: touched, targets: targets, screen: panel.screen) }
        if let line = result?.configLine { log.info("calibration: [touch] \(line)") }
    }

    private func startAgain() {
        liftsIgnored = Set(fingers.keys)
        touched.removeAll()
        correction = nil
        result = nil
    }

    /// The line for the configuration's [touch] table, once fitted.
    public var configLine: String? { result?.configLine }

    public func motion(gravity: Vec2, altitude: Double?) {}
    public func advance(to time: Microseconds) {}
    public var isAnimating: Bool { false }

    public func draw(into list: inout [DrawCommand]) -> Color {
        let text = Color(r: 230, g: 232, b: 236), dim = Color(r: 90, g: 96, b: 104), yellow = Color(rgb: 0xFFD60A)
        for (i, t) in targets.enumerated() {
            let current = i == touched.count
            let color = current ? yellow : dim
            list.append(.ring(center: t, radius: (current ? 18 : 12) * scale, lineWidth: 2, color: color))
            list.append(.line(from: t - Vec2(26 * scale, 0), to: t + Vec2(26 * scale, 0), width: 1, color: color))
            list.append(.line(from: t - Vec2(0, 26 * scale), to: t + Vec2(0, 26 * scale), width: 1, color: color))
            if i < touched.count { list.append(.circle(center: touched[i], radius: 4 * scale, color: Color(rgb: 0xFF453A))) }
        }
        let cx = width / 2
        var y = height * 0.42
        let message: String
        if correction == nil {
            message = "Touch the centre of target \(touched.count + 1) of \(targets.count)"
        } else {
            message = "Done: rings are touches as reported, dots as calibrated. Hold 2 s to start again."
        }
        list.append(fonts.text(message, centeredAt: Vec2(cx, y), size: 16 * scale, bold: true, color: text))
        y += 28 * scale
        if let line = configLine {
            list.append(fonts.text("[touch]", centeredAt: Vec2(cx, y), size: 14 * scale, color: text))
            list.append(fonts.text(line, centeredAt: Vec2(cx, y + 22 * scale), size: 12 * scale, color: text))
        }
        for (id, p) in fingers.sorted(by: { $0.key < $1.key }) {
            let color = Commissioning.fingerColors[id % Commissioning.fingerColors.count]
            list.append(.ring(center: p, radius: 24 * scale, lineWidth: 2, color: color))
            if let k = correction { list.append(.circle(center: k.apply(p), radius: 7 * scale, color: color)) }
        }
        return Color(r: 16, g: 24, b: 20)
    }

    public func state() -> ExhibitState {
        func point(_ p: Vec2) -> JSONValue { .object([("x", .number(p.x)), ("y", .number(p.y))]) }
        var extras: [(String, JSONValue)] = [("touched", .array(touched.map(point)))]
        if let m = result?.matrix { extras.append(("calibration", .array(TouchCalibration.libinputValues(m).map { .number($0) }))) }
        return ExhibitState(background: Color(r: 16, g: 24, b: 20),
                            controls: targets.enumerated().map {
                                ControlState(id: "target.\($0.offset)", frame: Rect(center: $0.element, width: 36 * scale, height: 36 * scale),
                                             selected: $0.offset < touched.count)
                            },
                            extras: extras)
    }

    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":0,"type":"touch","phase":"down","id":0,"x":58,"y":150}
    {"t":300,"type":"touch","phase":"up","id":0,"x":58,"y":150}
    """
}
