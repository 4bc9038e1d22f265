import Geometry
import Gestures
@testable import Exhibits

/// A tilt maze on its own (no app), fed touches the way the app feeds them, for the tests
/// that drive thousands of steps or compare two runs bit for bit.
final class TiltMazeRig {
    let gestures = GestureEnvironment()
    let exhibit: TiltMaze
    let width: Int, height: Int

    init(width: Int = 480, height: Int = 800, seed: UInt64 = 7) throws {
        self.width = width; self.height = height
        let s = Double(width) / 480
        let environment = ExhibitEnvironment(width: width, height: height, fonts: try FontSet(), log: .init(minimum: .error),
                                             homeControl: Rect(x: 8 * s, y: 8 * s, width: 72 * s, height: 72 * s))
        exhibit = TiltMaze(environment: environment, gestures: gestures, random: SeededGenerator(seed: seed))
    }

    var layout: MazeLayout { exhibit.layout }
    var walls: [Rect] {
        layout.walls(of: exhibit.maze).map { Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height)) }
    }

    func advance(to t: Microseconds) {
        gestures.advance(to: t)
        exhibit.advance(to: t)
    }

    func touch(_ phase: TouchPhase, _ p: Vec2, at t: Microseconds) {
        advance(to: t)
        let frame = TouchFrame(time: t, events: [TouchEvent(slot: 0, phase: phase, position: p, time: t)])
        exhibit.touches(frame)
        gestures.handle(frame)
    }

    /// The finger the demo uses: down on the ball, then to each turn of the one way to the goal
    /// (waiting `dwell` ms there) at `speed` cells a second, every 100 ms; lifted at the goal.
    static func leadingTouches(maze: Maze, layout: MazeLayout, from start: MazeCell, begin: Double = 1000,
                               speed: Double = 3, dwell: Double = 300) -> [(phase: TouchPhase, p: Vec2, t: Double)] {
        let goal = maze.farthestCell(from: start)
        let path = maze.path(from: start, to: goal)
        var out: [(phase: TouchPhase, p: Vec2, t: Double)] = []
        var t = begin
        var p = layout.center(of: start)
        out.append((.down, p, t))
        for i in 1..<path.count {
            let last = i == path.count - 1
            if !last {
                let a = (path[i].column - path[i - 1].column, path[i].row - path[i - 1].row)
                let b = (path[i + 1].column - path[i].column, path[i + 1].row - path[i].row)
                if a == b { continue }
            }
            let w = layout.center(of: path[i]), d = w - p
            let steps = max(1, Int((d.length / Double(layout.pitch) / speed * 10).rounded()))
            for k in 1...steps {
                t += 100
                out.append((.move, p + d * (Double(k) / Double(steps)), t))
            }
            p = w
            t += dwell
            out.append((.move, p + Vec2(1, 0), t))
        }
        out.append((.up, p + Vec2(1, 0), t + 300))
        return out
    }
}
