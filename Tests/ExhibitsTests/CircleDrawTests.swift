import Testing
import Geometry
import Raster
import Sensors
@testable import Exhibits

/// Replay tests for circle-draw (issue 7 item 4), one per behaviour. Sizes are given for a
/// 480 px wide screen and multiplied by `s` where a test also runs at 720×1280.
@Suite struct CircleDrawTests {
    static let sizes = [(480, 800), (720, 1280)]
    static let flat = Vec3(0, 0, 9.81)

    struct Circle { var id: Int; var center: Vec2; var diameter: Double; var color: String }

    func circles(_ r: ReplayResult, _ cp: String) -> [Circle] {
        r.items(cp).map { item in
            Circle(id: Int(r.number(item["id"])!), center: Vec2(r.number(item["x"])!, r.number(item["y"])!),
                   diameter: r.number(item["width"])!, color: r.string(item["color"])!)
        }
    }
    func circle(_ r: ReplayResult, _ cp: String, id: Int) -> Circle? { circles(r, cp).first { $0.id == id } }

    /// A control's centre and whether it is selected, from the state.
    func control(_ r: ReplayResult, _ cp: String, _ id: String) -> (center: Vec2, size: Vec2, selected: Bool)? {
        guard case .array(let controls)? = r.states[cp]?["controls"] else { return nil }
        for c in controls where r.string(c["id"]) == id {
            guard case .bool(let selected)? = c["selected"] else { return nil }
            return (Vec2(r.number(c["x"])!, r.number(c["y"])!), Vec2(r.number(c["width"])!, r.number(c["height"])!), selected)
        }
        return nil
    }
    func selected(_ r: ReplayResult, _ cp: String, among ids: [String]) -> [String] {
        ids.filter { control(r, cp, $0)?.selected == true }
    }

    /// Layout of the 480-wide screen, scaled: the mode buttons and the colour swatches.
    struct Layout {
        var s: Double
        var width: Double, height: Double
        var barTop: Double { height - (80 * s).rounded() }
        func mode(_ i: Int) -> Vec2 {
            let pad = (8 * s).rounded()
            let segment = (width - 2 * pad) / 3
            return Vec2(pad + (Double(i) + 0.5) * segment, barTop + (80 * s).rounded() / 2)
        }
        var draw: Vec2 { mode(0) }
        var delete: Vec2 { mode(1) }
        var move: Vec2 { mode(2) }
        func swatch(_ i: Int) -> Vec2 {
            let pad = (8 * s).rounded(), side = (64 * s).rounded()
            let menuX = (width - (side * 4 + 2 * pad)) / 2
            return Vec2(menuX + pad + (Double(i) + 0.5) * side, barTop - side - pad + pad / 2 + side / 2)
        }
        init(_ size: (Int, Int)) { width = Double(size.0); height = Double(size.1); s = width / 480 }
    }

    func pixel(_ r: ReplayResult, _ cp: String, _ p: Vec2) -> Color {
        let f = r.frames[cp]!
        return Canvas(buffer: f).pixel(x: Int(p.x), y: Int(p.y))!
    }

    /// Draws a circle: down at `center`, out to `radius` (to the right) over 200 ms, lift.
    func drawCircle(_ t: inout TraceBuilder, center: Vec2, radius: Double, at time: Double) {
        t.drag(from: center, to: center + Vec2(radius, 0), at: time, duration: 200, hold: 50)
    }

    // MARK: Modes and menu

    @Test(arguments: sizes) func modeBarSwitchesOneModeAtATimeAndShowsIt(size: (Int, Int)) throws {
        let l = Layout(size)
        var t = TraceBuilder()
        t.checkpoint("start", at: 0)
        t.tap(l.delete, at: 500); t.checkpoint("delete", at: 900)
        t.tap(l.move, at: 1000); t.checkpoint("move", at: 1400)
        t.tap(l.draw, at: 1500); t.checkpoint("draw", at: 1900)
        let r = try replay(t.text, exhibit: "circle-draw", width: size.0, height: size.1)
        let modes = ["mode.draw", "mode.delete", "mode.move"]
        for (cp, mode) in [("start", "draw"), ("delete", "delete"), ("move", "move"), ("draw", "draw")] {
            #expect(r.string(r.states[cp]?["mode"]) == mode)
            #expect(selected(r, cp, among: modes) == ["mode.\(mode)"])
            // The active segment is drawn filled in the accent colour, the others are not.
            for (i, m) in ["draw", "delete", "move"].enumerated() {
                let p = l.mode(i) + Vec2(-40 * l.s, -20 * l.s)
                #expect((pixel(r, cp, p) == Color(rgb: 0x007AFF)) == (m == mode), "\(cp): segment \(m)")
            }
        }
        // The bar keeps clear of the home control (top-left).
        let home = control(r, "start", "home")!
        let bar = control(r, "start", "mode.draw")!
        #expect(bar.center.y - bar.size.y / 2 > home.center.y + home.size.y / 2)
        #expect(bar.size.y >= 48 * l.s)
    }

    @Test func colourMenuSelectsAndCirclesKeepTheirColour() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        t.checkpoint("start", at: 0)
        drawCircle(&t, center: Vec2(120, 150), radius: 40, at: 100)
        t.tap(l.swatch(1), at: 800); t.checkpoint("blue", at: 1100)
        drawCircle(&t, center: Vec2(300, 150), radius: 40, at: 1200)
        t.tap(l.swatch(2), at: 1900)
        drawCircle(&t, center: Vec2(120, 350), radius: 40, at: 2300)
        t.tap(l.swatch(3), at: 3000)
        drawCircle(&t, center: Vec2(300, 350), radius: 40, at: 3400)
        t.checkpoint("drawn", at: 4000)
        t.tap(l.move, at: 4100)
        t.checkpoint("move", at: 4500)
        let r = try replay(t.text, exhibit: "circle-draw")
        let colours = ["color.black", "color.blue", "color.red", "color.green"]
        #expect(r.string(r.states["start"]?["drawColor"]) == "#000000")
        #expect(selected(r, "start", among: colours) == ["color.black"])
        #expect(r.string(r.states["blue"]?["drawColor"]) == "#007AFF")
        #expect(selected(r, "blue", among: colours) == ["color.blue"])
        #expect(selected(r, "drawn", among: colours) == ["color.green"])
        #expect(circles(r, "drawn").map(\.color) == ["#000000", "#007AFF", "#FF3B30", "#34C759"])
        // Drawn as they are listed.
        #expect(pixel(r, "drawn", Vec2(120, 150)) == .black)
        #expect(pixel(r, "drawn", Vec2(300, 150)) == Color(rgb: 0x007AFF))
        #expect(pixel(r, "drawn", Vec2(120, 350)) == Color(rgb: 0xFF3B30))
        #expect(pixel(r, "drawn", Vec2(300, 350)) == Color(rgb: 0x34C759))
        // The menu shows the choice (a ring round the swatch) and exists only in Draw mode.
        let ringPoint = l.swatch(3) + Vec2(0, 64 * 0.38)
        #expect(pixel(r, "drawn", ringPoint) == Color(rgb: 0x007AFF))
        #expect(pixel(r, "drawn", l.swatch(0)) == .black)
        #expect(pixel(r, "move", l.swatch(0)) == .white)
        #expect(circles(r, "move").map(\.color) == ["#000000", "#007AFF", "#FF3B30", "#34C759"])
    }

    // MARK: Draw

    @Test(arguments: sizes) func radiusFollowsTheFingerLiveAndLiftingFixesIt(size: (Int, Int)) throws {
        let l = Layout(size), s = l.s
        let centre = Vec2(200, 300) * s
        var t = TraceBuilder()
        t.touch("down", centre, t: 100)
        t.checkpoint("down", at: 110)
        for k in 1...30 { t.touch("move", centre + Vec2(Double(k) * 3 * s, Double(k) * 2 * s), t: 100 + Double(k) * 20) }
        t.checkpoint("halfway", at: 400)            // the finger is at k = 15
        t.checkpoint("out", at: 720)                // k = 30, still down
        t.touch("up", centre + Vec2(90, 60) * s, t: 800)
        t.checkpoint("fixed", at: 1000)
        t.touch("down", Vec2(400, 600) * s, t: 1100)   // a second circle, unrelated
        t.touch("move", Vec2(400, 620) * s, t: 1150)
        t.touch("up", Vec2(400, 620) * s, t: 1200)
        t.checkpoint("later", at: 1500)
        let r = try replay(t.text, exhibit: "circle-draw", width: size.0, height: size.1)
        let mid = circles(r, "halfway")
        #expect(mid.count == 1)
        let halfway = (Vec2(45, 30) * s).length
        #expect(abs(mid[0].diameter - 2 * halfway) < 0.01)
        #expect(abs(mid[0].center.x - centre.x) < 0.01 && abs(mid[0].center.y - centre.y) < 0.01)
        let full = (Vec2(90, 60) * s).length
        #expect(abs(circles(r, "out")[0].diameter - 2 * full) < 0.01)
        // While drawn it is a ring: its edge is under the finger, its centre still white.
        #expect(pixel(r, "out", centre) == .white)
        #expect(pixel(r, "out", centre + Vec2(full, 0)) == .black)
        // Lifted: the size is fixed and the disc filled.
        #expect(abs(circles(r, "fixed")[0].diameter - 2 * full) < 0.01)
        #expect(pixel(r, "fixed", centre) == .black)
        let later = circles(r, "later")
        #expect(later.count == 2 && abs(later[0].diameter - 2 * full) < 0.01 && abs(later[1].diameter - 40 * s) < 0.01)
        #expect(Set(later.map(\.id)).count == 2)
    }

    @Test func manyCirclesNoCap() throws {
        var t = TraceBuilder()
        var k = 0
        for row in 0..<12 {
            for col in 0..<10 {
                let c = Vec2(30 + Double(col) * 45, 30 + Double(row) * 55)
                t.drag(from: c, to: c + Vec2(12, 0), at: Double(k) * 120, duration: 40, hold: 20)
                k += 1
            }
        }
        t.checkpoint("end", at: Double(k) * 120 + 200)
        let r = try replay(t.text, exhibit: "circle-draw")
        // The two rows above the safe area (the home control's row: y < 88) draw nothing;
        // every other one is kept.
        let kept = circles(r, "end")
        #expect(kept.count == 100)
        #expect(kept.allSatisfy { $0.center.y >= 88 })
    }

    // MARK: Delete

    @Test(arguments: sizes) func deleteRemovesEveryCircleContainingTheTouch(size: (Int, Int)) throws {
        let l = Layout(size), s = l.s
        var t = TraceBuilder()
        drawCircle(&t, center: Vec2(200, 300) * s, radius: 80 * s, at: 100)    // contains P
        drawCircle(&t, center: Vec2(280, 300) * s, radius: 60 * s, at: 600)    // contains P
        drawCircle(&t, center: Vec2(240, 500) * s, radius: 50 * s, at: 1100)   // does not
        drawCircle(&t, center: Vec2(100, 500) * s, radius: 40 * s, at: 1600)   // does not
        t.checkpoint("drawn", at: 2000)
        t.tap(l.delete, at: 2100)
        t.tap(Vec2(250, 300) * s, at: 2500)
        t.checkpoint("deleted", at: 2800)
        t.tap(Vec2(400, 150) * s, at: 2900)      // nothing there: nothing happens
        t.checkpoint("missed", at: 3200)
        let r = try replay(t.text, exhibit: "circle-draw", width: size.0, height: size.1)
        #expect(circles(r, "drawn").count == 4)
        let left = circles(r, "deleted")
        #expect(left.map(\.id) == circles(r, "drawn").suffix(2).map(\.id))
        #expect(circles(r, "missed").count == 2)
        #expect(pixel(r, "deleted", Vec2(250, 300) * s) == .white)
    }

    // MARK: Move

    /// Velocity over a window of checkpoints `a` → `b` (ms apart).
    func velocity(_ r: ReplayResult, id: Int, _ a: String, _ b: String, ms: Double) -> Vec2 {
        let p0 = circle(r, a, id: id)!.center, p1 = circle(r, b, id: id)!.center
        return (p1 - p0) / (ms / 1000)
    }

    @Test(arguments: sizes) func swipeLaunchesInItsDirectionWithItsSpeed(size: (Int, Int)) throws {
        let l = Layout(size), s = l.s
        var t = TraceBuilder()
        t.hold(accel: CircleDrawTests.flat, from: 0, to: 3000)
        drawCircle(&t, center: Vec2(150, 300) * s, radius: 30 * s, at: 100)
        drawCircle(&t, center: Vec2(330, 500) * s, radius: 30 * s, at: 500)
        drawCircle(&t, center: Vec2(100, 600) * s, radius: 30 * s, at: 900)   // never swiped
        t.tap(l.move, at: 1300)
        let d1 = Vec2(3, -1).normalized, d2 = Vec2(-1, -2).normalized
        // 150 px in 100 ms (1500 px/s) and 150 px in 300 ms (500 px/s), at the same moment.
        t.drag(from: Vec2(150, 300) * s, to: Vec2(150, 300) * s + d1 * 150 * s, at: 1700, duration: 100, id: 0)
        t.drag(from: Vec2(330, 500) * s, to: Vec2(330, 500) * s + d2 * 150 * s, at: 1700, duration: 300, id: 1)
        t.checkpoint("a", at: 1800)
        t.checkpoint("b", at: 1900)
        let r = try replay(t.text, exhibit: "circle-draw", width: size.0, height: size.1)
        let ids = circles(r, "a").map(\.id)
        let fast = velocity(r, id: ids[0], "a", "b", ms: 100)
        let slow = velocity(r, id: ids[1], "a", "b", ms: 100)
        #expect(fast.normalized.dot(d1) > 0.999, "fast direction \(fast)")
        #expect(slow.normalized.dot(d2) > 0.999, "slow direction \(slow)")
        // One physics tick (8.3 ms) of quantisation in a 100 ms window: ±9 %.
        #expect(abs(fast.length / (1500 * s) - 1) < 0.12, "fast speed \(fast.length)")
        #expect(abs(slow.length / (500 * s) - 1) < 0.12, "slow speed \(slow.length)")
        // The other circle stays where it was drawn.
        #expect(circle(r, "b", id: ids[2])!.center == Vec2(100, 600) * s)
        #expect(r.app.isAnimating)
    }

    @Test func swipeOutsideEveryCircleLaunchesNothing() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        t.hold(accel: CircleDrawTests.flat, from: 0, to: 2000)
        drawCircle(&t, center: Vec2(150, 300), radius: 30, at: 100)
        t.tap(l.move, at: 500)
        t.swipe(from: Vec2(300, 300), direction: Vec2(-1, 0), at: 900)
        t.checkpoint("end", at: 1500)
        let r = try replay(t.text, exhibit: "circle-draw")
        #expect(circles(r, "end")[0].center == Vec2(150, 300))
        #expect(!r.app.isAnimating)
    }

    @Test(arguments: [Vec2(1, -1), Vec2(1, 0), Vec2(2, 1)])
    func edgesReflectAngleInEqualsAngleOutWithLoss(direction: Vec2) throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        t.hold(accel: CircleDrawTests.flat, from: 0, to: 3000)
        let start = Vec2(200, direction.y < 0 ? 600 : 300)
        drawCircle(&t, center: start, radius: 25, at: 100)
        t.tap(l.move, at: 500)
        // About 1000 px/s toward the right edge (x = 480): it hits it after ~230 px of x.
        t.drag(from: start, to: start + direction.normalized * 100, at: 900, duration: 100)
        t.checkpoint("in0", at: 1050); t.checkpoint("in1", at: 1150)
        t.checkpoint("out0", at: 1600); t.checkpoint("out1", at: 1700)
        let r = try replay(t.text, exhibit: "circle-draw")
        let id = circles(r, "in0")[0].id
        let vin = velocity(r, id: id, "in0", "in1", ms: 100)
        let vout = velocity(r, id: id, "out0", "out1", ms: 100)
        #expect(vin.x > 0 && vout.x < 0, "in \(vin) out \(vout)")
        // Angle to the edge's normal (x axis) in and out: equal.
        let angleIn = atan2d(abs(vin.y), abs(vin.x)), angleOut = atan2d(abs(vout.y), abs(vout.x))
        #expect(abs(angleIn - angleOut) < 0.01, "in \(angleIn) out \(angleOut)")
        #expect((vin.y >= 0) == (vout.y >= 0) || abs(vin.y) < 1)
        // Some speed is lost (0.8 kept), within a tick's quantisation.
        let kept = vout.length / vin.length
        #expect(kept > 0.7 && kept < 0.9, "kept \(kept)")
        // Never outside the drawing area.
        for cp in ["in0", "in1", "out0", "out1"] {
            let c = circle(r, cp, id: id)!
            #expect(c.center.x + c.diameter / 2 <= 480.001 && c.center.x - c.diameter / 2 >= -0.001)
        }
    }

    @Test func collisionsConserveMomentumByMass() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        t.hold(accel: CircleDrawTests.flat, from: 0, to: 3000)
        drawCircle(&t, center: Vec2(320, 300), radius: 60, at: 100)    // big: mass ∝ 3600
        drawCircle(&t, center: Vec2(100, 300), radius: 20, at: 500)    // small: mass ∝ 400
        t.tap(l.move, at: 900)
        t.drag(from: Vec2(100, 300), to: Vec2(140, 300), at: 1300, duration: 60)   // ~670 px/s at the big one
        t.checkpoint("before0", at: 1380); t.checkpoint("before1", at: 1430)
        t.checkpoint("after0", at: 1700); t.checkpoint("after1", at: 1750)
        let r = try replay(t.text, exhibit: "circle-draw")
        let big = circles(r, "before0")[0].id, small = circles(r, "before0")[1].id
        let mBig = 3600.0, mSmall = 400.0
        let vSmallIn = velocity(r, id: small, "before0", "before1", ms: 50)
        #expect(velocity(r, id: big, "before0", "before1", ms: 50) == .zero)
        let vSmallOut = velocity(r, id: small, "after0", "after1", ms: 50)
        let vBigOut = velocity(r, id: big, "after0", "after1", ms: 50)
        #expect(vSmallIn.x > 300)
        // Head on, along the line of centres: the light one bounces back, the heavy one goes.
        #expect(vSmallOut.x < 0 && vBigOut.x > 0)
        #expect(abs(vSmallOut.y) < 1 && abs(vBigOut.y) < 1)
        let before = mSmall * vSmallIn.x, after = mSmall * vSmallOut.x + mBig * vBigOut.x
        #expect(abs(after - before) / before < 0.02, "momentum \(before) → \(after)")
        // Elastic-ish: some energy goes, none is made.
        let eIn = mSmall * vSmallIn.lengthSquared, eOut = mSmall * vSmallOut.lengthSquared + mBig * vBigOut.lengthSquared
        #expect(eOut < eIn && eOut > 0.7 * eIn)
    }

    @Test func obliqueCollisionPushesAlongTheLineOfCentres() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        t.hold(accel: CircleDrawTests.flat, from: 0, to: 3000)
        drawCircle(&t, center: Vec2(300, 330), radius: 30, at: 100)    // hit off-centre
        drawCircle(&t, center: Vec2(100, 300), radius: 30, at: 500)
        t.tap(l.move, at: 900)
        t.drag(from: Vec2(100, 300), to: Vec2(140, 300), at: 1300, duration: 60)
        t.checkpoint("after0", at: 1700); t.checkpoint("after1", at: 1750)
        let r = try replay(t.text, exhibit: "circle-draw")
        let target = circles(r, "after0")[0].id, mover = circles(r, "after0")[1].id
        let v = velocity(r, id: target, "after0", "after1", ms: 50)
        // At contact the centres are 60 apart, 30 apart in y: the line of centres is 30° down.
        let expected = Vec2(3.0.squareRoot() / 2, 0.5)
        #expect(v.length > 50 && v.normalized.dot(expected) > 0.999, "target \(v)")
        // Equal masses: the mover keeps the part across the line of centres.
        let w = velocity(r, id: mover, "after0", "after1", ms: 50)
        #expect(w.y < 0 && w.x > 0)
    }

    @Test func tiltAcceleratesMovingCirclesGradually() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        // Tilted so that the bottom is lower: 0.25 g in the screen plane, pulling down.
        t.hold(accel: Vec3(0, 9.81 * 0.25, 9.5), from: 0, to: 6000)
        drawCircle(&t, center: Vec2(240, 640), radius: 30, at: 100)
        drawCircle(&t, center: Vec2(100, 200), radius: 30, at: 500)      // never swiped
        t.tap(l.move, at: 900)
        // Flung upward at ~500 px/s, against the tilt.
        t.drag(from: Vec2(240, 640), to: Vec2(240, 490), at: 1300, duration: 300)
        t.checkpoint("a0", at: 1800); t.checkpoint("a1", at: 1900)
        t.checkpoint("b0", at: 2600); t.checkpoint("b1", at: 2700)
        t.checkpoint("c0", at: 4200); t.checkpoint("c1", at: 4300)
        let r = try replay(t.text, exhibit: "circle-draw")
        let id = circles(r, "a0")[0].id, still = circles(r, "a0")[1].id
        let va = velocity(r, id: id, "a0", "a1", ms: 100)
        let vb = velocity(r, id: id, "b0", "b1", ms: 100)
        let vc = velocity(r, id: id, "c0", "c1", ms: 100)
        // Still going up 0.8 s later (the tilt does not turn it round at once) …
        #expect(va.y < -250 && vb.y < 0, "a \(va) b \(vb)")
        // … slowed at the tilt's acceleration, 250 px/s² (a slight tilt, a slight push) …
        let accel = (vb.y - va.y) / 0.8
        #expect(abs(accel - 250) < 30, "acceleration \(accel)")
        // … and later falling toward the lower edge.
        #expect(vc.y > 0, "c \(vc)")
        #expect(abs(va.x) < 1 && abs(vc.x) < 1)
        // A circle that was never set in motion does not slide.
        #expect(circle(r, "c1", id: still)!.center == Vec2(100, 200))
    }

    @Test func sidewaysTiltBendsThePath() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        // Right edge down (−9.81 x in the screen frame) by 0.2 g.
        t.hold(accel: Vec3(-9.81 * 0.2, 0, 9.6), from: 0, to: 3000)
        drawCircle(&t, center: Vec2(240, 600), radius: 25, at: 100)
        t.tap(l.move, at: 500)
        t.drag(from: Vec2(240, 600), to: Vec2(240, 500), at: 900, duration: 200)
        t.checkpoint("a0", at: 1150); t.checkpoint("a1", at: 1200)
        t.checkpoint("b0", at: 1450); t.checkpoint("b1", at: 1500)
        let r = try replay(t.text, exhibit: "circle-draw")
        let id = circles(r, "a0")[0].id
        let va = velocity(r, id: id, "a0", "a1", ms: 50), vb = velocity(r, id: id, "b0", "b1", ms: 50)
        #expect(abs((vb.x - va.x) / 0.3 - 200) < 40, "x acceleration \((vb.x - va.x) / 0.3)")
        #expect(abs(vb.y - va.y) < 10)
    }

    // MARK: Still outside Move

    @Test func circlesStandStillInDrawAndDeleteAndResumeInMove() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        t.hold(accel: CircleDrawTests.flat, from: 0, to: 4000)
        drawCircle(&t, center: Vec2(100, 300), radius: 25, at: 100)
        t.tap(l.move, at: 500)
        t.drag(from: Vec2(100, 300), to: Vec2(140, 300), at: 900, duration: 100)   // ~400 px/s right
        t.checkpoint("moving", at: 1100)
        t.tap(l.draw, at: 1150)
        t.checkpoint("draw0", at: 1400); t.checkpoint("draw1", at: 2000)
        t.tap(l.delete, at: 2100)
        t.checkpoint("delete0", at: 2400); t.checkpoint("delete1", at: 3000)
        t.tap(l.move, at: 3100)
        t.checkpoint("resumed0", at: 3400); t.checkpoint("resumed1", at: 3500)
        let r = try replay(t.text, exhibit: "circle-draw")
        let id = circles(r, "moving")[0].id
        #expect(circle(r, "draw0", id: id)!.center == circle(r, "draw1", id: id)!.center)
        #expect(circle(r, "delete0", id: id)!.center == circle(r, "delete1", id: id)!.center)
        #expect(circle(r, "draw1", id: id)!.center == circle(r, "delete1", id: id)!.center)
        // Back in Move mode it carries on with the velocity it had.
        let v = velocity(r, id: id, "resumed0", "resumed1", ms: 100)
        #expect(v.x > 300 && abs(v.y) < 1, "resumed \(v)")
    }

    @Test func drawnCirclesDoNotFallAndTheKioskSleepsAtRest() throws {
        let l = Layout((480, 800))
        var t = TraceBuilder()
        // Upright: gravity straight down the screen.
        t.hold(accel: Vec3(0, 9.81, 0), from: 0, to: 20000)
        drawCircle(&t, center: Vec2(240, 200), radius: 40, at: 100)
        t.checkpoint("drawn", at: 1000)
        t.tap(l.move, at: 1100)
        t.checkpoint("move-mode", at: 2000)
        t.swipe(from: Vec2(240, 200), direction: Vec2(1, 0), at: 2100)
        t.checkpoint("settled0", at: 18000); t.checkpoint("settled1", at: 20000)
        let r = try replay(t.text, exhibit: "circle-draw")
        let c = circles(r, "drawn")[0]
        #expect(circle(r, "move-mode", id: c.id)!.center == c.center)
        // Launched, it falls to the bar, bounces, slides and stops there: nothing moves.
        let a = circle(r, "settled0", id: c.id)!, b = circle(r, "settled1", id: c.id)!
        #expect(a.center == b.center)
        #expect(abs(a.center.y + 40 - l.barTop) < 1, "rests on the bar: \(a.center)")
        #expect(!r.app.isAnimating)
    }

    @Test(arguments: sizes) func attractLoopPlaysTheDemoAtAnySize(size: (Int, Int)) throws {
        var t = TraceBuilder()
        t.checkpoint("demo", at: 1000 + 4900)
        let r = try replay(t.text, exhibit: "launcher", width: size.0, height: size.1) { settings in
            settings.order = ["circle-draw"]
            settings.attractAfter = 1_000_000
        }
        #expect(r.string(r.states["demo"]?["attract"]) == "circle-draw")
        #expect(r.string(r.states["demo"]?["mode"]) == "move")
        #expect(Set(circles(r, "demo").map(\.color)) == ["#000000", "#007AFF"])
    }

    @Test func demoDrawsTwoColoursAndSetsTwoMoving() throws {
        var t = TraceBuilder()
        for line in CircleDraw.demoTrace.split(separator: "\n").dropFirst() { t.lines.append(String(line)) }
        t.checkpoint("drawn", at: 3900)
        t.checkpoint("flung", at: 4800)
        t.checkpoint("later", at: 4900)
        let r = try replay(t.text, exhibit: "circle-draw")
        let drawn = circles(r, "drawn")
        #expect(drawn.count >= 4 && Set(drawn.map(\.color)).count == 2)
        #expect(r.string(r.states["flung"]?["mode"]) == "move")
        let moved = zip(circles(r, "flung"), circles(r, "later")).filter { $0.center != $1.center }
        #expect(moved.count >= 2)
    }
}
