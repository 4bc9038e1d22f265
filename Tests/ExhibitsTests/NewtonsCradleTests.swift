import Testing
import Diagnostics
import Geometry
import Gestures
@testable import Exhibits

/// Replay tests for newtons-cradle (issue 7, item 3). At 480 wide the balls (radius 24) hang
/// 190 px below anchors at y 280, centred on x 143, 191.5, 240, 288.5, 337.
@Suite struct NewtonsCradleTests {
    static let rest: [Vec2] = (0..<5).map { Vec2(240 + Double($0 - 2) * 48.5, 470) }
    static let anchorY = 280.0, length = 190.0, radius = 24.0

    func balls(_ r: ReplayResult, _ cp: String) -> [Vec2] {
        r.items(cp).map { Vec2(r.number($0["x"]) ?? .nan, r.number($0["y"]) ?? .nan) }
    }

    func anchors(_ r: ReplayResult, _ cp: String) -> [Vec2] {
        guard case .array(let a)? = r.states[cp]?["anchors"] else { return [] }
        return a.map { Vec2(r.number($0["x"]) ?? .nan, r.number($0["y"]) ?? .nan) }
    }

    func pixel(_ r: ReplayResult, _ cp: String, _ p: Vec2) -> Color {
        Color(rgb: r.frames[cp]!.row32(Int(p.y))[Int(p.x)] & 0xFFFFFF)
    }

    /// Pans ball `index` sideways by `dx` (480-wide pixels, times `s`), holds, and lets go.
    func pull(_ t: inout TraceBuilder, ball index: Int, by dx: Double, at t0: Double, hold: Double, s: Double = 1) {
        let start = Self.rest[index] * s
        t.drag(from: start, to: start + Vec2(dx * s, 0), at: t0, duration: 400, hold: hold)
    }

    /// Square and 3:4 panels: the cradle is scaled to fit the height, so it hangs free and
    /// wholly on screen, centred, below the home control.
    @Test(arguments: [(720, 720), (400, 400), (768, 1024), (600, 800), (600, 1024), (800, 1280), (1080, 1920)])
    func hangsFreeOnScreenOfAnyShape(size: (Int, Int)) throws {
        var t = TraceBuilder()
        t.checkpoint("later", at: 3000)
        let r = try replay(t.text, exhibit: "newtons-cradle", width: size.0, height: size.1)
        let s = min(Double(size.0) / 480, Double(size.1) / 800)
        let b = balls(r, "later"), a = anchors(r, "later")
        #expect(b.count == 5 && a.count == 5)
        guard b.count == 5, a.count == 5 else { return }
        for i in 0..<5 {
            #expect(abs(b[i].x - a[i].x) < 0.2 * s, "ball \(i) hangs straight down: \(b[i]) under \(a[i])")
            #expect(abs(b[i].distance(to: a[i]) - Self.length * s) < 0.2 * s)
            #expect(b[i].y + Self.radius * s <= Double(size.1) && b[i].x - Self.radius * s >= 0 && b[i].x + Self.radius * s <= Double(size.0))
        }
        #expect(abs((b[0].x + b[4].x) / 2 - Double(size.0) / 2) < 0.5, "centred across the width")
        let homeBottom = try #require(r.homeControlBottom("later"))
        #expect(a[0].y - 14 * s >= homeBottom, "the bar is below the home control")
        // The attract demo pulls a ball: its first touch lands on the leftmost ball.
        let first = NewtonsCradle.profile.demoFrames(width: size.0, height: size.1)[0].events[0].position
        #expect(first.distance(to: b[0]) <= Self.radius * s * 1.25)
    }

    @Test(arguments: [(480, 800), (720, 1280)]) func hangsStillWithTinyGaps(size: (Int, Int)) throws {
        let s = Double(size.0) / 480
        var t = TraceBuilder()
        t.checkpoint("start", at: 0)
        t.checkpoint("later", at: 3000)
        let r = try replay(t.text, exhibit: "newtons-cradle", width: size.0, height: size.1)
        #expect(r.items("start").count == 5)
        for item in r.items("start") {
            #expect(r.string(item["shape"]) == "circle")
            #expect(abs(r.number(item["width"])! - 2 * Self.radius * s) < 1e-9)
        }
        for cp in ["start", "later"] {
            let b = balls(r, cp), a = anchors(r, cp)
            for i in 0..<5 {
                #expect(b[i].distance(to: Self.rest[i] * s) < 0.2 * s, "\(cp) ball \(i) at \(b[i])")
                #expect(abs(b[i].distance(to: a[i]) - Self.length * s) < 0.2 * s)
                #expect(abs(b[i].x - a[i].x) < 0.2 * s, "hangs straight down")
            }
            for i in 0..<4 {
                let gap = b[i + 1].x - b[i].x - 2 * Self.radius * s
                #expect(gap > 0 && gap <= 1.5 * s, "\(cp) gap \(i): \(gap)")
            }
        }
        // At rest the world sleeps: no frames, no wakeups.
        #expect(!r.app.isAnimating && r.app.nextDeadline == nil)
        // Drawn: the bar above the anchors, a string between anchor and ball, a shaded ball.
        let a = anchors(r, "later")[2], b = balls(r, "later")[2]
        #expect(pixel(r, "later", Vec2(a.x + 60 * s, a.y - 7 * s)) == Color(rgb: 0x4B3A2E))
        let mid = pixel(r, "later", Vec2(a.x, (a.y + b.y) / 2 - 30 * s))
        #expect(Int(mid.r) + Int(mid.g) + Int(mid.b) < 3 * 170, "string is darker than the background: \(mid)")
        #expect(pixel(r, "later", b + Vec2(0.3, 0.3) * (Self.radius * s)) == Color(rgb: 0xB9C0C8))
        #expect(pixel(r, "later", b + Vec2(0.3, 0.9) * (Self.radius * s)) == Color(rgb: 0x8A929C))
    }

    struct Swing {
        var release: Double
        var lift: [Double]          // height each ball was raised to at release (px)
        var peak: [Double]          // highest rise of each ball after release, first swing
        var maxShift: [Double]      // largest horizontal displacement after release, first swing
        var maxStringError = 0.0
    }

    /// Pulls ball `index` by `dx`, then follows the first swing at 20 ms checkpoints.
    func swing(ball index: Int, by dx: Double, width: Int = 480, height: Int = 800, extra: (inout TraceBuilder) -> Void = { _ in })
        throws -> (Swing, ReplayResult) {
        let s = Double(width) / 480
        var t = TraceBuilder()
        pull(&t, ball: index, by: dx, at: 500, hold: 2000, s: s)
        let release = 500.0 + 400 + 2000
        t.checkpoint("release", at: release - 20)
        var names: [String] = []
        for k in 1...70 { names.append("s\(k)"); t.checkpoint("s\(k)", at: release + 50 + Double(k) * 20) }
        extra(&t)
        let r = try replay(t.text, exhibit: "newtons-cradle", width: width, height: height)
        let rest = Self.rest.map { $0 * s }
        let at = balls(r, "release")
        var sw = Swing(release: release, lift: at.map { rest[0].y - $0.y }, peak: Array(repeating: 0, count: 5),
                       maxShift: Array(repeating: 0, count: 5))
        let a = anchors(r, "release")
        for cp in names + ["release"] {
            let b = balls(r, cp)
            for i in 0..<5 {
                sw.peak[i] = max(sw.peak[i], rest[i].y - b[i].y)
                if cp != "release" { sw.maxShift[i] = max(sw.maxShift[i], abs(b[i].x - rest[i].x)) }
                sw.maxStringError = max(sw.maxStringError, abs(b[i].distance(to: a[i]) - Self.length * s))
            }
        }
        return (sw, r)
    }

    @Test func liftOneAndTheLastOneFliesOut() throws {
        let (sw, r) = try swing(ball: 0, by: -100)
        // A 100 px pull holds the ball about 34° out (tan = 100 / 150): ~32 px up.
        #expect(sw.lift[0] > 25 && sw.lift[0] < 40, "lift \(sw.lift[0])")
        #expect(sw.lift[1...].allSatisfy { abs($0) < 0.5 }, "only ball 0 lifted: \(sw.lift)")
        #expect(r.states["release"]?["pushing"] == .array([.int(0)]))
        // The last ball swings out to nearly the same height; balls 1–3 stay nearly still.
        #expect(sw.peak[4] >= 0.9 * sw.lift[0], "ball 4 rose \(sw.peak[4]) of \(sw.lift[0])")
        for i in 1...3 { #expect(sw.maxShift[i] < 3, "ball \(i) moved \(sw.maxShift[i]) px") }
        #expect(sw.maxShift[4] > 60)
        // Rigid strings.
        #expect(sw.maxStringError < 0.5, "string stretched by \(sw.maxStringError)")
    }

    @Test func liftTwoAndTwoFlyOut() throws {
        // Pulling ball 1 takes ball 0 along (it leans on it).
        let (sw, _) = try swing(ball: 1, by: -100)
        #expect(sw.lift[0] > 5 && sw.lift[1] > 5, "lifts \(sw.lift)")
        #expect(abs(sw.lift[0] - sw.lift[1]) < 0.35 * sw.lift[1], "the two rise together: \(sw.lift)")
        #expect(sw.lift[2...].allSatisfy { abs($0) < 0.5 })
        #expect(sw.peak[3] >= 0.8 * sw.lift[1] && sw.peak[4] >= 0.8 * sw.lift[0], "peaks \(sw.peak) of \(sw.lift)")
        #expect(sw.maxShift[2] < 3, "the middle ball moved \(sw.maxShift[2]) px")
        #expect(sw.maxStringError < 0.5)
    }

    @Test func pullingRightSendsTheFirstBallOutLeft() throws {
        let (sw, _) = try swing(ball: 4, by: 100)
        #expect(sw.lift[4] > 25)
        #expect(sw.peak[0] >= 0.9 * sw.lift[4])
        for i in 1...3 { #expect(sw.maxShift[i] < 3) }
    }

    @Test func aHardPullIsCappedSoTheSwingStaysOnScreen() throws {
        let (sw, r) = try swing(ball: 0, by: -400)
        // At most ~38°: 190 (1 − cos 38°) ≈ 40 px, and the ball's edge stays on screen.
        #expect(sw.lift[0] < 43, "lift \(sw.lift[0])")
        let b = balls(r, "release")[0]
        #expect(b.x - Self.radius >= 0)
    }

    @Test func stillSwingingAfterTenSeconds() throws {
        var names: [String] = []
        let (sw, r) = try swing(ball: 0, by: -100) { t in
            // Ten to twelve seconds after release: a whole period (about 2.8 s) and a half.
            for k in 0...100 { names.append("late\(k)"); t.checkpoint("late\(k)", at: 2900 + 10_000 + Double(k) * 30) }
        }
        var late = 0.0, stringError = 0.0
        let a = anchors(r, "release")
        for cp in names {
            let b = balls(r, cp)
            late = max(late, Self.rest[0].y - b[0].y, Self.rest[4].y - b[4].y)
            for i in 0..<5 { stringError = max(stringError, abs(b[i].distance(to: a[i]) - Self.length)) }
        }
        #expect(late >= 0.4 * sw.lift[0], "after 10 s an end ball still rises \(late) of \(sw.lift[0]) px")
        #expect(stringError < 0.5)
        #expect(r.app.isAnimating)
    }

    @Test func panningBesideTheBallsDoesNothing() throws {
        var t = TraceBuilder()
        t.drag(from: Vec2(240, 650), to: Vec2(100, 650), at: 200, duration: 400, hold: 500)
        t.checkpoint("after", at: 2000)
        let r = try replay(t.text, exhibit: "newtons-cradle")
        for (b, rest) in zip(balls(r, "after"), Self.rest) { #expect(b.distance(to: rest) < 0.2) }
    }

    @Test func scalesTo720x1280() throws {
        let (small, rs) = try swing(ball: 0, by: -100)
        let (large, rl) = try swing(ball: 0, by: -100, width: 720, height: 1280)
        // The same swing, 1.5 times larger, at the same times.
        #expect(abs(large.lift[0] - 1.5 * small.lift[0]) < 1.5, "\(large.lift[0]) vs \(small.lift[0])")
        #expect(abs(large.peak[4] - 1.5 * small.peak[4]) < 2, "\(large.peak[4]) vs \(small.peak[4])")
        for k in stride(from: 5, through: 70, by: 5) {
            for (a, b) in zip(balls(rs, "s\(k)"), balls(rl, "s\(k)")) {
                // Within 3 px at 480 wide: the engine's tolerances (slop, speculative distance)
                // and the pan's 10 px hysteresis are fixed pixels, not scaled.
                #expect(b.distance(to: a * 1.5) < 4.5, "s\(k): \(a) vs \(b)")
            }
        }
        #expect(large.maxStringError < 0.75)
    }

    /// Coming to rest takes about a minute and a half with the low resistance, so this runs the
    /// exhibit on its own without drawing: once still, it stops animating (the kiosk sleeps).
    @Test func comesToRestAndStopsAnimating() throws {
        let gestures = GestureEnvironment()
        let environment = ExhibitEnvironment(width: 480, height: 800, fonts: try FontSet(), log: Log(minimum: .error))
        let cradle = NewtonsCradle(environment: environment, gestures: gestures, random: SeededGenerator(seed: 1))
        // A pull and release, through the exhibit's own gesture handling.
        var time: Microseconds = 0
        func frame(_ phase: TouchPhase, _ p: Vec2) {
            gestures.handle(TouchFrame(time: time, events: [TouchEvent(slot: 0, phase: phase, position: p, time: time)]))
        }
        frame(.down, Self.rest[0])
        for k in 1...24 {
            time += 16_667; cradle.advance(to: time); gestures.advance(to: time)
            frame(.move, Self.rest[0] + Vec2(-100 * Double(k) / 24, 0))
        }
        while time < 2_500_000 { time += 16_667; cradle.advance(to: time); gestures.advance(to: time) }
        frame(.up, Self.rest[0] + Vec2(-100, 0))
        var restedAt: Microseconds?
        var movedAt10s = false
        while time < 400_000_000 {
            time += 16_667
            gestures.advance(to: time)
            cradle.advance(to: time)
            if time > 12_000_000 && time < 14_000_000 && cradle.isAnimating { movedAt10s = true }
            if !cradle.isAnimating { restedAt = time; break }
        }
        #expect(movedAt10s)
        let rested = try #require(restedAt, "still animating after 400 s")
        #expect(rested > 20_000_000)
        let s = cradle.state()
        // Hanging (nearly) straight: the engine lets a pendulum sleep once it moves slower than
        // 5 px/s, which freezes it up to a few pixels off the vertical.
        for (item, rest) in zip(s.items, Self.rest) { #expect(item.center.distance(to: rest) < 4, "\(item.center)") }
        // Asleep stays asleep: more time changes nothing.
        cradle.advance(to: time + 5_000_000)
        #expect(!cradle.isAnimating)
        print("newtons-cradle came to rest \(Double(rested - 2_500_000) / 1e6) s after release")
    }
}

extension NewtonsCradleTests {
    /// The attract loop's demo pulls the left ball out: the right one answers.
    @Test func demoTracePlaysAsIntended() throws {
        var t = TraceBuilder()
        t.lines = NewtonsCradle.demoTrace.split(separator: "\n").map(String.init)
        t.checkpoint("pulled", at: 2100)
        var names: [String] = []
        for k in 0..<60 { names.append("d\(k)"); t.checkpoint("d\(k)", at: 2300 + Double(k) * 25) }
        let r = try replay(t.text, exhibit: "newtons-cradle")
        let lift = Self.rest[0].y - balls(r, "pulled")[0].y
        #expect(lift > 25)
        let peak = names.map { Self.rest[4].y - balls(r, $0)[4].y }.max()!
        #expect(peak > 0.85 * lift, "\(peak) of \(lift)")
    }
}
