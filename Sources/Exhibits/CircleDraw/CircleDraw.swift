import Dynamics
import Geometry
import Gestures
import Raster
import VisitorText

/// Seed 003: draw coloured circles, delete them, fling them about.
///
/// Three modes, chosen from a bar at the bottom (clear of the home control, top-left):
/// - Draw: a finger down sets the centre, the radius follows the finger (a ring while drawn,
///   a disc once the finger lifts), in the colour chosen from the menu above the bar.
/// - Delete: a finger down removes every circle containing that point.
/// - Move: a swipe that starts in a circle launches it with the swipe's velocity.
///
/// The circles are a `DiscWorld` (Dynamics) over the drawing area: fixed 1/120 s steps, tilt
/// as an acceleration on moving circles, lossy bounces off the edges and between circles;
/// circles drawn overlapping ignore each other; a circle slow for a while comes to rest, so
/// the kiosk sleeps.
/// Leaving Move mode freezes every circle with its velocity; coming back resumes them.
public final class CircleDraw: Exhibit {
    public static let profile = ExhibitProfile(
        name: "circle-draw", tileColor: Color(r: 70, g: 90, b: 160),
        extraTextKeys: Mode.allCases.map { "mode." + $0.rawValue }, demoTrace: demoTrace, benchScene: .script("circles"))

    public enum Mode: String, CaseIterable, Sendable { case draw, delete, move }

    /// The colour menu, in its on-screen order.
    public static let palette: [(name: String, color: Color)] = [
        ("black", .black), ("blue", .blue), ("red", .red), ("green", .green),
    ]

    private var discs: DiscWorld
    /// Each circle's colour, beside the discs (same indices).
    private var colors: [Color] = []
    private var nextID = 1

    public private(set) var mode: Mode = .draw
    public private(set) var drawColor: Color = .black
    /// The circle being drawn: centre, radius, id.
    private var live: (center: Vec2, radius: Double, id: Int)?

    private var gravity = Vec2(0, 1)
    private var now: Microseconds
    private var lastStep: Microseconds

    private let width: Double, height: Double, scale: Double
    /// Where circles live and bounce: the screen above the bar.
    public let area: Rect
    let barFrame: Rect
    let modeFrames: [Rect]
    let menuFrame: Rect
    let swatchFrames: [Rect]
    /// The mode segment or swatch a finger is on (modes first): shaded from touch-down.
    private var press = PressTracker()

    private let canvasPan: PanGestureRecognizer
    /// The bar for each mode and the menu for each colour, made once (text is measured).
    private var barCommands: [[DrawCommand]] = []
    private var menuCommands: [[DrawCommand]] = []
    private let fonts: FontSet
    private let text: TextBook
    private let legibleTextSize: Double
    /// The text book's revision the bar was laid out for: a new language lays it out again.
    private var barRevision = -1

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = environment.scale
        now = environment.startTime
        lastStep = now
        let s = scale
        fonts = environment.fonts
        text = environment.text
        legibleTextSize = environment.legibleTextSize
        // Controls scale with the smaller side (a square panel keeps room to draw) but stay
        // big enough for a finger: the bar 11 mm tall, a swatch 10 mm.
        let pixelsPerMillimetre = environment.legibleTextSize / ExhibitEnvironment.legibleMillimetres
        let controlScale = min(s, Double(environment.height) / 800)
        let barHeight = max(80 * controlScale, 11 * pixelsPerMillimetre).rounded()
        let bar = Rect(x: 0, y: height - barHeight, width: width, height: barHeight)
        barFrame = bar
        let safeTop = environment.safeArea.minY
        area = Rect(x: 0, y: safeTop, width: width, height: max(1, bar.minY - safeTop))
        discs = DiscWorld(area: area, scale: s)
        let pad = (8 * controlScale).rounded()
        let segment = (width - 2 * pad) / 3
        modeFrames = (0..<3).map { i in
            Rect(x: pad + Double(i) * segment, y: bar.minY + pad, width: segment, height: barHeight - 2 * pad)
        }
        let swatch = max(64 * controlScale, 10 * pixelsPerMillimetre).rounded()
        let menuWidth = swatch * 4 + 2 * pad
        let menu = Rect(x: (width - menuWidth) / 2, y: bar.minY - swatch - pad, width: menuWidth, height: swatch + pad)
        menuFrame = menu
        swatchFrames = (0..<4).map { i in
            Rect(x: menu.minX + pad + Double(i) * swatch, y: menu.minY + pad / 2, width: swatch, height: swatch)
        }

        canvasPan = PanGestureRecognizer(name: "canvas")
        menuCommands = CircleDraw.palette.map { makeMenu(for: $0.color) }
        canvasPan.hysteresis = 0        // the finger going down is the event, not a drag
        canvasPan.maximumNumberOfTouches = 1
        canvasPan.action = { [unowned(unsafe) self] pan in self.canvasTouch(pan) }
        canvasPan.shouldReceiveTouch = { [unowned(unsafe) self] p in
            self.area.contains(p) && !(self.mode == .draw && self.menuFrame.contains(p))
        }
        gestures.add(canvasPan)

        for (i, m) in Mode.allCases.enumerated() {
            gestures.add(TapGestureRecognizer(region: modeFrames[i], name: "mode \(m.rawValue)") { [unowned(unsafe) self] tap in
                if tap.state == .ended { self.select(m) }
            })
        }
        for (i, entry) in CircleDraw.palette.enumerated() {
            let tap = TapGestureRecognizer(region: swatchFrames[i], name: "color \(entry.name)") { [unowned(unsafe) self] tap in
                if tap.state == .ended, self.mode == .draw { self.drawColor = entry.color }
            }
            tap.shouldReceiveTouch = { [unowned(unsafe) self] _ in self.mode == .draw }
            gestures.add(tap)
        }
        // Each circle gets its own swipe, so several visitors can fling circles at once.
        gestures.attachToItems(hitTest: { [unowned(unsafe) self] p in
            self.mode == .move && self.area.contains(p) ? self.discs.topmostDisc(containing: p) : nil
        }) { [unowned(unsafe) self] item in
            let swipe = SwipeGestureRecognizer(direction: .all, name: "fling \(item)")
            swipe.directionTolerance = Double.pi / 4 + 0.01
            swipe.minimumDistance = 30 * self.scale
            swipe.minimumSpeed = 150 * self.scale
            swipe.action = { [unowned(unsafe) self] s in
                if s.state == .ended { self.launch(item, velocity: s.velocity) }
            }
            return [swipe]
        }
    }

    // MARK: Actions

    private func select(_ m: Mode) {
        guard m != mode else { return }
        if live != nil { live = nil }
        mode = m
        canvasPan.isEnabled = m != .move
        // Frozen circles resume from where they were, not with a step's worth of catching up.
        lastStep = now
    }

    private func canvasTouch(_ pan: PanGestureRecognizer) {
        let p = pan.location
        switch mode {
        case .draw:
            switch pan.state {
            case .began:
                live = (p, 0, nextID)
                nextID += 1
            case .changed:
                if let l = live { live = (l.center, clampedRadius(p.distance(to: l.center)), l.id) }
            case .ended:
                if let l = live {
                    let r = clampedRadius(p.distance(to: l.center))
                    // A touch without a drag leaves no invisible speck.
                    if r >= 2 * scale {
                        discs.append(id: l.id, center: l.center, radius: r)
                        colors.append(drawColor)
                    }
                }
                live = nil
            default:
                live = nil
            }
        case .delete:
            if pan.state == .began {
                for i in discs.removeDiscs(containing: p) { colors.remove(at: i) }
            }
        case .move:
            break
        }
    }

    /// No circle wider than the drawing area (it could not bounce).
    private func clampedRadius(_ r: Double) -> Double { min(r, min(area.width, area.height) / 2) }

    private func launch(_ id: Int, velocity: Vec2) {
        guard mode == .move, velocity.isFinite, let i = discs.ids.firstIndex(of: id) else { return }
        if discs.awakeCount == 0 { lastStep = now }
        discs.launch(i, velocity: velocity)
    }

    // MARK: Time and physics

    public func motion(gravity: Vec2, altitude: Double?) { self.gravity = gravity }

    public func advance(to time: Microseconds) {
        guard time > now else { return }
        now = time
        guard mode == .move, discs.awakeCount > 0 else { lastStep = now; return }
        let interval = discs.tuning.stepInterval
        while lastStep + interval <= now, discs.awakeCount > 0 {
            lastStep += interval
            discs.step(gravity: gravity)
        }
        if discs.awakeCount == 0 { lastStep = now }
    }

    public var isAnimating: Bool { mode == .move && discs.awakeCount > 0 }

    public func touches(_ frame: TouchFrame) {
        press.follow(frame, regions: modeFrames + (mode == .draw ? swatchFrames : []))
    }

    // MARK: Drawing

    static let barColor = Color(r: 28, g: 28, b: 30)
    static let selectedColor = Color(rgb: 0x007AFF)
    static let menuColor = Color(r: 242, g: 242, b: 247)

    public func draw(into list: inout [DrawCommand]) -> Color {
        // Local copies (no element copying): the loop needs no access checks on the properties.
        let discs = self.discs, colors = self.colors
        for i in 0..<discs.count {
            list.append(.circle(center: Vec2(discs.px[i], discs.py[i]), radius: discs.radius[i], color: colors[i]))
        }
        // The circle being drawn: an anti-aliased ring whose centre line runs under the finger.
        if let l = live, l.radius > 0 {
            list.append(.ring(center: l.center, radius: l.radius, lineWidth: 3 * scale, color: drawColor))
        }
        if mode == .draw, let k = CircleDraw.palette.firstIndex(where: { $0.color == drawColor }) {
            list.append(contentsOf: menuCommands[k])
        }
        if barRevision != text.revision || barCommands.isEmpty {
            barCommands = Mode.allCases.map { makeBar(for: $0) }
            barRevision = text.revision
        }
        list.append(contentsOf: barCommands[Mode.allCases.firstIndex(of: mode) ?? 0])
        // A pressed button is shaded over its cached look until the finger lifts or strays.
        if let i = press.index {
            let shade = Color(r: 0, g: 0, b: 0, a: 64)
            if i < modeFrames.count {
                list.append(.rect(modeFrames[i].insetBy(dx: 3 * scale, dy: 0), transform: .identity, color: shade))
            } else if i - modeFrames.count < swatchFrames.count {
                let f = swatchFrames[i - modeFrames.count]
                list.append(.circle(center: f.center, radius: f.width * 0.27, color: shade))
            }
        }
        return .white
    }

    /// The colour menu: four swatches on a light panel, the chosen one ringed.
    private func makeMenu(for chosen: Color) -> [DrawCommand] {
        var list: [DrawCommand] = [.fillPixels(PixelRect(covering: menuFrame), CircleDraw.menuColor)]
        for (i, entry) in CircleDraw.palette.enumerated() {
            let f = swatchFrames[i]
            // Same number of commands whatever is chosen, so the list keeps its shape.
            list.append(.ring(center: f.center, radius: f.width * 0.38, lineWidth: 4 * scale,
                              color: entry.color == chosen ? CircleDraw.selectedColor : CircleDraw.menuColor))
            list.append(.circle(center: f.center, radius: f.width * 0.27, color: entry.color))
        }
        return list
    }

    /// The mode bar: three segments, the active one filled and bold.
    private func makeBar(for active: Mode) -> [DrawCommand] {
        var list: [DrawCommand] = [.fillPixels(PixelRect(covering: barFrame), CircleDraw.barColor)]
        for (i, m) in Mode.allCases.enumerated() {
            let f = modeFrames[i].insetBy(dx: 3 * scale, dy: 0)
            let selected = m == active
            list.append(.rect(f, transform: .identity, color: selected ? CircleDraw.selectedColor : CircleDraw.barColor))
            // Bold or not, the label keeps one size: laid out bold, the wider of the two.
            let label = text[TextKey.exhibit(CircleDraw.profile.name, "mode." + m.rawValue)]
            let box = f.insetBy(dx: 4 * scale, dy: 2 * scale)
            let size = fonts.block(label, in: box, size: max(24 * scale, legibleTextSize), minimumSize: legibleTextSize,
                                   bold: true, alignment: .center, language: text.current.code).size
            list.append(fonts.text(label, in: box, size: size, minimumSize: min(size, legibleTextSize), bold: selected,
                                   alignment: .center, vertical: .center, language: text.current.code,
                                   color: selected ? .white : Color(r: 174, g: 174, b: 178)))
        }
        return list
    }

    // MARK: State

    public func state() -> ExhibitState {
        var items: [ItemState] = []
        items.reserveCapacity(discs.count + 1)
        for i in 0..<discs.count {
            let r = discs.radius[i]
            items.append(ItemState(id: discs.ids[i], shape: "circle", center: Vec2(discs.px[i], discs.py[i]), width: 2 * r,
                                   height: 2 * r, color: colors[i]))
        }
        if let l = live {
            items.append(ItemState(id: l.id, shape: "circle", center: l.center, width: 2 * l.radius, height: 2 * l.radius,
                                   color: drawColor))
        }
        var controls: [ControlState] = []
        for (i, m) in Mode.allCases.enumerated() {
            controls.append(ControlState(id: "mode.\(m.rawValue)", frame: modeFrames[i], selected: m == mode))
        }
        for (i, entry) in CircleDraw.palette.enumerated() {
            controls.append(ControlState(id: "color.\(entry.name)", frame: swatchFrames[i], selected: entry.color == drawColor))
        }
        return ExhibitState(background: .white, items: items, controls: controls,
                            extras: [("mode", .string(mode.rawValue)), ("drawColor", .string(drawColor.hex))])
    }

    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":0,"type":"touch","phase":"down","id":0,"x":140,"y":220}
    {"t":60,"type":"touch","phase":"move","id":0,"x":170,"y":230}
    {"t":120,"type":"touch","phase":"move","id":0,"x":195,"y":245}
    {"t":180,"type":"touch","phase":"move","id":0,"x":205,"y":250}
    {"t":240,"type":"touch","phase":"up","id":0,"x":205,"y":250}
    {"t":700,"type":"touch","phase":"down","id":0,"x":330,"y":380}
    {"t":760,"type":"touch","phase":"move","id":0,"x":350,"y":400}
    {"t":820,"type":"touch","phase":"move","id":0,"x":370,"y":410}
    {"t":880,"type":"touch","phase":"up","id":0,"x":370,"y":410}
    {"t":1400,"type":"touch","phase":"down","id":0,"x":208,"y":668}
    {"t":1460,"type":"touch","phase":"up","id":0,"x":208,"y":668}
    {"t":1900,"type":"touch","phase":"down","id":0,"x":150,"y":480}
    {"t":1960,"type":"touch","phase":"move","id":0,"x":180,"y":500}
    {"t":2020,"type":"touch","phase":"move","id":0,"x":200,"y":520}
    {"t":2080,"type":"touch","phase":"up","id":0,"x":200,"y":520}
    {"t":2600,"type":"touch","phase":"down","id":0,"x":360,"y":180}
    {"t":2660,"type":"touch","phase":"move","id":0,"x":390,"y":200}
    {"t":2720,"type":"touch","phase":"move","id":0,"x":400,"y":210}
    {"t":2780,"type":"touch","phase":"up","id":0,"x":400,"y":210}
    {"t":3400,"type":"touch","phase":"down","id":0,"x":395,"y":760}
    {"t":3460,"type":"touch","phase":"up","id":0,"x":395,"y":760}
    {"t":4000,"type":"touch","phase":"down","id":0,"x":140,"y":220}
    {"t":4030,"type":"touch","phase":"move","id":0,"x":165,"y":200}
    {"t":4060,"type":"touch","phase":"move","id":0,"x":195,"y":180}
    {"t":4090,"type":"touch","phase":"move","id":0,"x":225,"y":160}
    {"t":4120,"type":"touch","phase":"up","id":0,"x":225,"y":160}
    {"t":4600,"type":"touch","phase":"down","id":0,"x":330,"y":380}
    {"t":4630,"type":"touch","phase":"move","id":0,"x":305,"y":395}
    {"t":4660,"type":"touch","phase":"move","id":0,"x":275,"y":410}
    {"t":4690,"type":"touch","phase":"move","id":0,"x":245,"y":425}
    {"t":4720,"type":"touch","phase":"up","id":0,"x":245,"y":425}
    """
}
