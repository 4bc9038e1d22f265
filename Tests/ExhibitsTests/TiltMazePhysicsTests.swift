import Testing
import Geometry
@testable import Exhibits

/// The ball never passes through a wall whatever the tilt and the frame rate, and its course
/// depends on the content's time only, never on how that time is split into frames.
@Suite struct TiltMazePhysicsTests {
    enum Tilt: CaseIterable { case flipping, shaking, spinning }

    /// Gravity for frame `k`: up to 8 g, flipped every frame, shaken at random, or spun fast.
    static func gravity(_ kind: Tilt, frame k: Int, random: inout SeededGenerator) -> Vec2 {
        switch kind {
        case .flipping:
            let axis = (k / 40) % 3 == 0 ? Vec2(1, 0) : (k / 40) % 3 == 1 ? Vec2(0, 1) : Vec2(0.6, 0.8)
            return axis * (k % 2 == 0 ? 8 : -8)
        case .shaking:
            let angle = random.unit() * 2 * Double.pi, magnitude = 8 * random.unit()
            let sc = portableSinCos(angle)
            return Vec2(magnitude * sc.cos, magnitude * sc.sin)
        case .spinning:
            let angle = Double(k) * 0.7
            let sc = portableSinCos(angle)
            return Vec2(8 * sc.cos, 8 * sc.sin)
        }
    }

    /// Thousands of frames of violent tilt at several cadences and on several screens: after
    /// every frame the ball's centre is at least its radius from every wall, inside the maze,
    /// and it only ever went from a cell to one it connects to.
    @Test(arguments: [(480, 800), (1080, 1920), (400, 400)])
    func violentTiltNeverCarriesTheBallThroughAWall(size: (Int, Int)) throws {
        // Frame intervals in µs: 30, 50, 60 and 144 Hz, and ragged.
        let cadences: [[Microseconds]] = [[33_333], [20_000], [16_667], [6_944], [3_000, 41_000, 16_000, 9_000, 70_000]]
        for kind in Tilt.allCases {
            for cadence in cadences {
                let rig = try TiltMazeRig(width: size.0, height: size.1, seed: 11)
                let maze = rig.exhibit
                var random = SeededGenerator(seed: 5)
                var t: Microseconds = 0
                var cell = rig.layout.cell(at: maze.ball.position)
                var seed = maze.maze.seed
                var visited: Set<MazeCell> = []
                var travelled = 0.0
                var last = maze.ball.position
                for k in 0..<3000 {
                    maze.motion(gravity: Self.gravity(kind, frame: k, random: &random), altitude: nil)
                    t += cadence[k % cadence.count]
                    rig.advance(to: t)
                    let p = maze.ball.position, r = maze.ball.radius
                    travelled += p.distance(to: last); last = p
                    let walls = rig.walls
                    let nearest = walls.map { RollingBall.distance(from: p, to: $0) }.min() ?? .infinity
                    #expect(nearest >= r - 1e-6, "\(kind) \(cadence) frame \(k): \(p) is \(nearest) from a wall")
                    guard let now = rig.layout.cell(at: p) else {
                        Issue.record("\(kind) \(cadence) frame \(k): \(p) outside the maze"); return
                    }
                    if maze.maze.seed != seed { seed = maze.maze.seed; cell = now }
                    if let before = cell, before != now {
                        #expect(Self.reachable(maze.maze, from: before, to: now), "\(kind) \(cadence) frame \(k): \(before) → \(now)")
                    }
                    cell = now
                    visited.insert(now)
                }
                #expect(maze.ball.refusedMoves == 0)
                // It was thrown about, not stuck (a fast spin keeps it circling in its corner).
                #expect(travelled > 20 * Double(rig.layout.pitch) && visited.count >= (kind == .spinning ? 2 : 3), "\(kind) \(cadence): \(travelled) px, \(visited.count) cells")
            }
        }
    }

    /// One frame may carry the ball over a corner: from `a` to `b` through open passages in at
    /// most two moves.
    static func reachable(_ maze: Maze, from a: MazeCell, to b: MazeCell) -> Bool {
        if maze.connects(a, b) { return true }
        for i in maze.passages(from: maze.index(a)) where maze.connects(maze.cell(i), b) { return true }
        return false
    }

    /// The same inputs at the same instants give the same ball to the last bit, whether time
    /// advances in one call between inputs or in hundreds of ragged small ones.
    @Test(arguments: [(480, 800), (720, 1280)])
    func theStateDoesNotDependOnHowTimeIsSplit(size: (Int, Int)) throws {
        let whole = try TiltMazeRig(width: size.0, height: size.1, seed: 3)
        let pieces = try TiltMazeRig(width: size.0, height: size.1, seed: 3)
        var random = SeededGenerator(seed: 9)
        var ragged = SeededGenerator(seed: 10)
        var t: Microseconds = 0
        for _ in 0..<400 {
            // A tilt every 5…80 ms, mostly gentle, sometimes hard.
            let g = Vec2(2 * random.unit() - 1, 2 * random.unit() - 1) * (random.unit() < 0.1 ? 6 : 1.2)
            t += 5_000 + Microseconds(random.next() % 75_000)
            whole.advance(to: t)
            var u = pieces.exhibit.now
            while u < t {
                u = min(t, u + 1 + Microseconds(ragged.next() % 3_000))
                pieces.advance(to: u)
            }
            whole.exhibit.motion(gravity: g, altitude: nil)
            pieces.exhibit.motion(gravity: g, altitude: nil)
        }
        // Then a long stretch with the last tilt: one call against many.
        whole.advance(to: t + 9_000_000)
        var u = t
        while u < t + 9_000_000 { u += 1 + Microseconds(ragged.next() % 20_000); pieces.advance(to: min(u, t + 9_000_000)) }
        let a = whole.exhibit, b = pieces.exhibit
        #expect(a.ball == b.ball)
        #expect(a.solved == b.solved && a.maze == b.maze && a.goal == b.goal && a.celebration == b.celebration && a.resting == b.resting)
        #expect(a.ball.position != whole.layout.center(of: MazeCell(column: 0, row: 0)), "the ball never moved")
    }

    /// Level (no accelerometer, nobody touching): the ball stays put and the kiosk may sleep; a
    /// tilt wakes it.
    @Test func aLevelBoardLetsTheKioskSleep() throws {
        let rig = try TiltMazeRig()
        let start = rig.exhibit.ball.position
        rig.exhibit.motion(gravity: Vec2(0, 1), altitude: nil)
        rig.advance(to: 100_000)
        #expect(!rig.exhibit.isAnimating && rig.exhibit.ball.position == start)
        rig.advance(to: 60_000_000)
        #expect(!rig.exhibit.isAnimating && rig.exhibit.ball.position == start)
        // Tilted towards its open side it rolls; pressed into a corner it rests again.
        let open = rig.exhibit.maze.opensRight(MazeCell(column: 0, row: 0)) ? Vec2(1, 0) : Vec2(0, 1)
        rig.exhibit.motion(gravity: open * 0.5, altitude: nil)
        #expect(rig.exhibit.isAnimating)
        rig.advance(to: 60_300_000)
        #expect((rig.exhibit.ball.position - start).dot(open) > 10)
        rig.advance(to: 75_000_000)
        #expect(!rig.exhibit.isAnimating)
    }

    /// A finger leading the ball along the one way solves any maze; reaching the goal
    /// celebrates for a second and deals a new maze around the ball, clear of its walls.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func leadingTheBallSolvesTheMazeAndDealsANewOne(seed: UInt64) throws {
        let rig = try TiltMazeRig(seed: seed)
        let maze = rig.exhibit
        let first = maze.maze, goal = maze.goal
        var reached: Microseconds? = nil
        for touch in TiltMazeRig.leadingTouches(maze: first, layout: rig.layout, from: MazeCell(column: 0, row: 0)) {
            let t = Microseconds(touch.t * 1000)
            // Watch every 10 ms for the moment it arrives.
            var u = maze.now
            while u < t, reached == nil { u = min(t, u + 10_000); rig.advance(to: u); if maze.solved > 0 { reached = u } }
            rig.touch(touch.phase, touch.p, at: t)
        }
        var u = maze.now
        while reached == nil, u < 60_000_000 { u += 10_000; rig.advance(to: u); if maze.solved > 0 { reached = u } }
        let at = try #require(reached, "seed \(seed): not solved")
        #expect(maze.solved == 1 && maze.celebration != nil && maze.isAnimating)
        #expect(maze.maze == first)
        rig.advance(to: at + 1_100_000)
        #expect(maze.celebration == nil && maze.solved == 1)
        #expect(maze.maze != first && maze.maze.seed != first.seed)
        // The ball sits in the middle of the old goal, which starts the new maze.
        #expect(maze.ball.position == rig.layout.center(of: goal))
        #expect(maze.goal == maze.maze.farthestCell(from: goal) && maze.goal != goal)
        #expect((rig.walls.map { RollingBall.distance(from: maze.ball.position, to: $0) }.min() ?? 0) >= maze.ball.radius)
    }

    /// The sweep itself: a circle moving fast at a thin wall stops short of it, at any angle,
    /// and glancing past a corner is not a hit.
    @Test func theSweepStopsAtTheFirstWall() {
        let wall = Rect(x: 100, y: 0, width: 2, height: 100)
        for angle in stride(from: -1.2, through: 1.2, by: 0.1) {
            let sc = portableSinCos(angle)
            let d = Vec2(sc.cos, sc.sin) * 500
            let hit = RollingBall.sweep(from: Vec2(50, 50), by: d, radius: 10, against: wall)
            if let h = hit {
                let at = Vec2(50, 50) + d * h.t
                #expect(abs(RollingBall.distance(from: at, to: wall) - 10) < 1e-9, "angle \(angle)")
            } else {
                // Missed: the whole segment stays clear of the wall.
                for k in 0...1000 {
                    let p = Vec2(50, 50) + d * (Double(k) / 1000)
                    #expect(RollingBall.distance(from: p, to: wall) >= 10 - 1e-9, "angle \(angle) step \(k)")
                }
            }
        }
        // Just past the top corner: clear; just inside: a hit on the rounded corner.
        #expect(RollingBall.sweep(from: Vec2(50, -10.5), by: Vec2(200, 0), radius: 10, against: wall) == nil)
        let corner = RollingBall.sweep(from: Vec2(50, -9.5), by: Vec2(200, 0), radius: 10, against: wall)
        #expect(corner != nil && corner!.normal.y < 0 && corner!.normal.x < 0)
    }
}
