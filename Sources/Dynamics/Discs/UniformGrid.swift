import Geometry

/// A uniform grid over the discs' area for the collision broad phase: discs are sorted into
/// the cells their bounding boxes cover (counting sort into flat arrays, reused every step,
/// so a step allocates nothing once the arrays have grown).
struct UniformGrid {
    private(set) var columns = 0, rows = 0
    private var originX = 0.0, originY = 0.0, inverseCell = 1.0
    private var starts: [Int32] = []
    private var entries: [Int32] = []
    private var cursor: [Int32] = []
    private var ranges: [SIMD4<Int32>] = []

    mutating func build(px: [Double], py: [Double], radius: [Double], area: Rect, cellSize: Double) {
        originX = area.minX; originY = area.minY
        inverseCell = 1 / cellSize
        columns = max(1, Int((area.width / cellSize).rounded(.up)))
        rows = max(1, Int((area.height / cellSize).rounded(.up)))
        let cells = columns * rows
        if starts.count != cells + 1 { starts = Array(repeating: 0, count: cells + 1); cursor = Array(repeating: 0, count: cells) }
        for c in 0...cells { starts[c] = 0 }
        let n = px.count
        if ranges.count != n { ranges = Array(repeating: SIMD4(), count: n) }
        var total = 0
        for i in 0..<n {
            let (x0, y0, x1, y1) = cellRange(px[i], py[i], radius[i])
            ranges[i] = SIMD4(Int32(x0), Int32(y0), Int32(x1), Int32(y1))
            for y in y0...y1 { for x in x0...x1 { starts[y * columns + x + 1] += 1 } }
            total += (x1 - x0 + 1) * (y1 - y0 + 1)
        }
        for c in 0..<cells { starts[c + 1] += starts[c]; cursor[c] = starts[c] }
        if entries.count < total { entries = Array(repeating: 0, count: total) }
        for i in 0..<n {
            let r = ranges[i]
            for y in Int(r.y)...Int(r.w) {
                for x in Int(r.x)...Int(r.z) {
                    let c = y * columns + x
                    entries[Int(cursor[c])] = Int32(i)
                    cursor[c] += 1
                }
            }
        }
    }

    /// Disc `i`'s cells as of the last `build`: (x0, y0, x1, y1).
    func range(_ i: Int) -> SIMD4<Int32> { ranges[i] }

    /// The cells covered by a disc's bounding box, clamped to the grid (discs reaching past
    /// the area share the border cells).
    func cellRange(_ x: Double, _ y: Double, _ r: Double) -> (Int, Int, Int, Int) {
        func clamp(_ v: Double, _ limit: Int) -> Int {
            guard v.isFinite else { return 0 }
            // Clamped before the conversion: a disc far outside must not trap.
            return Int(min(max(v.rounded(.down), 0), Double(limit - 1)))
        }
        return (clamp((x - r - originX) * inverseCell, columns), clamp((y - r - originY) * inverseCell, rows),
                clamp((x + r - originX) * inverseCell, columns), clamp((y + r - originY) * inverseCell, rows))
    }

    func members(_ x: Int, _ y: Int) -> ArraySlice<Int32> {
        let c = y * columns + x
        return entries[Int(starts[c])..<Int(starts[c + 1])]
    }
}
