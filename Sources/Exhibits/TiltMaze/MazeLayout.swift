import Geometry

/// Where a maze sits on the screen, in whole pixels so its walls are drawn crisp: square cells
/// of `pitch` pixels between grid lines, walls `wall` pixels thick centred on the lines.
public struct MazeLayout: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    /// The top-left grid line crossing.
    public let originX: Int
    public let originY: Int
    public let pitch: Int
    public let wall: Int

    /// Square cells sized by the width: `columns` across `area` less a margin (with a third of
    /// a cell to spare), as many rows as the height holds up to 11/7 of the columns (7 × 11 on
    /// 480×800; a taller screen keeps that shape). The maze hangs from the top of the area,
    /// centred across it, so that it scales with the screen's width as the demo's touches do.
    public init(columns requested: Int, in area: Rect, scale: Double) {
        let margin = (8 * scale).rounded()
        let width = max(1, area.width - 2 * margin), height = max(1, area.height - 2 * margin)
        let columns = min(max(2, requested), 40)
        let mostRows = max(2, Int((Double(columns) * 11 / 7).rounded()))
        // A squat screen shrinks the cells rather than hold fewer than three rows.
        let pitch = max(8, Int(min(width / (Double(columns) + 0.35), height / 3)))
        let rows = min(max(2, Int(height / Double(pitch))), mostRows)
        self.columns = columns; self.rows = rows; self.pitch = pitch
        wall = max(2, Int((Double(pitch) * 0.14).rounded()))
        originX = Int((area.minX + (area.width - Double(columns * pitch)) / 2).rounded())
        originY = Int((area.minY + margin).rounded())
    }

    /// The ball fits a corridor with room to spare.
    public var ballRadius: Double { Double(pitch) * 0.27 }

    /// The cell's square between its grid lines.
    public func frame(of c: MazeCell) -> Rect {
        Rect(x: Double(originX + c.column * pitch), y: Double(originY + c.row * pitch), width: Double(pitch), height: Double(pitch))
    }

    /// The cell's floor inside its walls (the goal's mark).
    public func floor(of c: MazeCell) -> PixelRect {
        let inset = wall - wall / 2
        return PixelRect(x: originX + c.column * pitch + inset, y: originY + c.row * pitch + inset,
                         width: pitch - 2 * inset, height: pitch - 2 * inset)
    }

    public func center(of c: MazeCell) -> Vec2 { frame(of: c).center }

    /// The cell a point is in; nil outside the grid.
    public func cell(at p: Vec2) -> MazeCell? {
        guard p.isFinite else { return nil }
        let fx = (p.x - Double(originX)) / Double(pitch), fy = (p.y - Double(originY)) / Double(pitch)
        guard fx >= 0, fy >= 0, fx < Double(columns), fy < Double(rows) else { return nil }
        return MazeCell(column: Int(fx), row: Int(fy))
    }

    /// The maze's walls, each straight run of wall segments on one grid line merged into one
    /// rectangle (the display list and the collision test stay short): horizontal runs row
    /// line by row line, then vertical runs column line by column line.
    public func walls(of maze: Maze) -> [PixelRect] {
        var out: [PixelRect] = []
        let half = wall / 2
        // Horizontal line y (0...rows): the wall above row y.
        for y in 0...rows {
            var start: Int? = nil
            for x in 0...columns {
                let present = x < columns && (y == 0 || y == rows || !maze.opensDown(MazeCell(column: x, row: y - 1)))
                if present, start == nil { start = x }
                if !present, let s = start {
                    out.append(PixelRect(x: originX + s * pitch - half, y: originY + y * pitch - half,
                                         width: (x - s) * pitch + wall, height: wall))
                    start = nil
                }
            }
        }
        // Vertical line x (0...columns): the wall left of column x.
        for x in 0...columns {
            var start: Int? = nil
            for y in 0...rows {
                let present = y < rows && (x == 0 || x == columns || !maze.opensRight(MazeCell(column: x - 1, row: y)))
                if present, start == nil { start = y }
                if !present, let s = start {
                    out.append(PixelRect(x: originX + x * pitch - half, y: originY + s * pitch - half,
                                         width: wall, height: (y - s) * pitch + wall))
                    start = nil
                }
            }
        }
        return out
    }
}
