import Geometry
import Gestures

/// Seed 004: a block in a 9 × 19 grid. A tap puts it in the centre cell, green, jumping one
/// cell down every 0.3 s; swipes steer it; when its leading edge meets the edge of the grid it
/// stops and turns red, swipes do nothing, and a tap starts again.
public final class GridBlock: Exhibit {
    public static let profile = ExhibitProfile(
        name: "grid-block", tileColor: Color(r: 52, g: 120, b: 80), demoTrace: demoTrace,
        benchScene: .demo(release: 2, what: "swiped right"))

    public enum Direction: String, CaseIterable, Sendable {
        case up, down, left, right
        var step: (column: Int, row: Int) {
            switch self {
            case .up: (0, -1)
            case .down: (0, 1)
            case .left: (-1, 0)
            case .right: (1, 0)
            }
        }
    }

    public static let columns = 9
    public static let rows = 19
    public static let stepInterval: Microseconds = 300_000
    static let centre = (column: 4, row: 9)
    static let green = Color(rgb: 0x34C759)
    static let red = Color(rgb: 0xFF3B30)

    public private(set) var column = GridBlock.centre.column
    public private(set) var row = GridBlock.centre.row
    public private(set) var direction: Direction? = nil
    public private(set) var gameOver = false
    private var nextStep: Microseconds? = nil
    private var now: Microseconds
    /// The grid: the safe area, clear of the home control (the seed asks for exactly this).
    private let area: Rect

    public init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        area = environment.safeArea
        now = environment.startTime
        gestures.add(TapGestureRecognizer(name: "restart") { [unowned(unsafe) self] tap in
            if tap.state == .ended { self.restart(at: tap.time) }
        })
        for d in Direction.allCases {
            let swipe = SwipeGestureRecognizer(direction: GridBlock.swipeDirection(d), name: "swipe \(d.rawValue)") { [unowned(unsafe) self] s in
                if s.state == .ended { self.steer(d) }
            }
            gestures.add(swipe)
        }
    }

    static func swipeDirection(_ d: Direction) -> SwipeDirections {
        switch d {
        case .up: .up
        case .down: .down
        case .left: .left
        case .right: .right
        }
    }

    public var running: Bool { direction != nil && !gameOver }

    /// A tap at `time` starts the block: its steps fall every `stepInterval` from the tap,
    /// whenever the kiosk happens to run this.
    private func restart(at time: Microseconds) {
        column = GridBlock.centre.column
        row = GridBlock.centre.row
        gameOver = false
        direction = .down
        nextStep = time + GridBlock.stepInterval
        stopIfAtEdge()
    }

    private func steer(_ d: Direction) {
        guard running else { return }
        direction = d
        stopIfAtEdge()
    }

    /// The block stops when its leading edge lines up with the edge of the grid.
    private func stopIfAtEdge() {
        guard let d = direction else { return }
        let c = column + d.step.column, r = row + d.step.row
        if c < 0 || c >= GridBlock.columns || r < 0 || r >= GridBlock.rows {
            gameOver = true
            nextStep = nil
        }
    }

    public func motion(gravity: Vec2, altitude: Double?) {}

    public func advance(to time: Microseconds) {
        now = max(now, time)
        while running, let due = nextStep, due <= now, let d = direction {
            column += d.step.column
            row += d.step.row
            nextStep = due + GridBlock.stepInterval
            stopIfAtEdge()
        }
    }

    /// The block jumps: nothing moves between ticks, so the kiosk only wakes for them.
    public var isAnimating: Bool { false }
    public var nextDeadline: Microseconds? { running ? nextStep : nil }

    private var cellWidth: Double { area.width / Double(GridBlock.columns) }
    private var cellHeight: Double { area.height / Double(GridBlock.rows) }

    public func draw(into list: inout [DrawCommand]) -> Color {
        let lineColor = Color(r: 226, g: 228, b: 234)
        for c in 1..<GridBlock.columns {
            let x = area.minX + Double(c) * cellWidth
            list.append(.line(from: Vec2(x, area.minY), to: Vec2(x, area.maxY), width: 1, color: lineColor))
        }
        // The top line too: it shows where the grid, and the block's way, ends.
        for r in 0..<GridBlock.rows {
            let y = area.minY + Double(r) * cellHeight
            list.append(.line(from: Vec2(area.minX, y), to: Vec2(area.maxX, y), width: 1, color: lineColor))
        }
        list.append(.rect(blockFrame, transform: .identity, color: gameOver ? GridBlock.red : GridBlock.green))
        return .white
    }

    private var blockFrame: Rect {
        Rect(x: area.minX + Double(column) * cellWidth, y: area.minY + Double(row) * cellHeight, width: cellWidth, height: cellHeight)
    }

    public func state() -> ExhibitState {
        let f = blockFrame
        return ExhibitState(
            background: .white,
            items: [ItemState(id: 0, shape: "square", center: f.center, width: f.width, height: f.height,
                              color: gameOver ? GridBlock.red : GridBlock.green)],
            extras: [
                ("grid", .object([("columns", .int(GridBlock.columns)), ("rows", .int(GridBlock.rows)),
                                  ("x", .number(area.minX)), ("y", .number(area.minY)),
                                  ("width", .number(area.width)), ("height", .number(area.height))])),
                ("block", .object([("column", .int(column)), ("row", .int(row))])),
                ("direction", running ? .string(direction!.rawValue) : .null),
                ("running", .bool(running)),
                ("gameOver", .bool(gameOver)),
            ])
    }

    public var actsOnTapsAnywhere: Bool { true }

    public static let demoTrace = """
    {"trace":"motionkiosk","version":1}
    {"t":0,"type":"touch","phase":"down","id":0,"x":240,"y":420}
    {"t":80,"type":"touch","phase":"up","id":0,"x":240,"y":420}
    {"t":1300,"type":"touch","phase":"down","id":0,"x":160,"y":600}
    {"t":1340,"type":"touch","phase":"move","id":0,"x":200,"y":600}
    {"t":1380,"type":"touch","phase":"move","id":0,"x":250,"y":601}
    {"t":1420,"type":"touch","phase":"move","id":0,"x":300,"y":602}
    {"t":1440,"type":"touch","phase":"up","id":0,"x":300,"y":602}
    {"t":2300,"type":"touch","phase":"down","id":0,"x":240,"y":600}
    {"t":2340,"type":"touch","phase":"move","id":0,"x":240,"y":560}
    {"t":2380,"type":"touch","phase":"move","id":0,"x":241,"y":510}
    {"t":2420,"type":"touch","phase":"move","id":0,"x":242,"y":460}
    {"t":2440,"type":"touch","phase":"up","id":0,"x":242,"y":460}
    {"t":3500,"type":"touch","phase":"down","id":0,"x":300,"y":400}
    {"t":3540,"type":"touch","phase":"move","id":0,"x":260,"y":400}
    {"t":3580,"type":"touch","phase":"move","id":0,"x":210,"y":401}
    {"t":3620,"type":"touch","phase":"move","id":0,"x":160,"y":402}
    {"t":3640,"type":"touch","phase":"up","id":0,"x":160,"y":402}
    """
}
