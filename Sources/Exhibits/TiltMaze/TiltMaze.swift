import Geometry
import Gestures

/// A ball rolls through a maze as the stand is tilted. Each maze is a perfect maze dealt from a
/// seed of the exhibit's own generator, its square cells laid out in the safe area (7 × 11 on
/// 480×800); the goal is the cell farthest from where the ball starts. Reaching it celebrates
/// for a second (a ring spreads from the goal, the count of solved mazes shows in it, the ball
/// settles in its middle) and deals a new maze around the ball.
///
/// Without an accelerometer the board lies level, and on any stand a finger dragging the ball
/// tilts the board towards the finger: the same physics, the drag setting the tilt. Physics
/// runs on a fixed 1/120 s grid of the content's time, so where frames fall (or how a replay
/// splits its advances) never changes where the ball goes; continuous collision keeps it out of
/// every wall at any tilt.
public final class TiltMaze: Exhibit {
    public static let profile = ExhibitProfile(
        name: "tilt-maze", tileColor: Color(r: 70, g: 90, b: 170),
        options: [TiltMaze.columnsOption],
        demoTrace: TiltMazeDemo.trace, demoPlacement: .uniformFromTop, demoSeed: TiltMazeDemo.seed,
        benchScene: .demo(release: 1, what: "the ball led through the maze to its goal"))

    public static let columnsOption = ExhibitOption.integer(
        "columns", default: 7, range: 4...12,
        doc: "Maze cells across the screen; the rows follow from its height (the cells are square).")

    static let background = Color(rgb: 0xF4EFE6)
    static let wallColor = Color(rgb: 0x3A3F58)
    static let goalColor = Color(rgb: 0x34C759)
    static let ballColor = Color(rgb: 0xE8453C)
    static let ballRim = Color(rgb: 0x9E2A23)
    /// A stand without an accelerometer reports this gravity and never another.
    static let uprightDefault = Vec2(0, 1)
    /// The celebration, in physics ticks (1 s).
    static let celebrationTicks = 120
    /// A finger this many cells from the ball tilts the board by 1 g; nearer, proportionally less.
    static let dragReach = 1.0

    public let layout: MazeLayout
    public private(set) var maze: Maze
    public private(set) var ball: RollingBall
    public private(set) var goal: MazeCell
    public private(set) var solved = 0
    /// Ticks into the celebration; nil while playing.
    public private(set) var celebration: Int? = nil
    public private(set) var resting = false
    public private(set) var dragTarget: Vec2? = nil
    private var celebrationStart = Vec2.zero
    private var gravity = Vec2.zero
    private var hasTiltSensor = false
    private var walls: [PixelRect] = []
    private var wallRects: [Rect] = []
    private(set) var now: Microseconds
    private var lastTick: Microseconds
    private var random: SeededGenerator
    private let scale: Double
    private let fonts: FontSet
    /// The celebration's count, laid out once per solved maze rather than every frame.
    private var counter: (solved: Int, text: DrawCommand)? = nil

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        scale = environment.scale
        fonts = environment.fonts
        layout = MazeLayout(columns: environment.options.integer(TiltMaze.columnsOption), in: environment.safeArea,
                            scale: environment.scale)
        now = environment.startTime
        lastTick = now
        self.random = random
        let start = MazeCell(column: 0, row: 0)
        maze = Maze(columns: layout.columns, rows: layout.rows, seed: 0)
        goal = start
        ball = RollingBall(position: layout.center(of: start), radius: layout.ballRadius, unit: 1000 * environment.scale,
                           maxSpeed: 14 * Double(layout.pitch))
        deal(around: start)
        gestures.attachToItems(hitTest: { [unowned(unsafe) self] p in self.isOnBall(p) ? 0 : nil }) { [unowned(unsafe) self] _ in
            [PanGestureRecognizer(name: "tilt towards the finger") { [unowned(unsafe) self] pan in self.drag(pan) }]
        }
    }

    /// A new maze from the next seed, the ball's cell its start and the farthest cell its goal.
    private func deal(around start: MazeCell) {
        // 53 bits: the seed survives the state dump's JSON numbers exactly.
        maze = Maze(columns: layout.columns, rows: layout.rows, seed: random.next() >> 11)
        goal = maze.farthestCell(from: start)
        walls = layout.walls(of: maze)
        wallRects = walls.map { Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height)) }
    }

    /// Fingers are wider than the ball: a margin around it still takes hold of it.
    private func isOnBall(_ p: Vec2) -> Bool {
        p.distance(to: ball.position) <= ball.radius + max(ball.radius, 16 * scale)
    }

    // MARK: input

    private func drag(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began, .changed: dragTarget = pan.location.isFinite ? pan.location : nil
        case .ended, .cancelled, .failed: dragTarget = nil
        default: break
        }
        resting = false
    }

    public func touches(_ frame: TouchFrame) {
        // A drag acts from the instant of its touch, whenever the frame that carries it is drawn.
        advance(to: frame.time)
    }

    public func motion(gravity g: Vec2, altitude: Double?) {
        guard g.isFinite else { return }
        if !hasTiltSensor && g != TiltMaze.uprightDefault { hasTiltSensor = true }
        if g != gravity { resting = false }
        gravity = g
    }

    /// The board's tilt now, in g: towards a dragging finger, else what the accelerometer says
    /// (level without one).
    private var tilt: Vec2 {
        if let target = dragTarget {
            let towards = target - ball.position
            let cells = towards.length / (Double(layout.pitch) * TiltMaze.dragReach)
            return cells <= 0 ? .zero : towards * (min(1, cells) / towards.length)
        }
        return hasTiltSensor ? gravity : .zero
    }

    // MARK: time

    public func advance(to time: Microseconds) {
        guard time > now else { return }
        now = time
        while lastTick + RollingBall.tick <= now {
            if resting && celebration == nil {
                // Nothing moves until the tilt changes: the ticks pass without work.
                lastTick += (now - lastTick) / RollingBall.tick * RollingBall.tick
                break
            }
            lastTick += RollingBall.tick
            tick()
        }
    }

    private func tick() {
        if let c = celebration {
            let done = c + 1
            let f = Double(done) / Double(TiltMaze.celebrationTicks)
            let settle = min(1, f * 2)
            ball.position = celebrationStart + (layout.center(of: goal) - celebrationStart) * settle
            if done >= TiltMaze.celebrationTicks {
                celebration = nil
                ball.position = layout.center(of: goal)
                deal(around: goal)
            } else {
                celebration = done
            }
            return
        }
        resting = ball.step(tilt: tilt, walls: wallRects)
        if layout.cell(at: ball.position) == goal {
            solved += 1
            celebration = 0
            celebrationStart = ball.position
            ball.velocity = .zero
            resting = false
        }
    }

    public var isAnimating: Bool { celebration != nil || !resting }

    // MARK: output

    public func draw(into list: inout [DrawCommand]) -> Color {
        list.append(.fillPixels(layout.floor(of: goal), TiltMaze.goalColor))
        for w in walls { list.append(.fillPixels(w, TiltMaze.wallColor)) }
        if let c = celebration {
            let f = Double(c) / Double(TiltMaze.celebrationTicks)
            let pitch = Double(layout.pitch)
            list.append(.ring(center: layout.center(of: goal), radius: pitch * (0.5 + 2 * f),
                              lineWidth: max(2, pitch * 0.12 * (1 - f)), color: TiltMaze.goalColor))
        }
        list.append(.circle(center: ball.position, radius: ball.radius, color: TiltMaze.ballRim))
        list.append(.circle(center: ball.position, radius: ball.radius * 0.82, color: TiltMaze.ballColor))
        if celebration != nil {
            if counter?.solved != solved {
                counter = (solved, fonts.text(String(solved), centeredAt: layout.center(of: goal) + Vec2(0, -ball.radius * 1.2),
                                              size: (Double(layout.pitch) * 0.42).rounded(), bold: true, color: TiltMaze.wallColor))
            }
            if let text = counter?.text { list.append(text) }
        }
        return TiltMaze.background
    }

    private static func json(_ r: PixelRect) -> JSONValue {
        .array([.int(r.x), .int(r.y), .int(r.width), .int(r.height)])
    }

    public func state() -> ExhibitState {
        ExhibitState(
            background: TiltMaze.background,
            items: [ItemState(id: 0, shape: "circle", center: ball.position, width: 2 * ball.radius, height: 2 * ball.radius,
                              color: TiltMaze.ballColor)],
            extras: [
                ("ball", .object([("x", .number(ball.position.x)), ("y", .number(ball.position.y)), ("r", .number(ball.radius))])),
                ("walls", .array(walls.map(TiltMaze.json))),
                ("goal", TiltMaze.json(layout.floor(of: goal))),
                ("solved", .int(solved)),
                ("seed", .number(Double(maze.seed))),   // 53 bits: more than a 32-bit Int holds (armhf)
                ("maze", .object([("columns", .int(layout.columns)), ("rows", .int(layout.rows)), ("cell", .int(layout.pitch))])),
                ("celebrating", .bool(celebration != nil)),
                ("dragging", .bool(dragTarget != nil)),
                ("resting", .bool(resting)),
            ])
    }
}
