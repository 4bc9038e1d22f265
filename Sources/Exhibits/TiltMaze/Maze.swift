import Geometry

/// One cell of a maze grid: column from the left, row from the top.
public struct MazeCell: Equatable, Hashable, Sendable {
    public var column: Int
    public var row: Int
    public init(column: Int, row: Int) { self.column = column; self.row = row }
}

/// A perfect maze on a `columns` × `rows` grid: exactly one path between any two cells (a
/// spanning tree of the grid), dug by a depth-first walk from a seed, which gives the long
/// winding corridors a rolling ball needs. The same seed and size always give the same maze.
public struct Maze: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    public let seed: UInt64
    /// Passage from cell i to its right neighbour; from cell i to the one below.
    private var openRight: [Bool]
    private var openDown: [Bool]

    public init(columns: Int, rows: Int, seed: UInt64) {
        self.columns = max(1, columns); self.rows = max(1, rows); self.seed = seed
        let count = self.columns * self.rows
        openRight = Array(repeating: false, count: count)
        openDown = Array(repeating: false, count: count)
        var random = SeededGenerator(seed: seed)
        var visited = Array(repeating: false, count: count)
        var stack = [0]
        visited[0] = true
        var choices: [Int] = []
        while let cell = stack.last {
            choices.removeAll(keepingCapacity: true)
            for n in neighbours(of: cell) where !visited[n] { choices.append(n) }
            if choices.isEmpty { stack.removeLast(); continue }
            let next = choices[Int(random.next() % UInt64(choices.count))]
            open(cell, next)
            visited[next] = true
            stack.append(next)
        }
    }

    public var cellCount: Int { columns * rows }
    public func index(_ c: MazeCell) -> Int { c.row * columns + c.column }
    public func cell(_ i: Int) -> MazeCell { MazeCell(column: i % columns, row: i / columns) }

    /// Whether the wall right of `c` (or below it) is missing; the outer walls are always there.
    public func opensRight(_ c: MazeCell) -> Bool { c.column < columns - 1 && openRight[index(c)] }
    public func opensDown(_ c: MazeCell) -> Bool { c.row < rows - 1 && openDown[index(c)] }

    /// Whether a ball can go straight from `a` to the neighbouring cell `b`.
    public func connects(_ a: MazeCell, _ b: MazeCell) -> Bool {
        if a.row == b.row && b.column == a.column + 1 { return opensRight(a) }
        if a.row == b.row && a.column == b.column + 1 { return opensRight(b) }
        if a.column == b.column && b.row == a.row + 1 { return opensDown(a) }
        if a.column == b.column && a.row == b.row + 1 { return opensDown(b) }
        return false
    }

    /// The cells reachable in one move from cell index `i`.
    public func passages(from i: Int) -> [Int] {
        neighbours(of: i).filter { connects(cell(i), cell($0)) }
    }

    /// Moves from `start` to every cell (all reachable: the maze is perfect).
    public func distances(from start: MazeCell) -> [Int] {
        var distance = Array(repeating: -1, count: cellCount)
        var queue = [index(start)]
        distance[queue[0]] = 0
        var head = 0
        while head < queue.count {
            let i = queue[head]; head += 1
            for n in passages(from: i) where distance[n] < 0 {
                distance[n] = distance[i] + 1
                queue.append(n)
            }
        }
        return distance
    }

    /// The cell farthest from `start` (the first in reading order among equals): the goal.
    public func farthestCell(from start: MazeCell) -> MazeCell {
        let d = distances(from: start)
        var best = 0
        for i in d.indices where d[i] > d[best] { best = i }
        return cell(best)
    }

    /// The one way from `a` to `b`, both included.
    public func path(from a: MazeCell, to b: MazeCell) -> [MazeCell] {
        let d = distances(from: a)
        var i = index(b)
        guard d[i] >= 0 else { return [] }
        var reversed = [b]
        while d[i] > 0 {
            guard let previous = passages(from: i).first(where: { d[$0] == d[i] - 1 }) else { return [] }
            i = previous
            reversed.append(cell(i))
        }
        return reversed.reversed()
    }

    private func neighbours(of i: Int) -> [Int] {
        let c = i % columns, r = i / columns
        var out: [Int] = []
        if r > 0 { out.append(i - columns) }
        if c < columns - 1 { out.append(i + 1) }
        if r < rows - 1 { out.append(i + columns) }
        if c > 0 { out.append(i - 1) }
        return out
    }

    private mutating func open(_ a: Int, _ b: Int) {
        let lo = min(a, b), hi = max(a, b)
        if hi - lo == columns { openDown[lo] = true } else { openRight[lo] = true }
    }
}
