import Testing
import Geometry
import Trace
import Sensors
@testable import Exhibits

/// Replay tests for tilt-maze: its state dump, tilt and drag, drawing, and its demo.
@Suite struct TiltMazeTests {
    static let flat = Vec3(0, 0, 9.81)

    struct Ball { var x: Double, y: Double, r: Double }

    func ball(_ r: ReplayResult, _ cp: String) -> Ball {
        let b = r.states[cp]?["ball"]
        return Ball(x: r.number(b?["x"]) ?? .nan, y: r.number(b?["y"]) ?? .nan, r: r.number(b?["r"]) ?? .nan)
    }
    func rect(_ r: ReplayResult, _ v: JSONValue?) -> PixelRect? {
        guard case .array(let a)? = v, a.count == 4 else { return nil }
        let n = a.compactMap { r.number($0) }.map { Int($0) }
        return n.count == 4 ? PixelRect(x: n[0], y: n[1], width: n[2], height: n[3]) : nil
    }
    func walls(_ r: ReplayResult, _ cp: String) -> [PixelRect] {
        guard case .array(let a)? = r.states[cp]?["walls"] else { return [] }
        return a.compactMap { rect(r, $0) }
    }
    func int(_ r: ReplayResult, _ cp: String, _ key: String) -> Int? { r.number(r.states[cp]?[key]).map { Int($0) } }
    func pixel(_ r: ReplayResult, _ cp: String, _ x: Int, _ y: Int) -> String {
        Color(rgb: r.frames[cp]!.row32(y)[x] & 0xFFFFFF).hex
    }
    func nearestWall(_ b: Ball, _ walls: [PixelRect]) -> Double {
        walls.map { RollingBall.distance(from: Vec2(b.x, b.y), to: Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))) }
            .min() ?? .infinity
    }

    /// The dump gives the ball, the walls and the goal in screen pixels, the count and the seed,
    /// and the frame shows them where the dump says.
    @Test(arguments: [(480, 800), (720, 1280), (400, 400), (1080, 1920)])
    func theStateDumpShowsBallWallsGoalCountAndSeed(size: (Int, Int)) throws {
        var t = TraceBuilder()
        t.checkpoint("start", at: 500)
        let r = try replay(t.text, exhibit: "tilt-maze", width: size.0, height: size.1)
        let b = ball(r, "start"), ws = walls(r, "start")
        let goal = try #require(rect(r, r.states["start"]?["goal"]))
        #expect(int(r, "start", "solved") == 0)
        #expect((int(r, "start", "seed") ?? 0) > 0)
        #expect(ws.count >= 10 && ws.count <= 70, "\(ws.count) wall rectangles")
        let homeBottom = try #require(r.homeControlBottom("start"))
        for w in ws {
            #expect(Double(w.y) >= homeBottom && w.x >= 0 && w.maxX <= size.0 && w.maxY <= size.1, "\(w)")
        }
        #expect(goal.width == goal.height && goal.width > 0)
        #expect(b.r > 5 && nearestWall(b, ws) >= b.r)
        // Drawn as dumped: a wall, the goal, the ball, and the floor.
        let w = ws[ws.count / 2]
        #expect(pixel(r, "start", w.x + w.width / 2, w.y + w.height / 2) == TiltMaze.wallColor.hex)
        #expect(pixel(r, "start", goal.x + goal.width / 2, goal.y + goal.height / 2) == TiltMaze.goalColor.hex)
        #expect(pixel(r, "start", Int(b.x), Int(b.y)) == TiltMaze.ballColor.hex)
        // Beside the ball, still in its corridor: the floor.
        #expect(pixel(r, "start", Int(b.x + b.r + 3), Int(b.y)) == TiltMaze.background.hex)
        // Level and untouched: nothing moves, the kiosk may sleep.
        #expect(!r.app.isAnimating && r.app.nextDeadline == nil)
    }

    @Test func sevenByElevenOn480x800() throws {
        var t = TraceBuilder()
        t.checkpoint("start", at: 100)
        let r = try replay(t.text, exhibit: "tilt-maze")
        let m = r.states["start"]?["maze"]
        #expect(r.number(m?["columns"]) == 7 && r.number(m?["rows"]) == 11)
    }

    /// The stand tilted towards the start cell's open side rolls the ball that way; tilted
    /// against the outer walls (up, left) it stays in its cell.
    @Test func theAccelerometerRollsTheBall() throws {
        var results: [String: (Ball, Ball, [PixelRect])] = [:]
        // Screen frame m/s²: right edge down reads −x, bottom edge down reads +y.
        let tilts: [(String, Vec3)] = [("right", Vec3(-6, 0, 7.7)), ("down", Vec3(0, 6, 7.7)), ("left", Vec3(6, 0, 7.7)), ("up", Vec3(0, -6, 7.7))]
        for (name, accel) in tilts {
            var t = TraceBuilder()
            t.hold(accel: Self.flat, from: 0, to: 480)
            t.hold(accel: accel, from: 500, to: 4000)
            t.checkpoint("before", at: 480)
            t.checkpoint("after", at: 4000)
            let r = try replay(t.text, exhibit: "tilt-maze")
            results[name] = (ball(r, "before"), ball(r, "after"), walls(r, "after"))
        }
        for (name, (a, b, ws)) in results { #expect(nearestWall(b, ws) >= b.r - 1e-6, "\(name)") }
        let right = results["right"]!, down = results["down"]!
        #expect(right.1.x - right.0.x > 20 || down.1.y - down.0.y > 20, "neither open side rolled it")
        #expect(right.1.x >= right.0.x - 1e-9 && down.1.y >= down.0.y - 1e-9)
        for name in ["left", "up"] {
            let (a, b, _) = results[name]!
            #expect(abs(b.x - a.x) < 12 && abs(b.y - a.y) < 12, "\(name): \(a) → \(b)")
        }
    }

    /// Without an accelerometer the board lies level; a finger dragging the ball tilts it
    /// towards the finger, and the ball follows into the open neighbouring cell.
    @Test func aDragOnTheBallTiltsTheBoardTowardsTheFinger() throws {
        var probe = TraceBuilder()
        probe.checkpoint("start", at: 100)
        let before = try replay(probe.text, exhibit: "tilt-maze")
        let b = ball(before, "start"), seed = UInt64(int(before, "start", "seed") ?? 0)
        let layout = before.states["start"]?["maze"]
        let pitch = before.number(layout?["cell"]) ?? 0
        let maze = Maze(columns: 7, rows: 11, seed: seed)
        let open = maze.opensRight(MazeCell(column: 0, row: 0)) ? Vec2(1, 0) : Vec2(0, 1)
        let target = Vec2(b.x, b.y) + open * pitch
        var t = TraceBuilder()
        t.drag(from: Vec2(b.x, b.y), to: target, at: 500, duration: 300, hold: 1500)
        t.checkpoint("dragging", at: 2000)
        t.checkpoint("lifted", at: 4000)
        let r = try replay(t.text, exhibit: "tilt-maze")
        let d = ball(r, "dragging")
        #expect(Vec2(d.x, d.y).distance(to: target) < pitch / 3, "ball at \(d), finger at \(target)")
        #expect(r.states["dragging"]?["dragging"] == .bool(true) && r.states["lifted"]?["dragging"] == .bool(false))
        // Let go on a level board, it stays in that cell.
        let l = ball(r, "lifted")
        #expect(Vec2(l.x, l.y).distance(to: target) < pitch / 2)
        #expect(!r.app.isAnimating)
    }

    func demoTrace(width: Int, height: Int, every checkpointMs: Double? = nil) -> (TraceBuilder, Double) {
        var t = TraceBuilder()
        var end = 0.0
        for frame in TiltMaze.profile.demoFrames(width: width, height: height) {
            for e in frame.events {
                t.touch(e.phase.rawValue, id: e.slot, e.position, t: Double(frame.time) / 1000)
                end = Double(frame.time) / 1000
            }
        }
        if let step = checkpointMs {
            var c = step
            while c < end + 2000 { let name = String(Int(c)); t.checkpoint("c" + String(repeating: "0", count: max(0, 7 - name.count)) + name, at: c); c += step }
        }
        t.checkpoint("end", at: end + 2000)
        return (t, end)
    }

    /// The attract demo leads the ball to the goal of the maze its seed deals, on 480×800 and
    /// on the taller screens it is placed on: one maze solved, celebrated, and a new one dealt.
    @Test(arguments: [(480, 800), (720, 1280), (1080, 1920)])
    func theDemoSolvesAMaze(size: (Int, Int)) throws {
        let (t, _) = demoTrace(width: size.0, height: size.1, every: 250)
        // Played as the attract loop plays it: the demo's own maze, whatever the kiosk's seed.
        let r = try replay(t.text, exhibit: "tilt-maze", width: size.0, height: size.1, seed: 5) { $0.playsDemo = true }
        #expect((int(r, "end", "solved") ?? 0) >= 1)
        let names = r.states.keys.sorted()
        let celebrating = names.filter { r.states[$0]?["celebrating"] == .bool(true) }
        #expect(!celebrating.isEmpty && celebrating.count <= 5, "celebrated at \(celebrating)")
        #expect(int(r, "end", "seed") != int(r, names.first!, "seed"))
        for cp in names {
            let b = ball(r, cp)
            #expect(nearestWall(b, walls(r, cp)) >= b.r - 1e-6, "\(cp)")
        }
        // The celebration shows the count in the goal (dark text on the green).
        let goal = try #require(rect(r, r.states[celebrating[0]]?["goal"]))
        var dark = 0
        for y in goal.y..<goal.maxY { for x in goal.x..<goal.maxX where pixel(r, celebrating[0], x, y) == TiltMaze.wallColor.hex { dark += 1 } }
        #expect(dark > 10)
    }

    /// Checkpoints are only looks: the demo played with one checkpoint or one every 10 ms ends
    /// in the same state.
    @Test func lookingDoesNotChangeTheDemo() throws {
        let (once, _) = demoTrace(width: 480, height: 800)
        let (often, _) = demoTrace(width: 480, height: 800, every: 10)
        let a = try replay(once.text, exhibit: "tilt-maze") { $0.playsDemo = true }
        let b = try replay(often.text, exhibit: "tilt-maze") { $0.playsDemo = true }
        for key in ["ball", "solved", "seed", "goal"] {
            #expect(a.states["end"]?[key] == b.states["end"]?[key], "\(key)")
        }
    }
}
