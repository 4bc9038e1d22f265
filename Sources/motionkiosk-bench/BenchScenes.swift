// The frame bench's scenes (motionkiosk-bench frame): each built by touches through the app on
// a BenchStage, as a visitor builds it, plus the state-dump readers the builders steer by.
import Exhibits
import Geometry

/// Touches fed to the app at given virtual times.
struct TouchScript {
    private(set) var frames: [TouchFrame] = []
    mutating func add(_ time: Microseconds, _ events: [TouchEvent]) { frames.append(TouchFrame(time: time, events: events)) }
    mutating func tap(_ p: Vec2, at t: Microseconds) {
        add(t, [TouchEvent(slot: 0, phase: .down, position: p, time: t)])
        add(t + 40_000, [TouchEvent(slot: 0, phase: .up, position: p, time: t + 40_000)])
    }
}

/// The exhibits the frame benchmark has a scene for (their profiles' `benchScene`).
var exhibitsWithBenchScenes: [ExhibitType] { ExhibitRegistry.all.filter { $0.profile.benchScene != nil } }

/// The scenes built by a touch script of their own (`BenchScene.script`), by script name.
func scriptedCase(_ script: String, exhibit: ExhibitType, width: Int, height: Int, upright: Bool) -> FrameCase? {
    switch script {
    case "shape-pile": return motionCubeCase(exhibit, width: width, height: height)
    case "circles": return circleDrawCase(exhibit, width: width, height: height, seed: 7, upright: upright)
    default: return nil
    }
}

/// One benchmark case: how to build the scene through touches.
struct FrameCase {
    var exhibit: ExhibitType
    /// Builds the scene; returns the time the measured frames start at.
    var build: (BenchStage, Microseconds) -> Microseconds
    /// Fields for the JSON line describing the scene.
    var describe: (KioskApp) -> String
}

/// Feeds `script` to the app at its times, the stand's frames drawn between its touches.
func play(_ script: TouchScript, on stage: BenchStage) {
    for f in script.frames.sorted(by: { $0.time < $1.time }) { stage.handle(f) }
}

func itemCount(_ app: KioskApp) -> Int {
    if case .array(let items)? = app.state()["items"] { return items.count }
    return 0
}

/// Centre of a control of the current state, by id.
func controlCenter(_ app: KioskApp, _ id: String) -> Vec2? {
    guard case .array(let controls)? = app.state()["controls"] else { return nil }
    for c in controls where c["id"] == .string(id) {
        if case .number(let x)? = c["x"], case .number(let y)? = c["y"] { return Vec2(x, y) }
    }
    return nil
}

/// Item positions by id, to count what moved between two moments.
func itemPositions(_ app: KioskApp) -> [Int: Vec2] {
    var out: [Int: Vec2] = [:]
    guard case .array(let items)? = app.state()["items"] else { return out }
    for item in items {
        guard case .int(let id)? = item["id"] else { continue }
        var p = Vec2.zero
        if case .number(let x)? = item["x"] { p.x = x }
        if case .number(let y)? = item["y"] { p.y = y }
        out[id] = p
    }
    return out
}

/// motion-cube: 40 shapes falling, colliding and bouncing when the frames start. A pile of
/// 100 px shapes fills a 480×800 screen at about 30, so each new shape is pinched to 70 % of
/// its birth size as a visitor would (one finger holds it, a second closes in) and let go:
/// 40 then fit. Taps land on free spots only (a tap on a shape grabs it instead).
func motionCubeCase(_ exhibit: ExhibitType, width: Int, height: Int) -> FrameCase {
    FrameCase(exhibit: exhibit, build: { stage, start in
        let app = stage.app
        var t = start
        let s = Double(width) / 480
        let spots = (0..<24).map { k in Vec2((70 + Double(k % 4) * 113) * s, (130 + Double(k / 4) * 90) * s) }
        var k = 0, blocked = 0
        // Until 40 shapes, or until the pile leaves no free spot for half a second.
        while itemCount(app) < 40, blocked < 5 {
            let boxes = itemBoxes(app).map { Rect(center: $0.center, width: $0.side * 1.2, height: $0.side * 1.2) }
            blocked += 1
            for _ in 0..<spots.count {
                let p = spots[k % spots.count]
                k += 1
                if boxes.contains(where: { $0.contains(p) }) { continue }
                let before = Set(itemBoxes(app).map { $0.id })
                var script = TouchScript()
                script.tap(p, at: t)
                play(script, on: stage)
                t += 100_000
                stage.run(until: t)
                if let born = itemBoxes(app).first(where: { !before.contains($0.id) }) {
                    t = pinch(born, to: 0.7, on: stage, at: t)
                }
                blocked = 0
                break
            }
            t += 100_000
            stage.run(until: t)
        }
        return t
    }, describe: { app in
        let sides = itemBoxes(app).map { $0.side }
        let meanSide = sides.isEmpty ? 0 : sides.reduce(0, +) / Double(sides.count)
        return #""shapes":\#(itemCount(app)),"mean_side_px":\#(Int(meanSide.rounded()))"#
    })
}

/// An exhibit's own attract demo on this screen, played up to its `release`-th lift of a
/// finger; the measured frames are what follows (a box falling back, balls swinging, a block
/// sliding), as a visitor watching the attract loop sees it.
func demoCase(_ exhibit: ExhibitType, width: Int, height: Int, release: Int, what: String) -> FrameCase {
    let frames = exhibit.demoFrames(width: width, height: height)
    return FrameCase(exhibit: exhibit, build: { stage, start in
        var lifts = 0
        for frame in frames {
            let t = start + frame.time
            var f = frame
            f.time = t
            for i in f.events.indices { f.events[i].time = t }
            stage.handle(f)
            if f.events.contains(where: { $0.phase == .up }) {
                lifts += 1
                if lifts == release { return t }
            }
        }
        return start + (frames.last?.time ?? 0)
    }, describe: { app in
        #""scene":"\#(what)","items":\#(itemCount(app))"#
    })
}

/// An item's id, centre and larger side, from the state dump.
struct ItemBox {
    var id: Int
    var center: Vec2
    var side: Double
}

func itemBoxes(_ app: KioskApp) -> [ItemBox] {
    guard case .array(let items)? = app.state()["items"] else { return [] }
    return items.compactMap { item in
        guard case .int(let id)? = item["id"], case .number(let x)? = item["x"], case .number(let y)? = item["y"],
              case .number(let w)? = item["width"], case .number(let h)? = item["height"] else { return nil }
        return ItemBox(id: id, center: Vec2(x, y), side: max(w, h))
    }
}

/// Two fingers on `item`, the second closing in until the pinch has scaled it by `factor`,
/// then both lifted. Returns the time after the lift's debounce.
func pinch(_ item: ItemBox, to factor: Double, on stage: BenchStage, at start: Microseconds) -> Microseconds {
    var script = TouchScript()
    let c = item.center, reach = item.side * 0.4
    let steps = 6
    var t = start
    script.add(t, [TouchEvent(slot: 0, phase: .down, position: c, time: t)])
    t += 20_000
    script.add(t, [TouchEvent(slot: 1, phase: .down, position: c + Vec2(reach, 0), time: t)])
    for step in 1...steps {
        t += 16_667
        let d = reach * (1 - (1 - factor) * Double(step) / Double(steps))
        script.add(t, [TouchEvent(slot: 0, phase: .move, position: c, time: t),
                       TouchEvent(slot: 1, phase: .move, position: c + Vec2(d, 0), time: t)])
    }
    t += 16_667
    script.add(t, [TouchEvent(slot: 0, phase: .up, position: c, time: t),
                   TouchEvent(slot: 1, phase: .up, position: c + Vec2(reach * factor, 0), time: t)])
    play(script, on: stage)
    return t + 100_000
}

/// circle-draw: 1000 circles drawn in the four colours, Move mode, 100 of them flung by
/// swipes (ten fingers at a time), as the issue's case "1000 circles, 100 of them moving".
/// The 100 (radius 12) sit ten to a lane in ten horizontal lanes spread over the drawing area
/// and are flung left or right; the 900 still ones (radius 5–9) are scattered between the
/// lanes, clear of them. With the stand lying flat (no tilt) a horizontal fling stays in its
/// lane: movers bounce off the side edges and off each other head-on, and never knock a still
/// circle, so exactly 100 move in every measured frame while 900 stay on screen, still.
/// The movers are drawn last, so each is the topmost circle under its own centre.
func circleDrawCase(_ exhibit: ExhibitType, width: Int, height: Int, seed: UInt64, upright: Bool) -> FrameCase {
    FrameCase(exhibit: exhibit, build: { stage, start in
        let app = stage.app
        var random = SeededGenerator(seed: seed)
        let s = Double(width) / 480
        var t = start
        var script = TouchScript()
        func drawCircle(_ c: Vec2, _ r: Double) {
            script.add(t, [TouchEvent(slot: 0, phase: .down, position: c, time: t)])
            script.add(t + 20_000, [TouchEvent(slot: 0, phase: .move, position: c + Vec2(r, 0), time: t + 20_000)])
            script.add(t + 40_000, [TouchEvent(slot: 0, phase: .up, position: c + Vec2(r, 0), time: t + 40_000)])
            t += 100_000
        }
        let colours = ["color.black", "color.blue", "color.red", "color.green"].compactMap { controlCenter(app, $0) }
        guard colours.count == 4, let move = controlCenter(app, "mode.move") else { return t }
        // The drawing area below the home control and above the colour menu.
        let top = 100 * s, bottom = Double(height) - 180 * s
        let lanes = 10, perLane = 10
        let pitch = (bottom - top) / Double(lanes)
        let moverRadius = 12 * s, clearance = 2 * s
        func laneY(_ k: Int) -> Double { top + (Double(k) + 0.5) * pitch }
        for i in 0..<900 {
            if i % 225 == 0 { script.tap(colours[i / 225], at: t); t += 100_000 }
            let r = (5 + random.unit() * 4) * s
            var c = Vec2.zero
            repeat {
                c = Vec2(random.unit() * Double(width), top + random.unit() * (bottom - top))
            } while (0..<lanes).contains { abs(c.y - laneY($0)) < moverRadius + r + clearance }
            drawCircle(c, r)
        }
        var movers: [Vec2] = []
        let cellW = Double(width) / Double(perLane)
        for lane in 0..<lanes {
            for col in 0..<perLane {
                let c = Vec2((Double(col) + 0.5) * cellW, laneY(lane))
                movers.append(c)
                drawCircle(c, moverRadius)
            }
        }
        // The stand lying flat, so that the flung circles slide in their lanes (`--upright`
        // for the default gravity: they then fall and knock others, and the JSON says so).
        if !upright { app.motion(gravity: .zero, altitude: nil) }
        script.tap(move, at: t); t += 200_000
        // Swipes: 60 px in 100 ms (≈600 px/s), left or right at random (inward at the ends, so
        // the finger stays on the screen), one lane of ten fingers at a time.
        for lane in 0..<lanes {
            var fingers: [(Vec2, Vec2)] = []
            for k in 0..<perLane {
                let p = movers[lane * perLane + k]
                var dx = random.unit() < 0.5 ? -60 * s : 60 * s
                if p.x + dx < 0 || p.x + dx > Double(width) { dx = -dx }
                fingers.append((p, Vec2(dx, 0)))
            }
            for step in 0...7 {
                let time = t + Microseconds(step) * 16_667
                let phase: TouchPhase = step == 0 ? .down : (step == 7 ? .up : .move)
                let f = Double(min(step, 6)) / 6
                script.add(time, fingers.enumerated().map { k, finger in
                    TouchEvent(slot: k, phase: phase, position: finger.0 + finger.1 * f, time: time)
                })
            }
            // Past the lifts' 45 ms debounce before the same slots go down again (a new touch
            // sooner would read as the old finger bouncing, and its swipe would not end).
            t += 250_000
        }
        play(script, on: stage)
        return t
    }, describe: { app in #""circles":\#(itemCount(app))"# })
}
