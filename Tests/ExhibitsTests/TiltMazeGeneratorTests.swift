import Testing
import Geometry
@testable import Exhibits

/// The maze itself: perfect (one way between any two cells), the same for the same seed, laid
/// out in square cells inside the safe area of every screen, its walls merged into runs.
@Suite struct TiltMazeGeneratorTests {
    static let screens = [(480, 800), (600, 1024), (720, 1280), (800, 1280), (768, 1024), (720, 720), (400, 400), (1080, 1920)]

    @Test(arguments: [(7, 11), (4, 3), (12, 19), (2, 2), (1, 6)])
    func everyMazeIsPerfect(size: (Int, Int)) {
        for seed in UInt64(1)...40 {
            let maze = Maze(columns: size.0, rows: size.1, seed: seed)
            var passages = 0
            for i in 0..<maze.cellCount {
                let c = maze.cell(i)
                if maze.opensRight(c) { passages += 1 }
                if maze.opensDown(c) { passages += 1 }
            }
            // A tree: connected, and exactly one fewer passage than cells (so no loop).
            #expect(passages == maze.cellCount - 1, "seed \(seed)")
            #expect(maze.distances(from: MazeCell(column: 0, row: 0)).allSatisfy { $0 >= 0 }, "seed \(seed)")
        }
    }

    @Test func theSeedDecidesTheMaze() {
        #expect(Maze(columns: 7, rows: 11, seed: 99) == Maze(columns: 7, rows: 11, seed: 99))
        let mazes = (UInt64(1)...20).map { Maze(columns: 7, rows: 11, seed: $0) }
        let distinct = mazes.indices.filter { i in !mazes[..<i].contains { $0.hashableShape == mazes[i].hashableShape } }
        #expect(distinct.count == 20)
    }

    @Test func theGoalIsTheFarthestCellAndThePathLeadsThere() {
        let maze = Maze(columns: 7, rows: 11, seed: 5)
        let start = MazeCell(column: 0, row: 0)
        let goal = maze.farthestCell(from: start)
        let d = maze.distances(from: start)
        #expect(d[maze.index(goal)] == d.max())
        let path = maze.path(from: start, to: goal)
        #expect(path.first == start && path.last == goal && path.count == d[maze.index(goal)] + 1)
        for k in 1..<path.count { #expect(maze.connects(path[k - 1], path[k])) }
    }

    func safeArea(_ w: Int, _ h: Int) throws -> Rect {
        let s = Double(w) / 480
        return ExhibitEnvironment(width: w, height: h, fonts: try FontSet(), log: .init(minimum: .error),
                                  homeControl: Rect(x: 8 * s, y: 8 * s, width: 72 * s, height: 72 * s)).safeArea
    }

    @Test func sevenByElevenOn480x800() throws {
        let layout = MazeLayout(columns: 7, in: try safeArea(480, 800), scale: 1)
        #expect(layout.columns == 7 && layout.rows == 11)
    }

    /// On every screen: the walls lie inside the safe area (never under the home control),
    /// the cells are square and the ball fits a corridor with room to spare.
    @Test(arguments: screens) func theMazeFitsTheSafeArea(size: (Int, Int)) throws {
        let area = try safeArea(size.0, size.1)
        // The technician's range of columns (the `columns` option), 7 by default.
        for columns in [4, 7, 12] {
            let layout = MazeLayout(columns: columns, in: area, scale: Double(size.0) / 480)
            #expect(layout.columns == columns && layout.rows >= 3 && layout.rows <= (columns * 11 + 3) / 7)
            let maze = Maze(columns: layout.columns, rows: layout.rows, seed: 3)
            for w in layout.walls(of: maze) {
                #expect(Double(w.x) >= area.minX && Double(w.maxX) <= area.maxX && Double(w.y) >= area.minY && Double(w.maxY) <= area.maxY,
                        "\(size): wall \(w) outside \(area)")
            }
            let f = layout.frame(of: MazeCell(column: 2, row: 1))
            #expect(f.width == f.height)
            #expect(2 * layout.ballRadius < Double(layout.pitch - layout.wall) * 0.7)
        }
    }

    /// A wall stands exactly between the cells that do not connect, and merging keeps the list
    /// short: far fewer rectangles than wall segments.
    @Test(arguments: [UInt64(1), 2, 3, 77]) func wallsStandExactlyWhereCellsDoNotConnect(seed: UInt64) throws {
        let layout = MazeLayout(columns: 7, in: try safeArea(480, 800), scale: 1)
        let maze = Maze(columns: layout.columns, rows: layout.rows, seed: seed)
        let walls = layout.walls(of: maze)
        func walled(_ p: Vec2) -> Bool { walls.contains { $0.contains(x: Int(p.x), y: Int(p.y)) } }
        var segments = 2 * (layout.columns + layout.rows)
        for r in 0..<layout.rows {
            for c in 0..<layout.columns {
                let a = MazeCell(column: c, row: r), f = layout.frame(of: a)
                if c + 1 < layout.columns {
                    let b = MazeCell(column: c + 1, row: r)
                    #expect(walled(Vec2(f.maxX, f.center.y)) == !maze.connects(a, b))
                    if !maze.connects(a, b) { segments += 1 }
                }
                if r + 1 < layout.rows {
                    let b = MazeCell(column: c, row: r + 1)
                    #expect(walled(Vec2(f.center.x, f.maxY)) == !maze.connects(a, b))
                    if !maze.connects(a, b) { segments += 1 }
                }
                // The floor of every cell is clear.
                #expect(!walled(f.center))
            }
        }
        #expect(walls.count * 2 < segments, "\(walls.count) rectangles for \(segments) segments")
    }
}

extension Maze {
    /// Which walls are open, as one value (seed aside).
    var hashableShape: [Bool] {
        (0..<cellCount).flatMap { [opensRight(cell($0)), opensDown(cell($0))] }
    }
}
