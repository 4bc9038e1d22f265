import Geometry

// Discs and rings of quarter-turn circles (CircleFlattening.swift: cairo's polygon for radii
// from 5.4 to 366.9 px) with the polygon's exact area in every pixel, row by row, with no
// whole-canvas cells.
//
// Within one pixel row the outline splits into arcs (chains of the polygon's edges) that are
// monotone in x and y (one per side and half). Each arc is cut where it crosses the pixel
// columns' lines; within a column, the area left of the arc is the trapezoid under the chord
// between those crossings, plus what the polygon's vertices between them add to it (the
// `bend`: nothing for most pieces, which lie on one edge), plus the full column width for the
// height the arc spends right of the column. Row y's half-width and column x's half-height
// come from one table of a quarter of the polygon (its mirror symmetries make them the same
// function), once per row and once per column line per circle (shared by the upper and lower
// halves). Only + − × ÷: the same bits on every CPU.
// Most rows paint each arc's pixels as they are computed and the span between the arcs in
// one fill; the rows where arcs share columns (the centre's row, tiny circles, thin rings)
// sum them in one row of cells first. A ring is the outer disc minus the inner one: four
// arcs per row.
// What limits a disc is each edge pixel's chain of dependent operations (from its column
// line's height to the blended pixel) more than their count: so the bend joins the sum last,
// heights are taken unsigned and the weight is taken in Double.
extension Canvas {
    /// One circle of a disc or ring, with where it crosses the canvas's column lines.
    struct RoundOutline {
        let cx: Double, cy: Double, r: Double
        let quarter: FlatQuarter
        /// |y − cy| where the outline crosses x = m, for the lines m it reaches.
        let lineHeights: UnsafeMutablePointer<Double>
        /// The quarter's edge that holds that crossing.
        let lineEdges: UnsafeMutablePointer<Int32>

        init(cx: Double, cy: Double, quarter: FlatQuarter, lines: LineCrossings, columns: Int) {
            self.cx = cx; self.cy = cy; r = quarter.radius
            self.quarter = quarter
            lineHeights = lines.offsets; lineEdges = lines.edges
            let first = Swift.max((cx - r).rounded(.up), 0), last = Swift.min((cx + r).rounded(.down), Double(columns))
            guard first <= last else { return }
            let firstLine = Int(first), lastLine = Int(last)
            // Column and row are mirror images: the height at width d = |m − cx| is the width
            // at that height, on the mirrored edge. Lines left of the centre, then right of it
            // (d is then within [0, r] with no abs and no clamp).
            let centreLine = Swift.min(Swift.max(Int(cx.rounded(.up)), firstLine), lastLine + 1)
            let mirror = quarter.edges - 1
            if firstLine < centreLine {
                for m in firstLine..<centreLine {
                    let d = cx - Double(m), e = quarter.edge(at: d)
                    lineHeights[m] = quarter.halfWidth(d, edge: e)
                    lineEdges[m] = Int32(mirror - e)
                }
            }
            if centreLine <= lastLine {
                for m in centreLine...lastLine {
                    let d = Double(m) - cx, e = quarter.edge(at: d)
                    lineHeights[m] = quarter.halfWidth(d, edge: e)
                    lineEdges[m] = Int32(mirror - e)
                }
            }
        }
    }

    /// Draws the disc of radius `outer` less the one of radius `inner` (0: none) around the
    /// same centre.
    func fillRound(_ cx: Double, _ cy: Double, outer: Double, inner: Double, _ color: Color) {
        outerQuarter.prepare(radius: outer, scratch: vertices)
        let o = RoundOutline(cx: cx, cy: cy, quarter: outerQuarter, lines: outerColumns, columns: buffer.width)
        var i: RoundOutline? = nil
        if inner > 0 {
            innerQuarter.prepare(radius: inner, scratch: vertices)
            i = RoundOutline(cx: cx, cy: cy, quarter: innerQuarter, lines: innerColumns, columns: buffer.width)
        }
        if let coverageSink {
            round(CoveragePainter(base: coverageSink, width: buffer.width), o, i)
        } else {
            switch (buffer.format, clip) {
            case (.xrgb8888, nil): round(XRGBPainter(buffer: buffer, color: color), o, i)
            case (.rgb565, nil): round(RGB565Painter(buffer: buffer, color: color), o, i)
            case (.xrgb8888, _?): round(ClippedPainter(XRGBPainter(buffer: buffer, color: color), drawable), o, i)
            case (.rgb565, _?): round(ClippedPainter(RGB565Painter(buffer: buffer, color: color), drawable), o, i)
            }
        }
    }

    /// Into the row's cells, with the arc's sign, for `sweepRound`.
    struct CellSink: ArcSink {
        let cells: UnsafeMutablePointer<SIMD2<Float>>, sign: Double
        @inline(__always) mutating func drop(_ k: Int, _ cover: Double) { cells[k].x += Float(cover) }
        @inline(__always) mutating func column(_ k: Int, straight: Double, curved: Double) {
            cells[k].y += Float(sign * (straight + curved))
        }
    }

    /// Straight onto the pixels: coverage base + sign·area (an arc alone in its columns,
    /// but for the `shared` one: its coverage from the first arc is `held`, and the second
    /// one paints it with `held` added).
    struct EdgePainter<P: Painter>: ArcSink {
        let painter: P, pixels: UnsafeMutablePointer<P.Pixel>, base: Double, sign: Double, shared: Int
        var held = 0.0
        init(painter: P, pixels: UnsafeMutablePointer<P.Pixel>, base: Double, sign: Double, shared: Int) {
            self.painter = painter; self.pixels = pixels; self.base = base; self.sign = sign; self.shared = shared
        }
        @inline(__always) mutating func drop(_ k: Int, _ cover: Double) {}
        @inline(__always) mutating func column(_ k: Int, straight: Double, curved: Double) {
            paint(k, (base + sign * straight) + sign * curved) // the bend joins last, as in ArcPainter
        }
        @inline(__always) mutating func paint(_ k: Int, _ coverage: Double) {
            var coverage = coverage
            if k == shared {
                if sign < 0 { held = coverage; return }
                coverage += held
            }
            painter.edgePixel(pixels, k, coverage)
        }
    }

    /// Straight onto the pixels: coverage base + sign·area, for an arc alone in its columns.
    struct ArcPainter<P: Painter>: ArcSink {
        let painter: P, pixels: UnsafeMutablePointer<P.Pixel>, base: Double, sign: Double
        @inline(__always) mutating func drop(_ k: Int, _ cover: Double) {}
        @inline(__always) mutating func column(_ k: Int, straight: Double, curved: Double) {
            // The bend, last to be known, joins last: one addition after it, not three.
            painter.edgePixel(pixels, k, (base + sign * straight) + sign * curved)
        }
    }

    /// Column ranges of one row's arcs, up to four (a ring's), and the cover each drops.
    struct RowArcs {
        var lo = SIMD4<Int>(repeating: 0), hi = SIMD4<Int>(repeating: 0)
        var drop = SIMD4<Double>(repeating: 0)
        var count = 0
        @inline(__always) mutating func add(_ l: Int, _ h: Int, _ d: Double) {
            lo[count] = l; hi[count] = h; drop[count] = d; count += 1
        }
    }

    /// The rows of the disc `o` less `inner`, those of the clip only (each row's coverage
    /// depends on the circles alone).
    @inline(__always) func round<P: Painter>(_ painter: P, _ o: RoundOutline, _ inner: RoundOutline?) {
        let rows = clip == nil || coverageSink != nil ? bounds : drawable
        let top = Swift.max(o.cy - o.r, Double(rows.y)), bottom = Swift.min(o.cy + o.r, Double(rows.maxY))
        guard top < bottom else { return }
        let firstRow = Int(top.rounded(.down)), lastRow = Int(bottom.rounded(.up)) - 1
        var minCol = Int.max, maxCol = Int.min
        if inner == nil && o.cx - o.r >= 0 && o.cx + o.r <= Double(buffer.width) {
            discInside(painter, o, firstRow, lastRow, &minCol, &maxCol)
            if minCol <= maxCol {
                addDamage(PixelRect(x: minCol, y: firstRow, width: maxCol - minCol + 1, height: lastRow - firstRow + 1))
            }
            return
        }
        measureRowLines(o, firstRow, lastRow, outerRows)
        if let i = inner { measureRowLines(i, firstRow, lastRow, innerRows, everyLineClamped: true) }
        for row in firstRow...lastRow {
            let y0 = Swift.max(Double(row) - o.cy, -o.r), y1 = Swift.min(Double(row + 1) - o.cy, o.r)
            let top = row - firstRow
            let outerTop = outerRows.offsets[top], outerBottom = outerRows.offsets[top + 1]
            let edges = (Int(outerRows.edges[top]), Int(outerRows.edges[top + 1]))
            var innerTop = 0.0, innerBottom = 0.0, innerMeetsRow = false, innerSpansRow = false
            if let i = inner {
                let iy0 = Swift.max(Double(row) - i.cy, -i.r), iy1 = Swift.min(Double(row + 1) - i.cy, i.r)
                innerTop = innerRows.offsets[top]; innerBottom = innerRows.offsets[top + 1]
                innerMeetsRow = iy1 > iy0
                innerSpansRow = y0 >= -i.r && y1 <= i.r
            }
            if y1 > y0 && (y0 >= 0 || y1 <= 0) {
                if !innerMeetsRow {
                    if discRow(painter, o, row, y0, y1, outerTop, outerBottom, edges, &minCol, &maxCol) { continue }
                } else if innerSpansRow, let i = inner,
                          ringRow(painter, o, i, row, y0, y1, (outerTop, outerBottom), edges, (innerTop, innerBottom),
                                  (Int(innerRows.edges[top]), Int(innerRows.edges[top + 1])), &minCol, &maxCol) {
                    continue
                }
            }
            rowThroughCells(painter, o, inner, row, y0, y1, outerTop, outerBottom, innerTop, innerBottom, &minCol, &maxCol)
        }
        if minCol <= maxCol {
            addDamage(PixelRect(x: minCol, y: firstRow, width: maxCol - minCol + 1, height: lastRow - firstRow + 1))
        }
    }

    /// The rows of a disc whose columns all lie inside the canvas (most discs): the same
    /// pixels as `discRow`'s commonest case, in one loop that keeps the circle and the
    /// painter in registers and tests nothing about the canvas's edges; other rows (the
    /// centre's, the top and bottom ones with a shared column) go the general way.
    @inline(never) func discInside<P: Painter>(_ painter: P, _ o: RoundOutline, _ firstRow: Int, _ lastRow: Int,
                                               _ minCol: inout Int, _ maxCol: inout Int) {
        let cx = o.cx
        let lineWidths = outerRows.offsets, lineEdges = outerRows.edges
        measureRowLines(o, firstRow, lastRow, outerRows)
        for row in firstRow...lastRow {
            let y0 = Swift.max(Double(row) - o.cy, -o.r), y1 = Swift.min(Double(row + 1) - o.cy, o.r)
            let wTop = lineWidths[row - firstRow], wBottom = lineWidths[row + 1 - firstRow]
            let jTop = Int(lineEdges[row - firstRow]), jBottom = Int(lineEdges[row + 1 - firstRow])
            if y1 > y0 && (y0 >= 0 || y1 <= 0) {
                let lower = y0 >= 0
                let near = lower ? wTop : wBottom, far = lower ? wBottom : wTop
                let jNear = lower ? jTop : jBottom, jFar = lower ? jBottom : jTop
                let yNear = lower ? y0 : y1, yFar = lower ? y1 : y0, ys: Double = lower ? 1 : -1
                let leftStart = cx - near, leftEnd = cx - far, rightStart = cx + far, rightEnd = cx + near
                let leftColumns = ceilToInt(leftEnd), rightFirst = floorToInt(rightStart)
                if leftColumns <= rightFirst {
                    let h = y1 - y0, pixels = painter.row(row)
                    let leftFirst = floorToInt(leftStart), rightColumns = ceilToInt(rightEnd)
                    if rightFirst > leftColumns {
                        painter.span(pixels, leftColumns, rightFirst - leftColumns, Float(Swift.min(h, 1)))
                    }
                    var leftArc = ArcPainter(painter: painter, pixels: pixels, base: h, sign: -1)
                    arcColumns(o, &leftArc, leftFirst, leftColumns, leftStart, yNear, near, leftEnd, yFar, far, yFar,
                               xs: -1, ys: ys, edges: (jNear, jFar))
                    var rightArc = ArcPainter(painter: painter, pixels: pixels, base: 0, sign: 1)
                    arcColumns(o, &rightArc, rightFirst, rightColumns, rightStart, yFar, far, rightEnd, yNear, near, yNear,
                               xs: 1, ys: ys, edges: (jFar, jNear))
                    if leftFirst < minCol { minCol = leftFirst }
                    if rightColumns - 1 > maxCol { maxCol = rightColumns - 1 }
                    continue
                }
            }
            otherDiscRow(painter, o, row, y0, y1, wTop, wBottom, (jTop, jBottom), &minCol, &maxCol)
        }
    }

    /// Each row line's half-width of `o` and the edge it lies on (into `rows`, from `firstRow`'s
    /// top line to `lastRow`'s bottom one), all first: a loop of independent lookups, where the
    /// row loop would wait for each one. The rows are `o`'s own unless `everyLineClamped` (a
    /// ring's inner circle: lines beyond it get its top or bottom).
    @inline(__always) func measureRowLines(_ o: RoundOutline, _ firstRow: Int, _ lastRow: Int, _ rows: LineCrossings,
                                           everyLineClamped: Bool = false) {
        let q = o.quarter, lineWidths = rows.offsets, lineEdges = rows.edges
        @inline(__always) func measure(_ line: Int, _ h: Double) {
            let e = q.edge(at: h)
            lineWidths[line] = q.halfWidth(h, edge: e); lineEdges[line] = Int32(e)
        }
        let lines = lastRow + 1 - firstRow
        if everyLineClamped {
            for line in 0...lines { measure(line, Swift.min(abs(Double(firstRow + line) - o.cy), o.r)) }
            return
        }
        // The first and last lines may lie beyond the outline (clamped); the others lie within
        // it, above the centre and then below (no abs, no clamp).
        let centreLine = Swift.min(Swift.max(Int(o.cy.rounded(.up)) - firstRow, 1), lines)
        if centreLine > 1 { for line in 1..<centreLine { measure(line, o.cy - Double(firstRow + line)) } }
        if centreLine < lines { for line in centreLine..<lines { measure(line, Double(firstRow + line) - o.cy) } }
        measure(0, Swift.min(abs(Double(firstRow) - o.cy), o.r))
        measure(lines, Swift.min(abs(Double(lastRow + 1) - o.cy), o.r))
    }

    /// A row of `discInside` that is not its commonest kind.
    @inline(never) func otherDiscRow<P: Painter>(_ painter: P, _ o: RoundOutline, _ row: Int, _ y0: Double, _ y1: Double,
                                                 _ wTop: Double, _ wBottom: Double, _ edges: (top: Int, bottom: Int),
                                                 _ minCol: inout Int, _ maxCol: inout Int) {
        if y1 > y0 && (y0 >= 0 || y1 <= 0) && discRow(painter, o, row, y0, y1, wTop, wBottom, edges, &minCol, &maxCol) {
            return
        }
        rowThroughCells(painter, o, nil, row, y0, y1, wTop, wBottom, 0, 0, &minCol, &maxCol)
    }

    /// Any row of a disc or ring through the row's cells: outer left arc (takes coverage
    /// away), inner left (gives it back), inner right, outer right. Kept out of line so that
    /// the loop over the rows stays small and keeps `discRow` inline.
    @inline(never) func rowThroughCells<P: Painter>(_ painter: P, _ o: RoundOutline, _ inner: RoundOutline?, _ row: Int,
                                                    _ y0: Double, _ y1: Double, _ outerTop: Double, _ outerBottom: Double,
                                                    _ innerTop: Double, _ innerBottom: Double,
                                                    _ minCol: inout Int, _ maxCol: inout Int) {
        var arcs = RowArcs()
        var run = 0.0 // coverage left of every arc's columns (from arcs wholly right of the canvas too)
        if y1 > y0 {
            side(o, left: true, sign: -1, y0, outerTop, y1, outerBottom, &arcs, &run)
            if let i = inner {
                let iy0 = Swift.max(Double(row) - i.cy, -i.r), iy1 = Swift.min(Double(row + 1) - i.cy, i.r)
                if iy1 > iy0 {
                    side(i, left: true, sign: 1, iy0, innerTop, iy1, innerBottom, &arcs, &run)
                    side(i, left: false, sign: -1, iy0, innerTop, iy1, innerBottom, &arcs, &run)
                }
            }
            side(o, left: false, sign: 1, y0, outerTop, y1, outerBottom, &arcs, &run)
        }
        if arcs.count == 0 && !(abs(run) >= Double(P.visible)) { return }
        sweepRound(painter, painter.row(row), &arcs, run, &minCol, &maxCol)
    }

    /// One row of a disc away from the centre's height, when its two arcs share at most one
    /// column (nearly all rows): each arc's pixels painted as they come, the span between
    /// them whole, no cells. False, with nothing painted, for the rows left to the cells.
    @inline(__always) func discRow<P: Painter>(_ painter: P, _ o: RoundOutline, _ row: Int, _ y0: Double, _ y1: Double,
                                               _ wTop: Double, _ wBottom: Double, _ edges: (top: Int, bottom: Int),
                                               _ minCol: inout Int, _ maxCol: inout Int) -> Bool {
        let lower = y0 >= 0
        let near = lower ? wTop : wBottom, far = lower ? wBottom : wTop
        let jNear = lower ? edges.top : edges.bottom, jFar = lower ? edges.bottom : edges.top
        let yNear = lower ? y0 : y1, yFar = lower ? y1 : y0, ys: Double = lower ? 1 : -1
        let leftStart = o.cx - near, leftEnd = o.cx - far, rightStart = o.cx + far, rightEnd = o.cx + near
        let width = buffer.width, w = Double(width)
        // Each arc ends inside the canvas or beyond the edge it faces.
        guard leftEnd <= w && rightStart >= 0 else { return false }
        let leftColumns = Swift.max(ceilToInt(leftEnd), 0), rightFirst = Swift.min(floorToInt(rightStart), width)
        guard leftColumns <= rightFirst + 1 else { return false }
        // A shared column (top and bottom rows) holds the left arc's coverage plus the right
        // one's less the row's height: the left arc leaves it to the right one.
        let shared = leftColumns > rightFirst ? rightFirst : -1
        let h = y1 - y0, pixels = painter.row(row)
        let leftFirst = Swift.max(floorToInt(leftStart), 0), rightColumns = Swift.min(ceilToInt(rightEnd), width)
        if shared < 0 && leftStart >= 0 && rightEnd <= w {
            // Commonest: both arcs inside the canvas, apart.
            if rightFirst > leftColumns {
                painter.span(pixels, leftColumns, rightFirst - leftColumns, Float(Swift.min(h, 1)))
            }
            var leftArc = ArcPainter(painter: painter, pixels: pixels, base: h, sign: -1)
            arcColumns(o, &leftArc, leftFirst, leftColumns, leftStart, yNear, near, leftEnd, yFar, far, yFar, xs: -1, ys: ys,
                       edges: (jNear, jFar))
            var rightArc = ArcPainter(painter: painter, pixels: pixels, base: 0, sign: 1)
            arcColumns(o, &rightArc, rightFirst, rightColumns, rightStart, yFar, far, rightEnd, yNear, near, yNear,
                       xs: 1, ys: ys, edges: (jFar, jNear))
            if leftFirst < minCol { minCol = leftFirst }
            if rightColumns - 1 > maxCol { maxCol = rightColumns - 1 }
            return true
        }
        var leftSide = EdgePainter(painter: painter, pixels: pixels, base: h, sign: -1, shared: shared)
        if leftColumns > 0 {
            if leftStart >= 0 {
                arcColumns(o, &leftSide, leftFirst, leftColumns, leftStart, yNear, near,
                           leftEnd, yFar, far, yFar, xs: -1, ys: ys, edges: (jNear, jFar))
            } else { // from where it enters the canvas
                arcColumns(o, &leftSide, 0, leftColumns, 0, ys * o.lineHeights[0], o.cx,
                           leftEnd, yFar, far, yFar, xs: -1, ys: ys, edges: (Int(o.lineEdges[0]), jFar))
            }
        }
        if rightFirst > leftColumns {
            painter.span(pixels, leftColumns, rightFirst - leftColumns, Float(Swift.min(h, 1)))
        }
        if rightFirst < width {
            var rightSide = EdgePainter(painter: painter, pixels: pixels, base: 0, sign: 1, shared: shared)
            rightSide.held = leftSide.held - h
            if rightEnd <= w {
                arcColumns(o, &rightSide, rightFirst, rightColumns, rightStart, yFar, far,
                           rightEnd, yNear, near, yNear, xs: 1, ys: ys, edges: (jFar, jNear))
            } else { // up to where it leaves the canvas
                arcColumns(o, &rightSide, rightFirst, width, rightStart, yFar, far,
                           w, ys * o.lineHeights[width], w - o.cx, yNear, xs: 1, ys: ys,
                           edges: (jFar, Int(o.lineEdges[width])))
            }
        }
        if leftFirst < minCol { minCol = leftFirst }
        if rightColumns - 1 > maxCol { maxCol = rightColumns - 1 }
        return true
    }

    /// One row of a ring away from the centre's height and within the inner circle's rows,
    /// when its four arcs lie in separate columns inside the canvas: outer left arc, full
    /// span, inner left arc, the hole (nothing), inner right arc, full span, outer right arc,
    /// painted as they come. False, with nothing painted, otherwise.
    /// Half-widths and edges are the row's top and bottom lines', of each circle.
    @inline(__always) func ringRow<P: Painter>(_ painter: P, _ o: RoundOutline, _ i: RoundOutline, _ row: Int,
                                               _ y0: Double, _ y1: Double,
                                               _ outer: (top: Double, bottom: Double), _ outerEdges: (top: Int, bottom: Int),
                                               _ inner: (top: Double, bottom: Double), _ innerEdges: (top: Int, bottom: Int),
                                               _ minCol: inout Int, _ maxCol: inout Int) -> Bool {
        let lower = y0 >= 0
        let oNear = lower ? outer.top : outer.bottom, oFar = lower ? outer.bottom : outer.top
        let iNear = lower ? inner.top : inner.bottom, iFar = lower ? inner.bottom : inner.top
        let oJNear = lower ? outerEdges.top : outerEdges.bottom, oJFar = lower ? outerEdges.bottom : outerEdges.top
        let iJNear = lower ? innerEdges.top : innerEdges.bottom, iJFar = lower ? innerEdges.bottom : innerEdges.top
        let yNear = lower ? y0 : y1, yFar = lower ? y1 : y0, ys: Double = lower ? 1 : -1
        let cx = o.cx
        guard cx - oNear >= 0 && cx + oNear <= Double(buffer.width) else { return false }
        let outerLeft = floorToInt(cx - oNear), outerLeftEnd = ceilToInt(cx - oFar)
        let innerLeft = floorToInt(cx - iNear), innerLeftEnd = ceilToInt(cx - iFar)
        let innerRight = floorToInt(cx + iFar), innerRightEnd = ceilToInt(cx + iNear)
        let outerRight = floorToInt(cx + oFar), outerRightEnd = ceilToInt(cx + oNear)
        guard outerLeftEnd <= innerLeft && innerLeftEnd <= innerRight && innerRightEnd <= outerRight else { return false }
        let h = y1 - y0, pixels = painter.row(row), full = Float(Swift.min(h, 1))
        // Coverage h − (area left of the arc) right of a left arc, the area itself left of a right one.
        var leavesRight = ArcPainter(painter: painter, pixels: pixels, base: h, sign: -1)
        var leavesLeft = ArcPainter(painter: painter, pixels: pixels, base: 0, sign: 1)
        arcColumns(o, &leavesRight, outerLeft, outerLeftEnd, cx - oNear, yNear, oNear, cx - oFar, yFar, oFar, yFar,
                   xs: -1, ys: ys, edges: (oJNear, oJFar))
        if innerLeft > outerLeftEnd { painter.span(pixels, outerLeftEnd, innerLeft - outerLeftEnd, full) }
        arcColumns(i, &leavesLeft, innerLeft, innerLeftEnd, cx - iNear, yNear, iNear, cx - iFar, yFar, iFar, yFar,
                   xs: -1, ys: ys, edges: (iJNear, iJFar))
        arcColumns(i, &leavesRight, innerRight, innerRightEnd, cx + iFar, yFar, iFar, cx + iNear, yNear, iNear, yNear,
                   xs: 1, ys: ys, edges: (iJFar, iJNear))
        if outerRight > innerRightEnd { painter.span(pixels, innerRightEnd, outerRight - innerRightEnd, full) }
        arcColumns(o, &leavesLeft, outerRight, outerRightEnd, cx + oFar, yFar, oFar, cx + oNear, yNear, oNear, yNear,
                   xs: 1, ys: ys, edges: (oJFar, oJNear))
        if outerLeft < minCol { minCol = outerLeft }
        if outerRightEnd - 1 > maxCol { maxCol = outerRightEnd - 1 }
        return true
    }

    /// One side (left or right) of a circle within the row band [y0, y1] (relative to the
    /// centre, inside [−r, r]; half-widths w0, w1 there): split where it turns (at the
    /// centre's height), deposited into `rowCells` with `sign`.
    @inline(__always) func side(_ o: RoundOutline, left: Bool, sign: Double, _ y0: Double, _ w0: Double,
                                _ y1: Double, _ w1: Double, _ arcs: inout RowArcs, _ run: inout Double) {
        var lo = Int.max, hi = Int.min, dropped = 0.0
        var cells = CellSink(cells: rowCells, sign: sign)
        if y0 < 0 && y1 > 0 {
            arc(o, &cells, left: left, lower: false, sign: sign, y0, w0, 0, o.r, &lo, &hi, &run, &dropped)
            arc(o, &cells, left: left, lower: true, sign: sign, 0, o.r, y1, w1, &lo, &hi, &run, &dropped)
        } else {
            arc(o, &cells, left: left, lower: y0 >= 0, sign: sign, y0, w0, y1, w1, &lo, &hi, &run, &dropped)
        }
        if lo <= hi { arcs.add(lo, hi, dropped) }
    }

    /// One arc monotone in x and y, from (w0 at y0) to (w1 at y1), y0 < y1: its coverage,
    /// times `sign`, into the cells of the columns it crosses (lo…hi grown to hold them).
    /// sign·(y1 − y0) is the coverage it gives every column left of it: added to `run` unless
    /// the arc lies wholly left of the canvas, and to `dropped` when it falls inside it.
    @inline(__always) func arc<S: ArcSink>(_ o: RoundOutline, _ sink: inout S, left: Bool, lower: Bool, sign: Double,
                               _ y0: Double, _ w0: Double, _ y1: Double, _ w1: Double,
                               _ lo: inout Int, _ hi: inout Int, _ run: inout Double, _ dropped: inout Double) {
        let h = y1 - y0
        guard h > 0 else { return }
        // Ends ordered by x: on the right side x = cx + w grows with w, which grows toward
        // the centre's height; on the left x = cx − w.
        let startsAtTop = left == lower
        let xs: Double = left ? -1 : 1, ys: Double = lower ? 1 : -1
        let yl = startsAtTop ? y0 : y1, wl = startsAtTop ? w0 : w1 // the left end
        let yh = startsAtTop ? y1 : y0, wh = startsAtTop ? w1 : w0
        let xl = o.cx + xs * wl, xh = o.cx + xs * wh
        let w = Double(buffer.width)
        if !(xh >= 0) { return } // wholly left of the canvas: no coverage inside it
        run += sign * h
        if xl >= w { return } // wholly right: every column of the canvas lies left of it
        dropped += sign * h
        let first = Swift.max(floorToInt(xl), 0)
        // Columns up to the one the arc ends in (an end exactly on a column line enters no
        // further), cut at the canvas's right edge: there the arc's right end is the line x = w.
        let end = ceilToInt(xh)
        let last = Swift.max(Swift.min(end, buffer.width) - 1, first)
        var xa = xl, ya = yl, wa = wl
        if xl < 0 { xa = 0; ya = ys * o.lineHeights[0]; wa = xs * (0 - o.cx) }
        sink.drop(first, sign * h)
        if end > buffer.width {
            arcColumns(o, &sink, first, last + 1, xa, ya, wa,
                       w, ys * o.lineHeights[buffer.width], xs * (w - o.cx), yh, xs: xs, ys: ys)
        } else {
            arcColumns(o, &sink, first, last + 1, xa, ya, wa, xh, yh, wh, yh, xs: xs, ys: ys)
        }
        if first < lo { lo = first }
        if last > hi { hi = last }
    }

    /// Columns first..<end of an arc running left to right from (xa; ya, wa) to (xb; yb, wb)
    /// (y relative to the centre, w = |x − cx|), whose far right end is at height `yEnd`:
    /// each column's area left of the arc to `sink`. The arc crosses the lines between.
    /// `edges`: the quarter's edges that hold its two ends, when the caller knows them.
    @inline(__always) func arcColumns<S: ArcSink>(_ o: RoundOutline, _ sink: inout S, _ first: Int, _ end: Int,
                                                  _ xa: Double, _ ya: Double, _ wa: Double,
                                                  _ xb: Double, _ yb: Double, _ wb: Double, _ yEnd: Double,
                                                  xs: Double, ys: Double, edges: (Int, Int)? = nil) {
        // Heights as distances from the centre's line (the arc lies in one half, ys's): what
        // follows uses only their differences and the bend, which the sign leaves alone, and
        // the column lines' heights then need no multiplication.
        let q = o.quarter
        let yb = ys * yb, yEnd = ys * yEnd
        var xp = xa, yp = ys * ya, wp = wa
        var jp = edges?.0 ?? q.edge(at: yp)
        var k = first, column = Double(first)
        while k < end - 1 {
            let xn = column + 1, yn = o.lineHeights[k + 1], wn = xs * (xn - o.cx)
            let jn = Int(o.lineEdges[k + 1])
            let trapezoid = abs(yn - yp) * ((xp + xn) * 0.5 - column)
            sink.column(k, straight: trapezoid + abs(yEnd - yn), curved: q.bend(wp, yp, jp, wn, yn, jn))
            xp = xn; yp = yn; wp = wn; jp = jn
            k += 1; column = xn
        }
        if k < end {
            let trapezoid = abs(yb - yp) * ((xp + xb) * 0.5 - column)
            let jb = edges?.1 ?? q.edge(at: yb)
            sink.column(k, straight: trapezoid + abs(yEnd - yb), curved: q.bend(wp, yp, jp, wb, yb, jb))
        }
    }

    /// Paints one row from its arcs' cells: ranges in column order (merged where they touch),
    /// constant coverage between them. `run` is the coverage left of all of them.
    @inline(__always) func sweepRound<P: Painter>(_ painter: P, _ pixels: UnsafeMutablePointer<P.Pixel>,
                                                  _ arcs: inout RowArcs, _ run: Double,
                                                  _ minCol: inout Int, _ maxCol: inout Int) {
        // At most four ranges, nearly always in order already.
        let n = arcs.count
        if n > 1 {
            for i in 1..<n {
                let l = arcs.lo[i], h = arcs.hi[i], d = arcs.drop[i]
                var j = i
                while j > 0 && arcs.lo[j - 1] > l {
                    arcs.lo[j] = arcs.lo[j - 1]; arcs.hi[j] = arcs.hi[j - 1]; arcs.drop[j] = arcs.drop[j - 1]
                    j -= 1
                }
                arcs.lo[j] = l; arcs.hi[j] = h; arcs.drop[j] = d
            }
        }
        // The run between ranges is kept in Double and summed per arc, so that it is exactly
        // zero where it should be (a ring's hole, right of a disc) instead of Float residue.
        var cover = run
        var x = 0
        var i = 0
        while i < n {
            let start = arcs.lo[i]
            var end = arcs.hi[i]
            var drop = arcs.drop[i]
            i += 1
            while i < n && arcs.lo[i] <= end + 1 {
                end = Swift.max(end, arcs.hi[i]); drop += arcs.drop[i]; i += 1
            }
            if start > x { fillGap(painter, pixels, x, start, Float(cover), &minCol, &maxCol) }
            var cellRun = Float(-cover) // sweepCells' convention: minus the coverage
            sweepCells(painter, pixels, rowCells, start, end, &cellRun, &minCol, &maxCol)
            cover -= drop
            x = end + 1
        }
        if x < buffer.width { fillGap(painter, pixels, x, buffer.width, Float(cover), &minCol, &maxCol) }
    }
}

/// Where an arc's column areas go.
protocol ArcSink {
    /// Column `k` is the arc's first: columns left of it have `cover` more coverage.
    mutating func drop(_ k: Int, _ cover: Double)
    /// The area of column `k` left of the arc, in two parts: under the chord (`straight`)
    /// and what the outline's vertices between add to it (`curved`, signed), so that a painter
    /// can add that, last to be known, last.
    mutating func column(_ k: Int, straight: Double, curved: Double)
}

/// ⌊x⌋ and ⌈x⌉ for |x| < 2⁶³ without a call into libm (x86_64's baseline has no rounding
/// instruction).
@inline(__always) func floorToInt(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) > x ? t - 1 : t
}
@inline(__always) func ceilToInt(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) < x ? t + 1 : t
}

/// Where an outline crosses each line of a kind (the column lines x = m, or the row lines from
/// a disc's top row on): the other coordinate from the centre (a height, or a half-width),
/// and the quarter's edge that holds the crossing.
struct LineCrossings {
    let offsets: UnsafeMutablePointer<Double>
    let edges: UnsafeMutablePointer<Int32>

    init(count: Int) {
        offsets = .allocate(capacity: count); offsets.initialize(repeating: 0, count: count)
        edges = .allocate(capacity: count); edges.initialize(repeating: 0, count: count)
    }

    func deallocate() { offsets.deallocate(); edges.deallocate() }
}
