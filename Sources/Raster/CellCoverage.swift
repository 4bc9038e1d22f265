#if canImport(Glibc)
import Glibc
#endif
import Geometry

// General polygons (and circles too large for Discs.swift): segments deposit signed cover
// and area into whole-canvas cells, and a sweep turns them into coverage (non-zero winding).
// Convex shapes use the same row-of-cells step where a side is not one straight piece in a row.
extension Canvas {
    // MARK: General outlines (polygons): whole-canvas cells

    @inline(__always) func beginFill() { rowMin = Int.max; rowMax = Int.min }

    func addPolygon(_ n: Int, reversed: Bool) {
        let v = vertices
        var prev = v[n - 1]
        for k in 0..<n {
            let p = v[k]
            if reversed { addEdge(p.x, p.y, prev.x, prev.y) } else { addEdge(prev.x, prev.y, p.x, p.y) }
            prev = p
        }
    }

    /// Deposits edge (x0, y0) → (x1, y1) into the cells of every canvas row it crosses.
    @inline(__always) func addEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 { return }
        let h = Double(buffer.height)
        let sign: Double = y1 > y0 ? 1 : -1
        let (xa, ya, xb, yb) = y1 > y0 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let top = Swift.max(ya, 0), bottom = Swift.min(yb, h)
        if !(top < bottom) { return }
        let dxdy = (xb - xa) / (yb - ya)
        var row = Int(top)
        if row >= buffer.height { return }
        let lastRow = Swift.min(Int(bottom.rounded(.up)) - 1, buffer.height - 1)
        if row < rowMin { rowMin = row }
        if lastRow > rowMax { rowMax = lastRow }
        var yTop = top
        var xTop = xa + (top - ya) * dxdy
        while row <= lastRow {
            let yBottom = Swift.min(Double(row + 1), bottom)
            let xBottom = yBottom == yb ? xb : xa + (yBottom - ya) * dxdy
            if yBottom > yTop {
                var lo = Int.max, hi = Int.min
                addRowSegment(cells + row * cellStride, xTop, xBottom, (yBottom - yTop) * sign, &lo, &hi)
                if lo <= hi { noteRange(row, lo, hi) }
            }
            yTop = yBottom; xTop = xBottom
            row += 1
        }
    }

    // MARK: Row segments → cells (both paths)

    /// A segment inside one row going from x = `xa` to `xb` while y advances by `dy` (signed).
    /// Parts left of the canvas become a vertical line at x = 0 (same coverage for every pixel
    /// inside); parts right of it cannot affect any pixel inside and are dropped.
    @inline(__always) func addRowSegment(_ base: UnsafeMutablePointer<SIMD2<Float>>, _ xa: Double, _ xb: Double,
                                                 _ dy: Double, _ lo: inout Int, _ hi: inout Int) {
        let w = Double(buffer.width)
        if xa >= 0 && xb >= 0 && xa <= w && xb <= w {
            walkColumns(base, xa, xb, dy, &lo, &hi)
            return
        }
        // Overflowed geometry (coordinates near Double's limits) draws nothing rather than trap.
        if xa.isNaN || xb.isNaN || dy.isNaN { return }
        var xa = xa, xb = xb, dy = dy
        if xa <= 0 && xb <= 0 {
            accumulate(base, dy, 0)
            lo = 0; if hi < 0 { hi = 0 }
            return
        }
        if xa >= w && xb >= w { return }
        if xa < 0 || xb < 0 {
            // Split at x = 0; the outside part goes to column 0 as a vertical line.
            let f = (0 - xa) / (xb - xa) // fraction of the way where x = 0
            let outside = xa < 0 ? dy * f : dy * (1 - f)
            accumulate(base, outside, 0)
            lo = 0; if hi < 0 { hi = 0 }
            dy -= outside
            if xa < 0 { xa = 0 } else { xb = 0 }
        }
        if xa > w || xb > w {
            let f = (w - xa) / (xb - xa)
            dy = xa <= w ? dy * f : dy * (1 - f)
            if xa > w { xa = w } else { xb = w }
        }
        walkColumns(base, xa, xb, dy, &lo, &hi)
    }

    /// Spreads a row segment over the columns it crosses: each column gets the height it
    /// spends there (cover) and the area between the segment and the column's left side.
    @inline(__always) func walkColumns(_ base: UnsafeMutablePointer<SIMD2<Float>>, _ xa: Double, _ xb: Double,
                                               _ dy: Double, _ lo: inout Int, _ hi: inout Int) {
        let lastCol = buffer.width - 1
        let ca = Swift.min(Int(xa), lastCol), cb = Swift.min(Int(xb), lastCol)
        if ca == cb {
            let mid = (xa + xb) * 0.5 - Double(ca)
            accumulate(base + ca, dy, dy * mid)
            if ca < lo { lo = ca }
            if ca > hi { hi = ca }
            return
        }
        let dydx = dy / (xb - xa)
        if xb > xa {
            // First, partial column.
            var edge = Double(ca + 1)
            var d = (edge - xa) * dydx
            accumulate(base + ca, d, d * ((xa + edge) * 0.5 - Double(ca)))
            var used = d
            // Whole columns: the segment crosses each in full width, mean x at the middle.
            let full = SIMD2<Float>(Float(dydx), Float(dydx * 0.5))
            var c = ca + 1
            while c < cb {
                base[c] += full
                c += 1
            }
            used += dydx * Double(cb - ca - 1)
            edge = Double(cb)
            d = dy - used
            accumulate(base + cb, d, d * (xb - edge) * 0.5)
            if ca < lo { lo = ca }
            if cb > hi { hi = cb }
        } else {
            var edge = Double(ca)
            var d = (edge - xa) * dydx // has dy's sign: both factors change sign together
            accumulate(base + ca, d, d * ((xa + edge) * 0.5 - Double(ca)))
            var used = d
            let full = SIMD2<Float>(Float(-dydx), Float(-dydx * 0.5))
            var c = ca - 1
            while c > cb {
                base[c] += full
                c -= 1
            }
            used -= dydx * Double(ca - cb - 1)
            edge = Double(cb + 1)
            d = dy - used
            accumulate(base + cb, d, d * ((xb + edge) * 0.5 - Double(cb)))
            if cb < lo { lo = cb }
            if ca > hi { hi = ca }
        }
    }

    @inline(__always) func accumulate(_ cell: UnsafeMutablePointer<SIMD2<Float>>, _ cover: Double, _ area: Double) {
        cell.pointee += SIMD2(Float(cover), Float(area))
    }

    /// Remembers that row `row` has cells in columns lo…hi.
    @inline(__always) func noteRange(_ row: Int, _ lo: Int, _ hi: Int) {
        let base = row * Canvas.rangesPerRow
        let n = Int(rangeCount[row])
        let lo32 = Int32(lo), hi32 = Int32(hi)
        // Consecutive edges of an outline touch neighbouring cells: extend the range they share.
        for i in 0..<n {
            let l = rangeLo[base + i], h = rangeHi[base + i]
            if lo32 <= h + 1 && hi32 >= l - 1 {
                if lo32 < l { rangeLo[base + i] = lo32 }
                if hi32 > h { rangeHi[base + i] = hi32 }
                return
            }
        }
        if n < Canvas.rangesPerRow {
            rangeLo[base + n] = lo32; rangeHi[base + n] = hi32
            rangeCount[row] = Int32(n + 1)
            return
        }
        // Full: widen the closest range (cells in between are zero, and sweeping zeros is harmless).
        var best = 0, bestGap = Int32.max
        for i in 0..<n {
            let gap = lo32 > rangeHi[base + i] ? lo32 - rangeHi[base + i] : rangeLo[base + i] - hi32
            if gap < bestGap { bestGap = gap; best = i }
        }
        if lo32 < rangeLo[base + best] { rangeLo[base + best] = lo32 }
        if hi32 > rangeHi[base + best] { rangeHi[base + best] = hi32 }
    }

    func endFill(_ color: Color) {
        if rowMin > rowMax { return }
        var minCol = Int.max, maxCol = Int.min
        if let coverageSink {
            sweep(CoveragePainter(base: coverageSink, width: buffer.width), &minCol, &maxCol)
        } else {
            switch (buffer.format, clip) {
            case (.xrgb8888, nil): sweep(XRGBPainter(buffer: buffer, color: color), &minCol, &maxCol)
            case (.rgb565, nil): sweep(RGB565Painter(buffer: buffer, color: color), &minCol, &maxCol)
            case (.xrgb8888, _?): sweep(ClippedPainter(XRGBPainter(buffer: buffer, color: color), drawable), &minCol, &maxCol)
            case (.rgb565, _?): sweep(ClippedPainter(RGB565Painter(buffer: buffer, color: color), drawable), &minCol, &maxCol)
            }
        }
        if minCol <= maxCol {
            addDamage(PixelRect(x: minCol, y: rowMin, width: maxCol - minCol + 1, height: rowMax - rowMin + 1))
        }
    }

    /// Turns the cells of rows rowMin…rowMax into pixels and zeroes them again.
    @inline(__always) func sweep<P: Painter>(_ painter: P, _ minCol: inout Int, _ maxCol: inout Int) {
        let w = buffer.width
        for row in rowMin...rowMax {
            let n = Int(rangeCount[row])
            if n == 0 { continue }
            rangeCount[row] = 0
            // Ranges sorted by start, in place (at most 4: insertion sort).
            let lo = rangeLo + row * Canvas.rangesPerRow, hi = rangeHi + row * Canvas.rangesPerRow
            if n > 1 {
                for i in 1..<n {
                    let l = lo[i], h = hi[i]
                    var j = i
                    while j > 0 && lo[j - 1] > l { lo[j] = lo[j - 1]; hi[j] = hi[j - 1]; j -= 1 }
                    lo[j] = l; hi[j] = h
                }
            }
            let cellRow = cells + row * cellStride
            let pixels = painter.row(row)
            var run: Float = 0 // sum of covers left of the current column
            var x = 0
            var i = 0
            while i < n {
                let start = Int(lo[i])
                var end = Int(hi[i])
                i += 1
                while i < n && Int(lo[i]) <= end + 1 { end = Swift.max(end, Int(hi[i])); i += 1 }
                let from = Swift.max(start, x)
                if from > x { fillGap(painter, pixels, x, from, run, &minCol, &maxCol) }
                sweepCells(painter, pixels, cellRow, from, end, &run, &minCol, &maxCol)
                x = end + 1
            }
            if x < w && run != 0 { fillGap(painter, pixels, x, w, run, &minCol, &maxCol) }
        }
    }
}
