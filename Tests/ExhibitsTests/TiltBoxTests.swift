import Testing
import Geometry
import Sensors
@testable import Exhibits

/// Replay tests for tilt-box (issue 7, item 2). Accelerometer samples are m/s² in the screen
/// frame: flat on a table (0, 0, 9.81); right edge down (−9.81, 0, 0).
@Suite struct TiltBoxTests {
    static let flat = Vec3(0, 0, 9.81)
    static let g = 9.81

    struct Box {
        var x: Double, y: Double, side: Double, shape: String, color: String
    }

    func box(_ r: ReplayResult, _ cp: String) -> Box {
        let item = r.items(cp).first
        return Box(x: r.number(item?["x"]) ?? .nan, y: r.number(item?["y"]) ?? .nan, side: r.number(item?["width"]) ?? .nan,
                   shape: r.string(item?["shape"]) ?? "", color: r.string(item?["color"]) ?? "")
    }

    func borderColor(_ r: ReplayResult, _ cp: String, _ edge: String) -> String? {
        guard case .array(let borders)? = r.states[cp]?["borders"] else { return nil }
        for b in borders where r.string(b["edge"]) == edge { return r.string(b["color"]) }
        return nil
    }

    /// The top of the box's area: below the home control.
    func top(_ r: ReplayResult, _ cp: String) -> Double {
        guard case .object(let a)? = r.states[cp]?["area"], let y = a.first(where: { $0.0 == "y" }).flatMap({ r.number($0.1) }) else {
            Issue.record("no area"); return .nan
        }
        return y
    }
    /// Where the box starts at 480x800: the middle of the area below the home control (88 px).
    static let start = Vec2(240, 444)

    func bool(_ r: ReplayResult, _ cp: String, _ key: String) -> Bool? {
        if case .bool(let b)? = r.states[cp]?[key] { return b }
        return nil
    }

    func pixel(_ r: ReplayResult, _ cp: String, _ p: Vec2) -> String {
        let f = r.frames[cp]!
        let v = f.row32(Int(p.y))[Int(p.x)]
        return Color(rgb: v & 0xFFFFFF).hex
    }

    @Test(arguments: [(480, 800), (720, 1280)]) func startsRedSquareInTheCentreFramedByFourColours(size: (Int, Int)) throws {
        let (w, h) = (Double(size.0), Double(size.1))
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 2000)
        t.checkpoint("start", at: 0)
        t.checkpoint("later", at: 2000)
        let r = try replay(t.text, exhibit: "tilt-box", width: size.0, height: size.1)
        let scale = w / 480
        let top = top(r, "start")
        // The home control (72 px square, 8 px margin, at 480 wide) stays above the area.
        #expect(top >= (80 * scale).rounded())
        for cp in ["start", "later"] {
            let b = box(r, cp)
            #expect(abs(b.x - w / 2) < 1e-9 && abs(b.y - (top + h) / 2) < 1e-9, "\(cp): \(b)")
            #expect(abs(b.side - 100 * scale) < 1e-9 && b.shape == "square" && b.color == "#FF3B30")
        }
        let colors = ["top", "right", "bottom", "left"].compactMap { borderColor(r, "start", $0) }
        #expect(colors.count == 4 && Set(colors).count == 4 && !colors.contains("#FF3B30"))
        // Drawn as stated: each border's colour at the middle of its band, red in the centre.
        let band = (20 * scale).rounded() / 2
        #expect(pixel(r, "start", Vec2(w / 2, top + band)) == borderColor(r, "start", "top"))
        #expect(pixel(r, "start", Vec2(w - band, h / 2)) == borderColor(r, "start", "right"))
        #expect(pixel(r, "start", Vec2(w / 2, h - band)) == borderColor(r, "start", "bottom"))
        #expect(pixel(r, "start", Vec2(band, h / 2)) == borderColor(r, "start", "left"))
        #expect(pixel(r, "start", Vec2(w / 2, (top + h) / 2)) == "#FF3B30")
        // Flat and still: nothing moves, the kiosk may sleep.
        #expect(!r.app.isAnimating && r.app.nextDeadline == nil)
    }

    /// Tilting toward an edge moves the box there; it stops flush against that border (never
    /// over it), takes its colour, and rests (zero wakeups while the tilt holds still).
    @Test(arguments: [("right", Vec3(-9.81, 0, 0)), ("left", Vec3(9.81, 0, 0)), ("bottom", Vec3(0, 9.81, 0)), ("top", Vec3(0, -9.81, 0))])
    func tiltMovesItToTheBorderItTakesTheColourOf(edge: String, accel: Vec3) throws {
        try tilt(edge: edge, accel: accel, width: 480, height: 800)
    }

    @Test func tiltRightAt720x1280() throws {
        try tilt(edge: "right", accel: Vec3(-9.81, 0, 0), width: 720, height: 1280)
    }

    func tilt(edge: String, accel: Vec3, width: Int, height: Int) throws {
        let (w, h) = (Double(width), Double(height))
        let scale = w / 480, border = (20 * scale).rounded(), half = 50 * scale
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 480)
        t.hold(accel: accel, from: 500, to: 5000)
        var names: [String] = []
        for k in 0...90 { names.append("t\(k)"); t.checkpoint("t\(k)", at: 500 + Double(k) * 50) }
        let r = try replay(t.text, exhibit: "tilt-box", width: width, height: height)
        let top = top(r, "t0")
        // Never over a border, at any checkpoint.
        for cp in names {
            let b = box(r, cp)
            #expect(b.x - half >= border - 1e-9 && b.x + half <= w - border + 1e-9, "\(cp) x \(b.x)")
            #expect(b.y - half >= top + border - 1e-9 && b.y + half <= h - border + 1e-9, "\(cp) y \(b.y)")
        }
        // It moves toward the edge, steadily at first.
        let early = box(r, "t4"), start = box(r, "t0")
        let moved = Vec2(early.x - start.x, early.y - start.y)
        switch edge {
        case "right": #expect(moved.x > 5 * scale && abs(moved.y) < 1e-9)
        case "left": #expect(moved.x < -5 * scale && abs(moved.y) < 1e-9)
        case "bottom": #expect(moved.y > 5 * scale && abs(moved.x) < 1e-9)
        default: #expect(moved.y < -5 * scale && abs(moved.x) < 1e-9)
        }
        #expect(start.color == "#FF3B30" && early.color == "#FF3B30")
        // At the end: flush against the border, its colour, resting.
        let end = box(r, "t90")
        switch edge {
        case "right": #expect(abs(end.x + half - (w - border)) < 1e-9)
        case "left": #expect(abs(end.x - half - border) < 1e-9)
        case "bottom": #expect(abs(end.y + half - (h - border)) < 1e-9)
        default: #expect(abs(end.y - half - (top + border)) < 1e-9)
        }
        #expect(end.color == borderColor(r, "t90", edge))
        #expect(r.string(r.states["t90"]?["touching"]) == edge)
        #expect(bool(r, "t90", "resting") == true)
        #expect(!r.app.isAnimating && r.app.nextDeadline == nil)
        // The frame shows the box in the border's colour just inside the border.
        // (Inside its darker rim, 2 px at 480 wide.)
        let d = 5 * scale
        let inside: Vec2
        switch edge {
        case "right": inside = Vec2(w - border - d, end.y)
        case "left": inside = Vec2(border + d, end.y)
        case "bottom": inside = Vec2(end.x, h - border - d)
        default: inside = Vec2(end.x, top + border + d)
        }
        #expect(pixel(r, "t90", inside) == borderColor(r, "t90", edge))
        // The rim sets it apart from the border it sits against.
        let rim: Vec2
        switch edge {
        case "right": rim = Vec2(w - border - 1, end.y)
        case "left": rim = Vec2(border, end.y)
        case "bottom": rim = Vec2(end.x, h - border - 1)
        default: rim = Vec2(end.x, top + border)
        }
        #expect(pixel(r, "t90", rim) != borderColor(r, "t90", edge))
    }

    /// Tilted into the top-left corner, where the home control sits, the box stops below it.
    @Test(arguments: [(480, 800), (600, 1024), (720, 1280), (800, 1280), (768, 1024), (720, 720), (400, 400), (1080, 1920)])
    func theBoxNeverPassesUnderTheHomeControl(size: (Int, Int)) throws {
        var t = TraceBuilder()
        t.hold(accel: Vec3(6.9, -6.9, 0), from: 0, to: 6000)
        t.checkpoint("corner", at: 6000)
        let r = try replay(t.text, exhibit: "tilt-box", width: size.0, height: size.1)
        let b = box(r, "corner")
        let homeBottom = try #require(r.homeControlBottom("corner"))
        #expect(b.y - b.side / 2 >= homeBottom, "box top \(b.y - b.side / 2), control bottom \(homeBottom)")
        #expect(b.x + b.side / 2 <= Double(size.0) && b.y + b.side / 2 <= Double(size.1))
        #expect(r.string(r.states["corner"]?["touching"]) != nil)
    }

    @Test func aSlightTiltBelowFrictionDoesNotMoveIt() throws {
        var t = TraceBuilder()
        // 0.02 g toward the right: less than static friction.
        t.hold(accel: Vec3(-0.02 * Self.g, 0, 9.8), from: 0, to: 3000)
        t.checkpoint("end", at: 3000)
        let r = try replay(t.text, exhibit: "tilt-box")
        #expect(box(r, "end").x == Self.start.x && box(r, "end").y == Self.start.y)
        #expect(!r.app.isAnimating)
    }

    @Test func doubleTapTogglesSquareAndCircle() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 3000)
        t.doubleTap(Vec2(250, 390), at: 500)
        t.checkpoint("once", at: 1300)
        t.doubleTap(Vec2(230, 420), at: 1500)
        t.checkpoint("twice", at: 2300)
        t.tap(Vec2(240, 400), at: 2500)            // a single tap does nothing
        t.doubleTap(Vec2(60, 120), at: 2700)       // nor a double tap beside the box
        t.checkpoint("single", at: 3000)
        let r = try replay(t.text, exhibit: "tilt-box")
        #expect(box(r, "once").shape == "circle")
        #expect(box(r, "twice").shape == "square")
        #expect(box(r, "single").shape == "square")
        // Drawn round: the corner of the square's frame shows the background.
        #expect(pixel(r, "once", Self.start - Vec2(47, 47)) == "#F2F2F7")
        #expect(pixel(r, "twice", Self.start - Vec2(47, 47)) == "#FF3B30")
    }

    @Test func longPressTogglesOnceAndNeverTogetherWithTheDoubleTap() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 6000)
        t.touch("down", Vec2(240, 400), t: 500)
        t.checkpoint("before", at: 950)
        t.checkpoint("pressed", at: 1100)
        t.touch("up", Vec2(240, 400), t: 2500)      // held long: still one toggle
        t.checkpoint("released", at: 2700)
        // A tap, then a second press held long: a double tap's start that becomes a long
        // press. Exactly one of the two may fire.
        t.tap(Vec2(240, 400), at: 3500)
        t.touch("down", Vec2(240, 400), t: 3700)
        t.touch("up", Vec2(240, 400), t: 4700)
        t.checkpoint("mixed", at: 5200)
        let r = try replay(t.text, exhibit: "tilt-box")
        #expect(box(r, "before").shape == "square")
        #expect(box(r, "pressed").shape == "circle")
        #expect(box(r, "released").shape == "circle")
        #expect(box(r, "mixed").shape == "square")
        #expect(box(r, "mixed").x == Self.start.x && box(r, "mixed").y == Self.start.y)
    }

    @Test func dragMovesItAndTiltDoesNotWhileHeld() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 500)
        // Tilted hard to the right for the whole drag.
        t.hold(accel: Vec3(-9.81, 0, 0), from: 520, to: 6000)
        t.touch("down", Vec2(240, 400), t: 200)
        for k in 1...30 { t.touch("move", Vec2(240 - 3 * Double(k), 400 - 5 * Double(k)), t: 200 + Double(k) * 16) }
        t.checkpoint("dragged", at: 800)
        t.checkpoint("held", at: 2500)             // finger still down, tilt right
        t.touch("up", Vec2(150, 250), t: 2600)
        t.checkpoint("released", at: 6000)
        let r = try replay(t.text, exhibit: "tilt-box")
        let dragged = box(r, "dragged"), held = box(r, "held")
        // The box follows the finger's travel (−90, −150) from where it started.
        #expect(abs(dragged.x - 150) < 1e-9 && abs(dragged.y - (Self.start.y - 150)) < 1e-9, "\(dragged)")
        #expect(held.x == dragged.x && held.y == dragged.y)
        #expect(bool(r, "held", "held") == true)
        // Let go, the tilt takes it to the right border.
        let end = box(r, "released")
        #expect(abs(end.x - (480 - 20 - 50)) < 1e-9 && abs(end.y - (Self.start.y - 150)) < 1e-9)
        #expect(end.color == borderColor(r, "released", "right"))
    }

    @Test func draggedAgainstABorderItStopsThereAndTakesItsColour() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 2000)
        t.drag(from: Vec2(240, 400), to: Vec2(20, 300), at: 200, duration: 600, hold: 300)
        t.checkpoint("against", at: 1050)
        t.checkpoint("after", at: 2000)
        let r = try replay(t.text, exhibit: "tilt-box")
        let b = box(r, "against")
        #expect(abs(b.x - 70) < 1e-9 && abs(b.y - (Self.start.y - 100)) < 1e-9, "\(b)")
        #expect(b.color == borderColor(r, "against", "left"))
        #expect(box(r, "after").x - 50 >= 20)
    }

    /// A realistic shake: 0.6 s of ±20 m/s² along x at 50 Hz. One shake, one colour change.
    func shake(_ t: inout TraceBuilder, at t0: Double) {
        for k in 0..<30 {
            t.accel(k % 2 == 0 ? 20 : -20, 0, 9.81, at: t0 + Double(k) * 20)
        }
    }

    @Test func shakeChangesTheBackgroundOncePerShake() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 980)
        t.checkpoint("before", at: 900)
        shake(&t, at: 1000)
        t.hold(accel: Self.flat, from: 1600, to: 3980)
        t.checkpoint("after-one", at: 3000)
        shake(&t, at: 4000)
        t.hold(accel: Self.flat, from: 4600, to: 6000)
        t.checkpoint("after-two", at: 6000)
        let r = try replay(t.text, exhibit: "tilt-box", seed: 5)
        let b0 = r.string(r.states["before"]?["background"]), b1 = r.string(r.states["after-one"]?["background"])
        let b2 = r.string(r.states["after-two"]?["background"])
        #expect(b0 == "#F2F2F7")
        #expect(b1 != b0 && b2 != b1 && b1 != nil && b2 != nil)
        #expect(r.states["after-one"]?["shakes"] == .int(1))
        #expect(r.states["after-two"]?["shakes"] == .int(2))
        #expect(r.string(r.states["after-one"]?["backgroundSource"]) == "shake")
        #expect(pixel(r, "after-one", Vec2(60, 140)) == b1)
        // Seeded: the same seed gives the same colours.
        let again = try replay(t.text, exhibit: "tilt-box", seed: 5)
        #expect(again.string(again.states["after-two"]?["background"]) == b2)
    }

    func pressureRamp(_ t: inout TraceBuilder, from p0: Double, to p1: Double, start: Double, end: Double, until: Double) {
        var time = 0.0
        while time <= until {
            let f = min(max((time - start) / (end - start), 0), 1)
            t.pressure(p0 + (p1 - p0) * f, at: time)
            time += 100
        }
    }

    func grey(_ r: ReplayResult, _ cp: String) -> Int? {
        guard let hex = r.string(r.states[cp]?["background"]), let c = Color(hex: hex), c.r == c.g, c.g == c.b else { return nil }
        return Int(c.r)
    }

    @Test(arguments: [(-1.2, true), (1.2, false)]) func altitudeGreyFollowsHeight(change: Double, darker: Bool) throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 12000)
        // 1.2 kPa less is about 100 m higher; more is lower.
        pressureRamp(&t, from: 101.325, to: 101.325 + change, start: 2000, end: 6000, until: 12000)
        t.checkpoint("start", at: 1500)
        t.checkpoint("end", at: 12000)
        let r = try replay(t.text, exhibit: "tilt-box") { $0.options[TiltBox.exhibitType].set(TiltBox.altitudeGrey, .boolean(true)) }
        let g0 = try #require(grey(r, "start")), g1 = try #require(grey(r, "end"))
        #expect(abs(g0 - 153) <= 2, "level ground is mid grey, got \(g0)")
        if darker { #expect(g1 <= 72, "100 m up: \(g1)") } else { #expect(g1 >= 233, "100 m down: \(g1)") }
        #expect(r.string(r.states["end"]?["backgroundSource"]) == "altitude")
        #expect(pixel(r, "end", Vec2(60, 140)) == r.string(r.states["end"]?["background"]))
    }

    @Test func altitudeGreyIsGradualAndWinsOverAShake() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 980)
        // 5 m up in the first seconds (~0.06 kPa), then a shake.
        pressureRamp(&t, from: 101.325, to: 101.265, start: 500, end: 2000, until: 9000)
        t.checkpoint("up-5m", at: 6000)
        shake(&t, at: 6200)
        t.hold(accel: Self.flat, from: 6800, to: 9000)
        t.checkpoint("shaken", at: 9000)
        let r = try replay(t.text, exhibit: "tilt-box") { $0.options[TiltBox.exhibitType].set(TiltBox.altitudeGrey, .boolean(true)) }
        let g = try #require(grey(r, "up-5m"))
        #expect(g > 80 && g < 140, "5 m up is between mid and dark grey: \(g)")
        #expect(r.states["shaken"]?["shakes"] == .int(1))
        // Still the altitude's grey (it may have settled by a level), not a shake colour.
        let after = try #require(grey(r, "shaken"))
        #expect(abs(after - g) <= 1)
    }

    @Test func withoutTheOptionPressureLeavesTheBackgroundAlone() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 8000)
        pressureRamp(&t, from: 101.325, to: 100.125, start: 1000, end: 3000, until: 8000)
        t.checkpoint("end", at: 8000)
        let r = try replay(t.text, exhibit: "tilt-box")
        #expect(r.string(r.states["end"]?["background"]) == "#F2F2F7")
    }

    @Test func scalesTo720x1280() throws {
        var t = TraceBuilder()
        t.hold(accel: Self.flat, from: 0, to: 400)
        // Right edge down only: the same story horizontally, 1.5 times larger.
        t.hold(accel: Vec3(-9.81, 0, 0), from: 420, to: 3000)
        for k in 0...12 { t.checkpoint("c\(k)", at: 400 + Double(k) * 50) }
        t.checkpoint("end", at: 3000)
        let small = try replay(t.text, exhibit: "tilt-box", width: 480, height: 800)
        let large = try replay(t.text, exhibit: "tilt-box", width: 720, height: 1280)
        // Vertically, both sit in the middle of their area below the home control.
        let topSmall = top(small, "c0"), topLarge = top(large, "c0")
        for k in 0...12 {
            let a = box(small, "c\(k)"), b = box(large, "c\(k)")
            #expect(abs(b.side - 1.5 * a.side) < 1e-9)
            #expect(abs(b.x - 1.5 * a.x) < 1e-6, "c\(k): \(a.x) vs \(b.x)")
            #expect(abs((b.y - topLarge) / (1280 - topLarge) - (a.y - topSmall) / (800 - topSmall)) < 1e-9)
        }
        let end = box(large, "end")
        #expect(abs(end.x - (720 - 30 - 75)) < 1e-9 && abs(end.y - (topLarge + 1280) / 2) < 1e-9)
        #expect(end.color == box(small, "end").color)
    }
}

extension TiltBoxTests {
    /// The attract loop's demo does what it shows (no accelerometer: the box rests on the
    /// bottom border): a double tap makes it round, a drag lifts it, it falls back, a long
    /// press makes it square again.
    @Test func demoTracePlaysAsIntended() throws {
        var t = TraceBuilder()
        t.lines = TiltBox.demoTrace.split(separator: "\n").map(String.init)
        t.checkpoint("resting", at: 1400)
        t.checkpoint("round", at: 2500)
        t.checkpoint("lifted", at: 3800)
        t.checkpoint("fallen", at: 5800)
        t.checkpoint("square", at: 7500)
        let r = try replay(t.text, exhibit: "tilt-box")
        #expect(abs(box(r, "resting").y - 730) < 3 && box(r, "resting").color == borderColor(r, "resting", "bottom"))
        #expect(box(r, "round").shape == "circle")
        #expect(box(r, "lifted").y < 320 && box(r, "lifted").shape == "circle")
        #expect(box(r, "fallen").y == 730)
        #expect(box(r, "square").shape == "square" && box(r, "square").x == 180)
        #expect(!r.app.isAnimating)
    }
}
