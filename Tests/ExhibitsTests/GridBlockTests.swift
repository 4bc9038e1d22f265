import Testing
import Geometry
@testable import Exhibits

@Suite struct GridBlockTests {
    func block(_ r: ReplayResult, _ checkpoint: String) -> (column: Int, row: Int, running: Bool, gameOver: Bool, color: String, direction: String?) {
        let s = r.states[checkpoint]!
        guard case .object(let b)? = s["block"], case .int(let c) = b[0].1, case .int(let row) = b[1].1,
              case .bool(let running)? = s["running"], case .bool(let over)? = s["gameOver"] else {
            Issue.record("state has no block"); return (-1, -1, false, false, "", nil)
        }
        let color = r.string(r.items(checkpoint).first?["color"]) ?? ""
        return (c, row, running, over, color, r.string(s["direction"]))
    }
    /// Where the grid lies, as the state says.
    func area(_ r: ReplayResult, _ checkpoint: String) -> Rect {
        guard case .object(let g)? = r.states[checkpoint]?["grid"] else { Issue.record("no grid"); return Rect(x: 0, y: 0, width: 0, height: 0) }
        func n(_ key: String) -> Double { g.first { $0.0 == key }.flatMap { r.number($0.1) } ?? -1 }
        return Rect(x: n("x"), y: n("y"), width: n("width"), height: n("height"))
    }

    @Test(arguments: [(480, 800), (600, 1024), (720, 1280), (800, 1280), (768, 1024), (720, 720), (400, 400), (1080, 1920)])
    func theGridLiesClearOfTheHomeControl(size: (Int, Int)) throws {
        var t = TraceBuilder()
        t.checkpoint("start", at: 0)
        let r = try replay(t.text, exhibit: "grid-block", width: size.0, height: size.1)
        let grid = area(r, "start")
        let homeBottom = try #require(r.homeControlBottom("start"))
        #expect(grid.minY >= homeBottom, "grid top \(grid.minY), home control bottom \(homeBottom)")
        // The grid reaches the screen's bottom and sides: every cell is on screen.
        #expect(abs(grid.maxY - Double(size.1)) < 0.01 && grid.minX == 0 && abs(grid.width - Double(size.0)) < 0.01)
    }

    @Test(arguments: [(480, 800), (720, 1280)]) func startsStillAndGreenInTheCentre(size: (Int, Int)) throws {
        var t = TraceBuilder()
        t.checkpoint("start", at: 0)
        t.checkpoint("later", at: 2000)
        let r = try replay(t.text, exhibit: "grid-block", width: size.0, height: size.1)
        for cp in ["start", "later"] {
            let b = block(r, cp)
            #expect(b.column == 4 && b.row == 9 && !b.running && !b.gameOver && b.color == "#34C759" && b.direction == nil)
        }
        let item = r.items("start")[0]
        let grid = area(r, "start")
        // One cell exactly: 1/9 of the grid's width by 1/19 of its height, centred in cell (4, 9).
        #expect(abs(r.number(item["width"])! - grid.width / 9) < 0.01)
        #expect(abs(r.number(item["height"])! - grid.height / 19) < 0.01)
        #expect(abs(r.number(item["x"])! - Double(size.0) / 2) < 0.01)
        #expect(abs(r.number(item["y"])! - (grid.minY + grid.height * 9.5 / 19)) < 0.01)
        guard case .object(let grid)? = r.states["start"]?["grid"] else { Issue.record("no grid"); return }
        #expect(grid[0].1 == .int(9) && grid[1].1 == .int(19))
    }

    @Test func tapStartsItJumpingDownEvery300ms() throws {
        var t = TraceBuilder()
        t.tap(Vec2(100, 700), at: 1000)        // anywhere on the screen
        // The tap happened at its lift (1060 ms; it is recognised after the 45 ms debounce):
        // the steps fall every 300 ms from there, the first at 1360 ms.
        t.checkpoint("before-first-step", at: 1350)
        t.checkpoint("after-first-step", at: 1450)
        t.checkpoint("after-three-steps", at: 2050)
        t.checkpoint("mid-step", at: 2200)
        let r = try replay(t.text, exhibit: "grid-block")
        #expect(block(r, "before-first-step").row == 9)
        #expect(block(r, "before-first-step").running && block(r, "before-first-step").direction == "down")
        #expect(block(r, "after-first-step").row == 10)
        #expect(block(r, "after-three-steps").row == 12)
        // A jump, not a slide: between ticks the block sits exactly in its cell.
        let y = r.number(r.items("mid-step")[0]["y"])!
        let grid = area(r, "mid-step")
        #expect(abs(y - (grid.minY + grid.height / 19 * 12.5)) < 0.01)
    }

    /// Issue 29's example: a tap at 500–560 ms. The block's first step is found once by
    /// replaying with a single checkpoint at each candidate moment, once with a checkpoint
    /// every 10 ms from 560 ms (a hundred and one of them): both see it at the same moment,
    /// 300 ms after the tap.
    @Test func theFirstStepFallsAtTheSameMomentWithOneCheckpointOrAHundred() throws {
        func firstMoved(_ checkpoints: [Int]) throws -> Int? {
            var t = TraceBuilder()
            t.touch("down", Vec2(240, 420), t: 500)
            t.touch("up", Vec2(240, 420), t: 560)
            for c in checkpoints { t.checkpoint("c\(c)", at: Double(c)) }
            let r = try replay(t.text, exhibit: "grid-block")
            return checkpoints.first { block(r, "c\($0)").row != GridBlock.centre.row }
        }
        var single: Int?
        for c in stride(from: 800, through: 950, by: 10) where single == nil {
            if try firstMoved([c]) != nil { single = c }
        }
        let hundred = try firstMoved(Array(stride(from: 560, through: 1560, by: 10)))
        #expect(single == 860)
        #expect(hundred == 860)
    }

    @Test(arguments: [("right", Vec2(1, 0), 8, 12), ("left", Vec2(-1, 0), 0, 12), ("up", Vec2(0, -1), 4, 0)])
    func swipesSteerUntilTheEdgeStopsItRed(name: String, direction: Vec2, column: Int, row: Int) throws {
        var t = TraceBuilder()
        t.tap(Vec2(240, 400), at: 0)
        t.swipe(from: Vec2(240, 500), direction: direction, at: 1000)
        t.checkpoint("steering", at: 1300)
        t.checkpoint("end", at: 9000)
        t.swipe(from: Vec2(240, 500), direction: Vec2(0, 1), at: 9100)
        t.checkpoint("after-swipe-at-end", at: 10000)
        let r = try replay(t.text, exhibit: "grid-block")
        #expect(block(r, "steering").direction == name)
        let end = block(r, "end")
        #expect(end.column == column && end.row == row)
        #expect(end.gameOver && !end.running && end.color == "#FF3B30" && end.direction == nil)
        // Swipes do nothing once it is over.
        let after = block(r, "after-swipe-at-end")
        #expect(after.column == column && after.row == row && after.gameOver)
    }

    @Test func tapRestartsAfterGameOver() throws {
        var t = TraceBuilder()
        t.tap(Vec2(240, 400), at: 0)
        t.checkpoint("over", at: 4000)            // 9 steps down reach row 18
        t.tap(Vec2(240, 400), at: 4100)
        t.checkpoint("restarted", at: 4300)
        let r = try replay(t.text, exhibit: "grid-block")
        let over = block(r, "over")
        #expect(over.row == 18 && over.gameOver && over.color == "#FF3B30")
        let again = block(r, "restarted")
        #expect(again.column == 4 && again.row == 9 && again.running && !again.gameOver && again.color == "#34C759")
    }

    @Test func frameShowsTheBlockInItsCell() throws {
        var t = TraceBuilder()
        t.tap(Vec2(240, 400), at: 0)
        t.checkpoint("row-10", at: 500)
        let r = try replay(t.text, exhibit: "grid-block")
        let frame = r.frames["row-10"]!
        let grid = area(r, "row-10")
        let cellW = grid.width / 9, cellH = grid.height / 19
        let inside = frame.row32(Int(grid.minY + cellH * 10.5))[Int(cellW * 4.5)] & 0xFFFFFF
        let above = frame.row32(Int(grid.minY + cellH * 9.5))[Int(cellW * 4.5)] & 0xFFFFFF
        #expect(inside == 0x34C759)
        #expect(above == 0xFFFFFF)
    }
}
