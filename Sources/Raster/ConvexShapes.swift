#if canImport(Glibc)
import Glibc
#endif
import Geometry

// Convex shapes (discs, transformed rectangles, lines, convex polygons) row by row along
// their two sides: closed-form edge pixels, bands of whole rows, constant spans between.
extension Canvas {
    // MARK: Convex shapes: row by row, two chains

    /// One side of a convex shape within one row, as one straight piece whose x runs
    /// linearly over [lo, hi] while y crosses the row part of height h. The area of pixel
    /// column c lying left of it is h·(G(hi − c) − G(lo − c)) / (hi − lo), with G the
    /// integral of clamp(z, 0, 1); k = h / (hi − lo) = |dy/dx| comes from the segment, so
    /// no row needs a division.
    struct RowSide {
        var lo: Double, hi: Double, k: Double

        @inline(__always) init(lo: Double, hi: Double, k: Double) {
            self.lo = lo; self.hi = hi; self.k = k
        }
        @inline(__always) init(_ xa: Double, _ xb: Double, _ h: Double, _ steepness: Double) {
            lo = Swift.min(xa, xb); hi = Swift.max(xa, xb); k = steepness
            if hi - lo < 1e-6 {
                // A (nearly) vertical piece gets a hair of width around its mean x, so that
                // one formula serves.
                let mid = (lo + hi) * 0.5
                lo = mid - 0.5e-6; hi = mid + 0.5e-6; k = h * 1e6
            }
        }
        /// Area left of the piece in column c, when the piece lies inside that column.
        @inline(__always) func singleColumnArea(_ c: Int, _ h: Double) -> Double {
            h * ((lo + hi) * 0.5 - Double(c))
        }
    }

    /// A downward walk along one side of a convex polygon.
    struct Chain {
        var index: Int, next: Int
        let step: Int
        var a: SIMD2<Double>, b: SIMD2<Double>
        var dxdy: Double
        /// |dy/dx| (infinite for a vertical segment).
        var steepness: Double
        init(_ v: UnsafeMutablePointer<SIMD2<Double>>, _ n: Int, top: Int, step: Int) {
            self.step = step
            index = top; next = (top + step) % n
            a = v[index]; b = v[next]
            dxdy = 0; steepness = 0
            slopes()
        }
        @inline(__always) mutating func slopes() {
            let dy = b.y - a.y, dx = b.x - a.x
            dxdy = dy > 0 ? dx / dy : 0
            steepness = dy / abs(dx)
        }
        @inline(__always) mutating func advance(_ v: UnsafeMutablePointer<SIMD2<Double>>, _ n: Int) {
            index = next
            next = next + step >= n ? next + step - n : next + step
            a = b; b = v[next]
            slopes()
        }
    }

    /// Fills the convex polygon `vertices[0..<n]` (either orientation).
    func fillConvex(_ n: Int, _ color: Color) {
        if let coverageSink {
            convex(CoveragePainter(base: coverageSink, width: buffer.width), n)
        } else {
            switch (buffer.format, clip) {
            case (.xrgb8888, nil): convex(XRGBPainter(buffer: buffer, color: color), n)
            case (.rgb565, nil): convex(RGB565Painter(buffer: buffer, color: color), n)
            case (.xrgb8888, _?): convex(ClippedPainter(XRGBPainter(buffer: buffer, color: color), drawable), n)
            case (.rgb565, _?): convex(ClippedPainter(RGB565Painter(buffer: buffer, color: color), drawable), n)
            }
        }
    }

    @inline(__always) func convex<P: Painter>(_ painter: P, _ n: Int) {
        let v = vertices
        var top = 0, bottom = 0
        for i in 1..<n {
            if v[i].y < v[top].y { top = i }
            if v[i].y > v[bottom].y { bottom = i }
        }
        let yMin = v[top].y, yMax = v[bottom].y
        let h = Double(buffer.height)
        guard yMin < yMax, yMin < h, yMax > 0 else { return }
        // Only the rows of the clip: each row's coverage depends on the outline alone (the
        // chains are found again from the row's y), so rows outside it need no sweeping.
        let rows = clip == nil || coverageSink != nil ? bounds : drawable
        let firstRow = Swift.max(Int(Swift.max(yMin, 0)), rows.y)
        let lastRow = Swift.min(Int(Swift.min(yMax, h).rounded(.up)) - 1, buffer.height - 1, rows.maxY - 1)
        if firstRow > lastRow { return }
        // The chains start downward from the top vertex, one each way round.
        var right = Chain(v, n, top: top, step: 1)
        var left = Chain(v, n, top: top, step: n - 1)
        var minCol = Int.max, maxCol = Int.min
        let w = Double(buffer.width)
        var row = firstRow - 1
        while row < lastRow {
            row += 1
            let y0 = Swift.max(Double(row), yMin), y1 = Swift.min(Double(row + 1), yMax)
            // Pieces that end at or above this row's top are done (a vertex on a row boundary
            // then leaves the row simple).
            while right.b.y <= y0 && right.next != bottom { right.advance(v, n) }
            while left.b.y <= y0 && left.next != bottom { left.advance(v, n) }
            // Commonest case: whole rows on which both current segments carry on.
            if y0 == Double(row) && right.a.y <= y0 && left.a.y <= y0 {
                // (Clamped before Int(): a huge shape's segments may end far beyond any Int.)
                let end = Int(Swift.min(Swift.min(right.b.y, left.b.y), Double(lastRow + 1))) - 1
                if end >= row, let last = paintBand(painter, left, right, row, end, &minCol, &maxCol) {
                    row = last
                    continue
                }
            }
            // Fast path, most rows of most shapes: each side crosses the row as one straight
            // piece, inside the canvas (or wholly beyond the edge it faces). The edge pixels'
            // coverage is then a closed form (see `RowSide`), with no cells.
            if let (ls, rs) = simpleSides(left, right, y0, y1, w) {
                if rs.hi <= 0 || ls.lo >= w { continue } // the row's part lies off the canvas
                let hh = y1 - y0
                let pixels = painter.row(row)
                var gapStart = 0, gapEnd = buffer.width
                if ls.hi > 0 {
                    let l0 = Int(ls.lo), l1 = Int(ls.hi)
                    if l0 == l1 {
                        paintEdge(painter, pixels, l0, Float(hh - ls.singleColumnArea(l0, hh)))
                    } else {
                        paintSide(painter, pixels, ls, l0, l1, hh, left: true)
                    }
                    gapStart = l1 + 1
                    if l0 < minCol { minCol = l0 }
                }
                if rs.lo < w {
                    let r0 = Int(rs.lo), r1 = Int(rs.hi)
                    if r0 == r1 {
                        paintEdge(painter, pixels, r0, Float(rs.singleColumnArea(r0, hh)))
                    } else {
                        paintSide(painter, pixels, rs, r0, r1, hh, left: false)
                    }
                    gapEnd = r0
                    if r1 > maxCol { maxCol = r1 }
                }
                if gapEnd > gapStart { fillGap(painter, pixels, gapStart, gapEnd, Float(hh), &minCol, &maxCol) }
                continue
            }
            var loA = Int.max, hiA = Int.min, loB = Int.max, hiB = Int.min
            walk(&right, n, bottom, y0, y1, 1, &loA, &hiA)
            walk(&left, n, bottom, y0, y1, -1, &loB, &hiB)
            if loB < loA { swap(&loA, &loB); swap(&hiA, &hiB) }
            if loA == Int.max { continue }
            let pixels = painter.row(row)
            var run: Float = 0
            sweepCells(painter, pixels, rowCells, loA, hiA, &run, &minCol, &maxCol)
            var end = hiA
            if loB != Int.max {
                if loB > hiA + 1 {
                    fillGap(painter, pixels, hiA + 1, loB, run, &minCol, &maxCol)
                    sweepCells(painter, pixels, rowCells, loB, hiB, &run, &minCol, &maxCol)
                } else if hiB > hiA {
                    sweepCells(painter, pixels, rowCells, hiA + 1, hiB, &run, &minCol, &maxCol)
                }
                end = Swift.max(hiA, hiB)
            }
            // Right side clipped away: the coverage carries on to the canvas edge.
            if run != 0 && end + 1 < buffer.width {
                fillGap(painter, pixels, end + 1, buffer.width, run, &minCol, &maxCol)
            }
        }
        if minCol <= maxCol {
            addDamage(PixelRect(x: minCol, y: firstRow, width: maxCol - minCol + 1, height: lastRow - firstRow + 1))
        }
    }

    /// When both chains cross the row [y0, y1] as one straight piece each, each inside the
    /// canvas or wholly beyond its left (for the left side) or right (for the right side)
    /// edge, in different columns: those pieces as (left, right).
    @inline(__always) func simpleSides(_ left: Chain, _ right: Chain, _ y0: Double, _ y1: Double,
                                               _ w: Double) -> (RowSide, RowSide)? {
        guard right.a.y <= y0 && right.b.y >= y1 && left.a.y <= y0 && left.b.y >= y1 && y1 > y0 else { return nil }
        let ra = right.a.x + (y0 - right.a.y) * right.dxdy, rb = right.a.x + (y1 - right.a.y) * right.dxdy
        let la = left.a.x + (y0 - left.a.y) * left.dxdy, lb = left.a.x + (y1 - left.a.y) * left.dxdy
        let h = y1 - y0
        let one = RowSide(ra, rb, h, right.steepness), other = RowSide(la, lb, h, left.steepness)
        let swapped = ra + rb < la + lb
        let l = swapped ? one : other, r = swapped ? other : one
        let leftOK = l.hi <= 0 || (l.lo >= 0 && l.hi < w)
        let rightOK = r.lo >= w || (r.lo >= 0 && r.hi < w)
        // Sides sharing a column need cells (their coverages subtract in the same pixel).
        guard leftOK && rightOK && (l.hi <= 0 || r.lo >= w || Int(l.hi) < Int(r.lo)) else { return nil }
        return (l, r)
    }

    /// Whole rows from `from` on (up to `to`) during which each chain stays on its current
    /// segment: x moves by dx/dy per row on both sides, so each row costs its edge pixels and
    /// its span and no tests. The band ends early where a side would leave the canvas or the
    /// sides come within a column of each other (the per-row path handles those rows); nil,
    /// with nothing painted, when that is already so in row `from`. Returns the last row painted.
    @inline(__always) func paintBand<P: Painter>(_ painter: P, _ a: Chain, _ b: Chain, _ from: Int, _ to: Int,
                                                         _ minCol: inout Int, _ maxCol: inout Int) -> Int? {
        let top = Double(from), bottom = Double(to + 1)
        let aTop = a.a.x + (top - a.a.y) * a.dxdy, bTop = b.a.x + (top - b.a.y) * b.dxdy
        let aEnd = a.a.x + (bottom - a.a.y) * a.dxdy, bEnd = b.a.x + (bottom - b.a.y) * b.dxdy
        let aIsLeft = aTop + aEnd < bTop + bEnd
        let lTop = aIsLeft ? aTop : bTop, rTop = aIsLeft ? bTop : aTop
        let lStep = aIsLeft ? a.dxdy : b.dxdy, rStep = aIsLeft ? b.dxdy : a.dxdy
        let lK = aIsLeft ? a.steepness : b.steepness, rK = aIsLeft ? b.steepness : a.steepness
        guard lK < 1e12 && rK < 1e12 else { return nil } // near-vertical pieces: per-row path
        // Each condition is linear in the row index i: g0 + i·slope ≥ 0 (with a hair of
        // margin); the band ends where one stops holding. A whole column between the pieces
        // (they must not share a pixel).
        let margin = 1e-6, w = Double(buffer.width)
        var rows = Double(to - from)
        @inline(__always) func holds(_ g0: Double, _ slope: Double) -> Bool {
            if !(g0 >= 0) { return false } // NaN too
            if slope < 0 {
                // q ≥ 0 and, when it matters, below `rows` (a whole number): truncation is
                // its floor, with no call to libm's floor (baseline x86-64 has no roundsd).
                let q = g0 / -slope
                if q < rows { rows = Double(Int(q)) }
            }
            return true
        }
        // A side either lies inside the canvas or wholly beyond the edge it faces (then the
        // span runs to that edge), for the whole band.
        let lMin = Swift.min(lTop, lTop + lStep), lMax = Swift.max(lTop, lTop + lStep)
        let rMin = Swift.min(rTop, rTop + rStep), rMax = Swift.max(rTop, rTop + rStep)
        let lInside = lMin >= margin, rInside = rMax <= w - margin
        guard lInside ? holds(lMin - margin, lStep) && holds(w - lMax - margin, -lStep) : holds(-lMax, -lStep),
              rInside ? holds(rMin - margin, rStep) && holds(w - rMax - margin, -rStep) : holds(rMin - w, rStep),
              holds(rMin - lMax - 1 - margin, rStep - lStep)
        else { return nil }
        let last = from + Int(rows)
        let lEnd = lTop + lStep * Double(last + 1 - from), rEnd = rTop + rStep * Double(last + 1 - from)
        let lFirst = lTop, rFirst = rTop
        bandRows(painter, from, last, lTop, lStep, lK, rTop, rStep, rK, left: lInside, right: rInside)
        // Both sides are straight over the band: their extreme columns are at its ends.
        let left = lInside ? Int(Swift.min(lFirst, lEnd)) : 0
        let right = rInside ? Int(Swift.max(rFirst, rEnd)) : buffer.width - 1
        if left < minCol { minCol = left }
        if right > maxCol { maxCol = right }
        return last
    }

    /// Rows from...last of `paintBand`; `left` / `right`: whether that side lies inside the
    /// canvas (else beyond the edge it faces, and the span runs to that edge). A function of
    /// its own, never inlined: the row loop then has the registers to itself, without
    /// paintBand's setup values around it (1-2 % faster, measured).
    @inline(never) func bandRows<P: Painter>(_ painter: P, _ from: Int, _ last: Int,
                                                _ lTop: Double, _ lStep: Double, _ lK: Double,
                                                _ rTop: Double, _ rStep: Double, _ rK: Double,
                                                left: Bool, right: Bool) {
        var lTop = lTop, rTop = rTop
        // Each row's piece runs from its top x to top + step: its ends in order are top plus
        // these (top + 0 is top, top + step the next row's top, exactly), with no comparison
        // per row (a max there was compiled to a branch).
        let lLow = Swift.min(lStep, 0), lHigh = Swift.max(lStep, 0)
        let rLow = Swift.min(rStep, 0), rHigh = Swift.max(rStep, 0)
        for row in from...last {
            let lBottom = lTop + lStep, rBottom = rTop + rStep
            let pixels = painter.row(row)
            var spanStart = 0, spanEnd = buffer.width
            if left && right {
                // Both sides inside: when each lies in one column (most rows of steep sides),
                // the two blends share one vector.
                let ll = lTop + lLow, lh = lTop + lHigh, rl = rTop + rLow, rh = rTop + rHigh
                let l0 = Int(ll), l1 = Int(lh), r0 = Int(rl), r1 = Int(rh)
                if l0 == l1 && r0 == r1 {
                    painter.pixelTwo(pixels, l0, edgeCoverage(1 - ((ll + lh) * 0.5 - Double(l0))),
                                     r0, edgeCoverage((rl + rh) * 0.5 - Double(r0)))
                } else {
                    if l0 == l1 {
                        paintEdge(painter, pixels, l0, Float(1 - ((ll + lh) * 0.5 - Double(l0))))
                    } else {
                        paintSide(painter, pixels, RowSide(lo: ll, hi: lh, k: lK), l0, l1, 1, left: true)
                    }
                    if r0 == r1 {
                        paintEdge(painter, pixels, r0, Float((rl + rh) * 0.5 - Double(r0)))
                    } else {
                        paintSide(painter, pixels, RowSide(lo: rl, hi: rh, k: rK), r0, r1, 1, left: false)
                    }
                }
                spanStart = l1 + 1; spanEnd = r0
            } else if left {
                let ll = lTop + lLow, lh = lTop + lHigh
                let l0 = Int(ll), l1 = Int(lh)
                if l0 == l1 {
                    paintEdge(painter, pixels, l0, Float(1 - ((ll + lh) * 0.5 - Double(l0))))
                } else {
                    paintSide(painter, pixels, RowSide(lo: ll, hi: lh, k: lK), l0, l1, 1, left: true)
                }
                spanStart = l1 + 1
            } else if right {
                let rl = rTop + rLow, rh = rTop + rHigh
                let r0 = Int(rl), r1 = Int(rh)
                if r0 == r1 {
                    paintEdge(painter, pixels, r0, Float((rl + rh) * 0.5 - Double(r0)))
                } else {
                    paintSide(painter, pixels, RowSide(lo: rl, hi: rh, k: rK), r0, r1, 1, left: false)
                }
                spanEnd = r0
            }
            if spanEnd > spanStart { painter.span(pixels, spanStart, spanEnd - spanStart, 1) }
            lTop = lBottom; rTop = rBottom
        }
    }

    /// The pixels of one single-piece side over columns c0 < c1. Columns the piece crosses
    /// from side to side have an area that falls linearly (by |dy/dx| per column), so only the
    /// two end columns need the general form.
    @inline(__always) func paintSide<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                         _ side: RowSide, _ c0: Int, _ c1: Int, _ hh: Double,
                                                         left: Bool) {
        let sign: Double = left ? -1 : 1, base = left ? hh : 0
        // End columns in closed form: in c0 the piece starts (lo − c0 in [0, 1)) and runs out
        // (hi − c0 ≥ 1); in c1 it ends (hi − c1 in [0, 1)) having started left of it.
        let f0 = side.lo - Double(c0), f1 = side.hi - Double(c1)
        let first = edgeCoverage(base + sign * side.k * (side.hi - Double(c0) - 0.5 - f0 * f0 * 0.5))
        let last = edgeCoverage(base + sign * side.k * f1 * f1 * 0.5)
        if c1 == c0 + 1 { // the commonest: one vector blend for both
            painter.pixelPair(pixels, c0, first, last)
            return
        }
        painter.pixel(pixels, c0, first)
        var a = side.k * (side.hi - Double(c0 + 1) - 0.5)
        var c = c0 + 1
        // Two at a time, then the odd one with the last column or alone.
        while c + 1 < c1 {
            let next = a - side.k
            painter.pixelPair(pixels, c, edgeCoverage(base + sign * a), edgeCoverage(base + sign * next))
            a = next - side.k
            c += 2
        }
        if c < c1 {
            painter.pixelPair(pixels, c, edgeCoverage(base + sign * a), last)
        } else {
            painter.pixel(pixels, c1, last)
        }
    }

    /// An edge pixel's coverage as painted: no test for "nothing to do" (weight 0 leaves the
    /// pixel as it was, and the branch would be unpredictable).
    @inline(__always) func edgeCoverage(_ coverage: Double) -> Float { Swift.min(abs(Float(coverage)), 1) }

    @inline(__always) func paintEdge<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                         _ x: Int, _ coverage: Float) {
        // No test for "nothing to do": weight 0 leaves the pixel as it was, and the branch
        // would be unpredictable.
        painter.pixel(pixels, x, Swift.min(abs(coverage), 1))
    }

    /// Deposits the part of `chain` between y0 and y1 (one row) into `rowCells`.
    @inline(__always) func walk(_ chain: inout Chain, _ n: Int, _ bottom: Int, _ y0: Double, _ y1: Double,
                                        _ sign: Double, _ lo: inout Int, _ hi: inout Int) {
        while true {
            if chain.b.y > y0 {
                let sy0 = Swift.max(chain.a.y, y0), sy1 = Swift.min(chain.b.y, y1)
                if sy1 > sy0 {
                    let xa = chain.a.x + (sy0 - chain.a.y) * chain.dxdy
                    let xb = sy1 == chain.b.y ? chain.b.x : chain.a.x + (sy1 - chain.a.y) * chain.dxdy
                    addRowSegment(rowCells, xa, xb, (sy1 - sy0) * sign, &lo, &hi)
                }
                if chain.b.y >= y1 { return }
            }
            if chain.next == bottom { return }
            chain.advance(vertices, n)
        }
    }

    @inline(__always) func sweepCells<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                          _ cells: UnsafeMutablePointer<SIMD2<Float>>,
                                                          _ from: Int, _ to: Int, _ run: inout Float,
                                                          _ minCol: inout Int, _ maxCol: inout Int) {
        var c = from
        var r = run
        while c <= to {
            let cell = cells[c]
            cells[c] = .zero
            let value = cell.y - (r + cell.x)
            r += cell.x
            painter.pixel(pixels, c, Swift.min(abs(value), 1)) // weight 0 changes nothing
            c += 1
        }
        run = r
        // Damage by cells swept: a cell whose coverage rounds to nothing may widen it by a pixel.
        if from < minCol { minCol = from }
        if to > maxCol { maxCol = to }
    }

    @inline(__always) func fillGap<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                       _ from: Int, _ to: Int, _ run: Float,
                                                       _ minCol: inout Int, _ maxCol: inout Int) {
        let a = Swift.min(abs(run), 1)
        if a >= P.visible && to > from {
            painter.span(pixels, from, to - from, a)
            if from < minCol { minCol = from }
            if to - 1 > maxCol { maxCol = to - 1 }
        }
    }
}
