import Geometry
import Gestures

/// Seed 003: draw coloured circles, delete them, fling them about.
///
/// Three modes, chosen from a bar at the bottom (clear of the home control, top-left):
/// - Draw: a finger down sets the centre, the radius follows the finger (a ring while drawn,
///   a disc once the finger lifts), in the colour chosen from the menu above the bar.
/// - Delete: a finger down removes every circle containing that point.
/// - Move: a swipe that starts in a circle launches it with the swipe's velocity.
///
/// Physics is a small simulation of its own (discs only, so a general engine buys nothing):
/// fixed 1/120 s steps, tilt as an acceleration on moving circles, true reflection with loss
/// at the edges of the drawing area, impulses by mass (∝ area) along the line of centres
/// between circles, found through a uniform grid. A circle hit by a moving one is knocked
/// into motion; circles drawn overlapping ignore each other (only a fresh contact, no deeper
/// than a step's approach, collides); a circle that has been slow for a while comes to rest,
/// so the kiosk sleeps.
/// Leaving Move mode freezes every circle with its velocity; coming back resumes them.
public final class CircleDraw: Exhibit {
    public static let info = ExhibitInfo(name: "circle-draw", title: "Circle Draw",
                                         instruction: "Draw circles, then switch to Move and flick them",
                                         tileColor: Color(r: 70, g: 90, b: 160))

    public enum Mode: String, CaseIterable, Sendable { case draw, delete, move }

    /// The colour menu, in its on-screen order.
    public static let palette: [(name: String, color: Color)] = [
        ("black", .black), ("blue", .blue), ("red", .red), ("green", .green),
    ]

    /// Physics tick (µs) and its length in seconds.
    static let stepInterval: Microseconds = 8_333
    static let stepSeconds = Double(stepInterval) / 1_000_000
    /// Speed kept at each edge bounce (the whole velocity, so the angle is kept).
    public static let wallRestitution = 0.8
    /// Restitution of circle–circle impacts: elastic-ish.
    public static let circleRestitution = 0.9
    /// Gravity 1.0 = 1000 px/s² at 480 px wide (UIKit), scaled with the screen.
    static let gravityPixels = 1000.0
    /// Slower than this (px/s at 480 wide) for `restTime` and a circle comes to rest.
    static let restSpeed = 15.0
    static let restTime: Microseconds = 250_000
    /// Impacts on an edge slower than this (px/s at 480 wide) are resting contact: the normal
    /// velocity is removed instead of bounced, so a circle lying on an edge can still slide.
    static let contactSpeed = 30.0
    /// Fastest launch (px/s at 480 wide): 33 px per step.
    static let maximumSpeed = 4000.0
    /// Overlap (px at 480 wide) beyond a step's approach that still counts as touching.
    static let contactSlop = 1.5
    /// Friction of a circle lying on an edge (sliding along the bar, say).
    static let edgeFriction = 0.4

    private var discs: DiscWorld
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

    private let canvasPan: PanGestureRecognizer
    /// The bar for each mode and the menu for each colour, made once (text is measured).
    private var barCommands: [[DrawCommand]] = []
    private var menuCommands: [[DrawCommand]] = []

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        width = Double(environment.width)
        height = Double(environment.height)
        scale = environment.scale
        now = environment.startTime
        lastStep = now
        let s = scale
        discs = DiscWorld(area: Rect(x: 0, y: 0, width: width, height: height - (80 * s).rounded()), scale: s)
        let barHeight = (80 * s).rounded()
        let bar = Rect(x: 0, y: height - barHeight, width: width, height: barHeight)
        barFrame = bar
        area = Rect(x: 0, y: 0, width: width, height: height - barHeight)
        let pad = (8 * s).rounded()
        let segment = (width - 2 * pad) / 3
        modeFrames = (0..<3).map { i in
            Rect(x: pad + Double(i) * segment, y: bar.minY + pad, width: segment, height: barHeight - 2 * pad)
        }
        let swatch = (64 * s).rounded()
        let menuWidth = swatch * 4 + 2 * pad
        let menu = Rect(x: (width - menuWidth) / 2, y: bar.minY - swatch - pad, width: menuWidth, height: swatch + pad)
        menuFrame = menu
        swatchFrames = (0..<4).map { i in
            Rect(x: menu.minX + pad + Double(i) * swatch, y: menu.minY + pad / 2, width: swatch, height: swatch)
        }

        canvasPan = PanGestureRecognizer(name: "canvas")
        barCommands = Mode.allCases.map { makeBar(for: $0, fonts: environment.fonts) }
        menuCommands = CircleDraw.palette.map { makeMenu(for: $0.color) }
        canvasPan.hysteresis = 0        // the finger going down is the event, not a drag
        canvasPan.maximumNumberOfTouches = 1
        canvasPan.action = { [unowned self] pan in self.canvasTouch(pan) }
        canvasPan.shouldReceiveTouch = { [unowned self] p in
            self.area.contains(p) && !(self.mode == .draw && self.menuFrame.contains(p))
        }
        gestures.add(canvasPan)

        for (i, m) in Mode.allCases.enumerated() {
            gestures.add(TapGestureRecognizer(region: modeFrames[i], name: "mode \(m.rawValue)") { [unowned self] tap in
                if tap.state == .ended { self.select(m) }
            })
        }
        for (i, entry) in CircleDraw.palette.enumerated() {
            let tap = TapGestureRecognizer(region: swatchFrames[i], name: "color \(entry.name)") { [unowned self] tap in
                if tap.state == .ended, self.mode == .draw { self.drawColor = entry.color }
            }
            tap.shouldReceiveTouch = { [unowned self] _ in self.mode == .draw }
            gestures.add(tap)
        }
        // Each circle gets its own swipe, so several visitors can fling circles at once.
        gestures.attachToItems(hitTest: { [unowned self] p in
            self.mode == .move && self.area.contains(p) ? self.discs.topmostCircle(containing: p) : nil
        }) { [unowned self] item in
            let swipe = SwipeGestureRecognizer(direction: .all, name: "fling \(item)")
            swipe.directionTolerance = Double.pi / 4 + 0.01
            swipe.minimumDistance = 30 * self.scale
            swipe.minimumSpeed = 150 * self.scale
            swipe.action = { [unowned self] s in
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
                    if r >= 2 * scale { discs.append(id: l.id, center: l.center, radius: r, color: drawColor) }
                }
                live = nil
            default:
                live = nil
            }
        case .delete:
            if pan.state == .began { discs.deleteCircles(containing: p) }
        case .move:
            break
        }
    }

    /// No circle wider than the drawing area (it could not bounce).
    private func clampedRadius(_ r: Double) -> Double { min(r, min(area.width, area.height) / 2) }

    private func launch(_ id: Int, velocity: Vec2) {
        guard mode == .move, velocity.isFinite, let i = discs.ids.firstIndex(of: id) else { return }
        if discs.awakeCount == 0 { lastStep = now }
        // A wild flick would cross a circle in one step and miss its collisions.
        let limit = CircleDraw.maximumSpeed * scale
        let speed = velocity.length
        discs.launch(i, velocity: speed > limit ? velocity * (limit / speed) : velocity)
    }

    // MARK: Time and physics

    public func motion(gravity: Vec2, altitude: Double?) { self.gravity = gravity }

    public func advance(to time: Microseconds) {
        guard time > now else { return }
        now = time
        guard mode == .move, discs.awakeCount > 0 else { lastStep = now; return }
        while lastStep + CircleDraw.stepInterval <= now, discs.awakeCount > 0 {
            lastStep += CircleDraw.stepInterval
            discs.step(gravity: gravity)
        }
        if discs.awakeCount == 0 { lastStep = now }
    }

    public var isAnimating: Bool { mode == .move && discs.awakeCount > 0 }

    // MARK: Drawing

    static let barColor = Color(r: 28, g: 28, b: 30)
    static let selectedColor = Color(rgb: 0x007AFF)
    static let menuColor = Color(r: 242, g: 242, b: 247)

    public func draw(into list: inout [DrawCommand]) -> Color {
        discs.draw(into: &list)
        // The circle being drawn: an anti-aliased ring whose centre line runs under the finger.
        if let l = live, l.radius > 0 {
            list.append(.ring(center: l.center, radius: l.radius, lineWidth: 3 * scale, color: drawColor))
        }
        if mode == .draw, let k = CircleDraw.palette.firstIndex(where: { $0.color == drawColor }) {
            list.append(contentsOf: menuCommands[k])
        }
        list.append(contentsOf: barCommands[Mode.allCases.firstIndex(of: mode)!])
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
    private func makeBar(for active: Mode, fonts: FontSet) -> [DrawCommand] {
        var list: [DrawCommand] = [.fillPixels(PixelRect(covering: barFrame), CircleDraw.barColor)]
        let titles = ["Draw", "Delete", "Move"]
        for (i, m) in Mode.allCases.enumerated() {
            let f = modeFrames[i].insetBy(dx: 3 * scale, dy: 0)
            let selected = m == active
            list.append(.rect(f, transform: .identity, color: selected ? CircleDraw.selectedColor : CircleDraw.barColor))
            list.append(fonts.text(titles[i], centeredAt: Vec2(f.center.x, f.center.y + 8 * scale), size: 24 * scale,
                                   bold: selected, color: selected ? .white : Color(r: 174, g: 174, b: 178)))
        }
        return list
    }

    // MARK: State

    public func state() -> ExhibitState {
        var items: [ItemState] = []
        items.reserveCapacity(discs.ids.count + 1)
        for i in discs.ids.indices {
            let r = discs.radius[i]
            items.append(ItemState(id: discs.ids[i], shape: "circle", center: Vec2(discs.px[i], discs.py[i]), width: 2 * r,
                                   height: 2 * r, color: discs.colors[i]))
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

/// The circles and their motion, as a value: the hot loops run in mutating methods, so they
/// touch plain arrays (no class-property access checks per element). Structure of arrays:
/// each loop reads only what it needs.
struct DiscWorld {
    var ids: [Int] = []
    var px: [Double] = [], py: [Double] = []
    var vx: [Double] = [], vy: [Double] = []
    var radius: [Double] = []
    var colors: [Color] = []
    var awake: [Bool] = []
    /// Time each awake circle has spent slower than `restSpeed`.
    var slowFor: [Microseconds] = []
    var awakeCount = 0
    let area: Rect
    let scale: Double
    private var grid = UniformGrid()

    init(area: Rect, scale: Double) { self.area = area; self.scale = scale }

    mutating func append(id: Int, center: Vec2, radius r: Double, color: Color) {
        ids.append(id)
        px.append(center.x); py.append(center.y)
        vx.append(0); vy.append(0)
        radius.append(r)
        colors.append(color)
        awake.append(false)
        slowFor.append(0)
    }

    mutating func remove(at i: Int) {
        if awake[i] { awakeCount -= 1 }
        ids.remove(at: i); px.remove(at: i); py.remove(at: i); vx.remove(at: i); vy.remove(at: i)
        radius.remove(at: i); colors.remove(at: i); awake.remove(at: i); slowFor.remove(at: i)
    }

    func contains(_ i: Int, _ p: Vec2) -> Bool {
        let dx = p.x - px[i], dy = p.y - py[i]
        return dx * dx + dy * dy <= radius[i] * radius[i]
    }

    mutating func deleteCircles(containing p: Vec2) {
        var i = ids.count - 1
        while i >= 0 {
            if contains(i, p) { remove(at: i) }
            i -= 1
        }
    }

    /// The circle drawn last (on top) under `p`.
    func topmostCircle(containing p: Vec2) -> Int? {
        var i = ids.count - 1
        while i >= 0 {
            if contains(i, p) { return ids[i] }
            i -= 1
        }
        return nil
    }

    mutating func launch(_ i: Int, velocity: Vec2) {
        if !awake[i] { awake[i] = true; awakeCount += 1 }
        vx[i] = velocity.x; vy[i] = velocity.y
        slowFor[i] = 0
    }

    func draw(into list: inout [DrawCommand]) {
        for i in ids.indices {
            list.append(.circle(center: Vec2(px[i], py[i]), radius: radius[i], color: colors[i]))
        }
    }

    mutating func step(gravity: Vec2) {
        let dt = CircleDraw.stepSeconds
        let ax = gravity.x * CircleDraw.gravityPixels * scale, ay = gravity.y * CircleDraw.gravityPixels * scale
        let n = ids.count
        for i in 0..<n where awake[i] {
            vx[i] += ax * dt; vy[i] += ay * dt
            px[i] += vx[i] * dt; py[i] += vy[i] * dt
            bounceOffEdges(i)
        }
        collide()
        let rest = CircleDraw.restSpeed * scale
        for i in 0..<n where awake[i] {
            if vx[i] * vx[i] + vy[i] * vy[i] < rest * rest {
                slowFor[i] += CircleDraw.stepInterval
                if slowFor[i] >= CircleDraw.restTime {
                    awake[i] = false; vx[i] = 0; vy[i] = 0; slowFor[i] = 0
                    awakeCount -= 1
                }
            } else {
                slowFor[i] = 0
            }
        }
    }

    /// True reflection with loss: the normal component turns round and the whole velocity
    /// keeps `wallRestitution` of its speed, so the angle out equals the angle in. The path
    /// beyond the edge is mirrored back (scaled the same), as the bounce happened mid-step.
    private mutating func bounceOffEdges(_ i: Int) {
        let r = radius[i]
        let e = CircleDraw.wallRestitution
        let contact = CircleDraw.contactSpeed * scale
        let mu = CircleDraw.edgeFriction
        func bounce(_ p: inout Double, _ v: inout Double, _ tangent: inout Double, lo: Double, hi: Double) {
            if hi - lo <= 2 * r { p = (lo + hi) / 2; v = 0; return }
            let into: Double
            if p - r < lo, v < 0 {
                into = -v
                p = min(lo + r + (lo + r - p) * e, hi - r)
            } else if p + r > hi, v > 0 {
                into = v
                p = max(hi - r - (p + r - hi) * e, lo + r)
            } else {
                return
            }
            if into >= contact {
                v = -v * e
                tangent *= e
            } else {
                // Lying on the edge: the normal speed goes, and friction takes its share
                // of the sliding speed (Coulomb: proportional to the normal impulse).
                v = 0
                let slow = mu * into
                tangent = abs(tangent) <= slow ? 0 : tangent - (tangent > 0 ? slow : -slow)
            }
        }
        bounce(&px[i], &vx[i], &vy[i], lo: area.minX, hi: area.maxX)
        bounce(&py[i], &vy[i], &vx[i], lo: area.minY, hi: area.maxY)
    }

    /// Impulses between touching circles that approach each other (at least one of them
    /// moving), along the line of centres, by mass ∝ area: momentum is conserved exactly.
    /// Circles drawn overlapping and at rest exert nothing on each other.
    private mutating func collide() {
        let n = ids.count
        guard n > 1 else { return }
        grid.build(px: px, py: py, radius: radius, area: area, cellSize: 48 * scale)
        let e = CircleDraw.circleRestitution
        let dt = CircleDraw.stepSeconds, slop = CircleDraw.contactSlop * scale
        for i in 0..<n where awake[i] {
            let ri = grid.range(i)
            for cy in Int32(ri.y)...ri.w {
                for cx in ri.x...ri.z {
                    for member in grid.members(Int(cx), Int(cy)) {
                        let j = Int(member)
                        if j == i { continue }
                        // Each pair once: from the awake one with the lower index, in the
                        // first cell the two share.
                        if awake[j] && j < i { continue }
                        let rj = grid.range(j)
                        if max(ri.x, rj.x) != cx || max(ri.y, rj.y) != cy { continue }
                        let dx = px[j] - px[i], dy = py[j] - py[i]
                        let reach = radius[i] + radius[j]
                        let d2 = dx * dx + dy * dy
                        guard d2 < reach * reach, d2 > 0 else { continue }
                        let d = d2.squareRoot()
                        let nx = dx / d, ny = dy / d
                        let approach = (vx[j] - vx[i]) * nx + (vy[j] - vy[i]) * ny
                        guard approach < 0 else { continue }
                        // A fresh contact is at most a step's approach deep; deeper overlaps
                        // were drawn that way and pass through each other.
                        if reach - d > -approach * dt + slop { continue }
                        let mi = radius[i] * radius[i], mj = radius[j] * radius[j]
                        let impulse = -(1 + e) * approach / (1 / mi + 1 / mj)
                        vx[i] -= impulse / mi * nx; vy[i] -= impulse / mi * ny
                        vx[j] += impulse / mj * nx; vy[j] += impulse / mj * ny
                        if !awake[j] { awake[j] = true; awakeCount += 1; slowFor[j] = 0 }
                    }
                }
            }
        }
    }
}

/// A uniform grid over the drawing area for the collision broadphase: circles are sorted into
/// the cells their bounding boxes cover (counting sort into flat arrays, reused every step,
/// so a step allocates nothing once the arrays have grown).
struct UniformGrid {
    private(set) var columns = 0, rows = 0
    private var originX = 0.0, originY = 0.0, inverseCell = 1.0
    private var starts: [Int32] = []
    private var entries: [Int32] = []
    private var cursor: [Int32] = []
    private var ranges: [SIMD4<Int32>] = []

    mutating func build(px: [Double], py: [Double], radius: [Double], area: Rect, cellSize: Double) {
        originX = area.minX; originY = area.minY
        inverseCell = 1 / cellSize
        columns = max(1, Int((area.width / cellSize).rounded(.up)))
        rows = max(1, Int((area.height / cellSize).rounded(.up)))
        let cells = columns * rows
        if starts.count != cells + 1 { starts = Array(repeating: 0, count: cells + 1); cursor = Array(repeating: 0, count: cells) }
        for c in 0...cells { starts[c] = 0 }
        let n = px.count
        if ranges.count != n { ranges = Array(repeating: SIMD4(), count: n) }
        var total = 0
        for i in 0..<n {
            let (x0, y0, x1, y1) = cellRange(px[i], py[i], radius[i])
            ranges[i] = SIMD4(Int32(x0), Int32(y0), Int32(x1), Int32(y1))
            for y in y0...y1 { for x in x0...x1 { starts[y * columns + x + 1] += 1 } }
            total += (x1 - x0 + 1) * (y1 - y0 + 1)
        }
        for c in 0..<cells { starts[c + 1] += starts[c]; cursor[c] = starts[c] }
        if entries.count < total { entries = Array(repeating: 0, count: total) }
        for i in 0..<n {
            let r = ranges[i]
            for y in Int(r.y)...Int(r.w) {
                for x in Int(r.x)...Int(r.z) {
                    let c = y * columns + x
                    entries[Int(cursor[c])] = Int32(i)
                    cursor[c] += 1
                }
            }
        }
    }

    /// Circle `i`'s cells as of the last `build`: (x0, y0, x1, y1).
    func range(_ i: Int) -> SIMD4<Int32> { ranges[i] }

    /// The cells covered by a circle's bounding box, clamped to the grid (circles reaching
    /// past the area share the border cells).
    func cellRange(_ x: Double, _ y: Double, _ r: Double) -> (Int, Int, Int, Int) {
        func clamp(_ v: Double, _ limit: Int) -> Int {
            guard v.isFinite else { return 0 }
            return min(max(Int((v).rounded(.down)), 0), limit - 1)
        }
        return (clamp((x - r - originX) * inverseCell, columns), clamp((y - r - originY) * inverseCell, rows),
                clamp((x + r - originX) * inverseCell, columns), clamp((y + r - originY) * inverseCell, rows))
    }

    func members(_ x: Int, _ y: Int) -> ArraySlice<Int32> {
        let c = y * columns + x
        return entries[Int(starts[c])..<Int(starts[c + 1])]
    }
}
