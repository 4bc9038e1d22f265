import Geometry

/// A uniform grid over the discs' area for the collision broad phase: a chosen set of discs
/// (listed by index, ascending) is sorted into the cells their bounding boxes cover
/// (counting sort into flat arrays, reused every build, so a build allocates nothing once
/// the arrays have grown). Each cell lists its discs in ascending index order.
struct UniformGrid {
    /// Where the cells lie.
    struct Layout {
        var columns = 0, rows = 0
        var originX = 0.0, originY = 0.0, inverseCell = 1.0

        /// The cells covered by a disc's bounding box, clamped to the grid (discs reaching
        /// past the area share the border cells).
        @inline(__always)
        func cellRange(_ x: Double, _ y: Double, _ r: Double) -> (Int, Int, Int, Int) {
            @inline(__always)
            func clamp(_ v: Double, _ limit: Int) -> Int {
                guard v.isFinite else { return 0 }
                // Clamped before the conversion: a disc far outside must not trap. At or
                // above 0 the conversion's truncation is the floor.
                return Int(min(max(v, 0), Double(limit - 1)))
            }
            return (clamp((x - r - originX) * inverseCell, columns), clamp((y - r - originY) * inverseCell, rows),
                    clamp((x + r - originX) * inverseCell, columns), clamp((y + r - originY) * inverseCell, rows))
        }
    }
    private(set) var layout = Layout()

    static func layout(over area: Rect, cellSize: Double) -> Layout {
        Layout(columns: max(1, Int((area.width / cellSize).rounded(.up))), rows: max(1, Int((area.height / cellSize).rounded(.up))),
               originX: area.minX, originY: area.minY, inverseCell: 1 / cellSize)
    }
    var columns: Int { layout.columns }
    var rows: Int { layout.rows }
    private var starts: [Int32] = []
    private var entries: [Int32] = []
    private var cursor: [Int32] = []
    /// By disc index; meaningful for the discs of the last build only.
    private var ranges: [SIMD4<Int32>] = []

    /// All discs.
    mutating func build(px: [Double], py: [Double], radius: [Double], area: Rect, cellSize: Double) {
        build(members: (0..<Int32(px.count)).map { $0 }, px: px, py: py, radius: radius, area: area, cellSize: cellSize)
    }

    /// The discs `members` (indices into the arrays, ascending).
    mutating func build(members: [Int32], px: [Double], py: [Double], radius: [Double], area: Rect, cellSize: Double) {
        let layout = UniformGrid.layout(over: area, cellSize: cellSize)
        self.layout = layout
        let columns = layout.columns
        let cells = columns * layout.rows
        if starts.count != cells + 1 { starts = Array(repeating: 0, count: cells + 1); cursor = Array(repeating: 0, count: cells) }
        if ranges.count < px.count { ranges = Array(repeating: SIMD4(), count: px.count) }
        // Plain buffers in the two passes over the members: no bounds or uniqueness checks per
        // disc and cell (every index is a clamped cell or a member below the arrays' count).
        var total = 0
        starts.withUnsafeMutableBufferPointer { starts in
            ranges.withUnsafeMutableBufferPointer { ranges in
                starts.update(repeating: 0)
                for m in members {
                    let i = Int(m)
                    let r = layout.cellRange(px[i], py[i], radius[i])
                    ranges[i] = SIMD4(Int32(r.0), Int32(r.1), Int32(r.2), Int32(r.3))
                    for y in r.1...r.3 { for x in r.0...r.2 { starts[y * columns + x + 1] += 1 } }
                    total += (r.2 - r.0 + 1) * (r.3 - r.1 + 1)
                }
            }
        }
        if entries.count < total { entries = Array(repeating: 0, count: total) }
        starts.withUnsafeMutableBufferPointer { starts in
            cursor.withUnsafeMutableBufferPointer { cursor in
                for c in 0..<cells { starts[c + 1] += starts[c]; cursor[c] = starts[c] }
                entries.withUnsafeMutableBufferPointer { entries in
                    for m in members {
                        let r = ranges[Int(m)]
                        for y in Int(r.y)...Int(r.w) {
                            for x in Int(r.x)...Int(r.z) {
                                let c = y * columns + x
                                entries[Int(cursor[c])] = m
                                cursor[c] += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Disc `i`'s cells as of the last `build` that listed it: (x0, y0, x1, y1).
    func range(_ i: Int) -> SIMD4<Int32> { ranges[i] }

    /// Where cell (x, y)'s discs lie in `entries`.
    @inline(__always)
    func span(_ x: Int, _ y: Int) -> Range<Int> {
        let c = y * layout.columns + x
        return Int(starts[c])..<Int(starts[c + 1])
    }

    @inline(__always)
    func entry(_ k: Int) -> Int { Int(entries[k]) }

    func members(_ x: Int, _ y: Int) -> ArraySlice<Int32> { entries[span(x, y)] }

    /// The grid as plain buffers, for the pair loop (no bounds checks per member).
    struct View {
        fileprivate let columns: Int
        fileprivate let starts: UnsafeBufferPointer<Int32>
        fileprivate let entries: UnsafeBufferPointer<Int32>
        fileprivate let ranges: UnsafeBufferPointer<SIMD4<Int32>>

        @inline(__always)
        func span(_ x: Int, _ y: Int) -> (Int, Int) {
            let c = y &* columns &+ x   // a cell of the grid: no overflow
            return (Int(starts[c]), Int(starts[c + 1]))
        }
        @inline(__always)
        func entry(_ k: Int) -> Int { Int(entries[k]) }
        @inline(__always)
        func range(_ i: Int) -> SIMD4<Int32> { ranges[i] }
    }

    func withView<R>(_ body: (View) -> R) -> R {
        starts.withUnsafeBufferPointer { starts in
            entries.withUnsafeBufferPointer { entries in
                ranges.withUnsafeBufferPointer { ranges in
                    body(View(columns: layout.columns, starts: starts, entries: entries, ranges: ranges))
                }
            }
        }
    }
}
