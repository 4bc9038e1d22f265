#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster

/// Discs and rings are exact: each pixel gets the area of the circle's polygon (cairo's,
/// CircleFlatteningTests) inside it.
@Suite struct DiscCoverageTests {
    static let centres = [Vec2(0.37, -0.21), Vec2(0, 0), Vec2(0.5, 0.5), Vec2(0.999, 0.001)]

    static func polygon(_ centre: Vec2, _ r: Double) -> [Vec2] { CircleFlatteningTests.ourPolygon(centre, r) }

    @Test(arguments: [0.3, 0.5, 0.7, 1.0, 1.5, 2.9, 3.3, 5.41, 12.0, 25.4, 50.0, 133.7, 366.8, 400.0])
    func discAreaIsItsPolygons(radius: Double) {
        let size = Int(2 * radius + 6)
        for offset in Self.centres {
            let centre = Vec2(Double(size / 2), Double(size / 2)) + offset
            let c = coverage(width: size, height: size) { $0.fillCircle(center: centre, radius: radius, color: .white) }
            let expected = polygonArea(Self.polygon(centre, radius))
            #expect(abs(total(c) - expected) <= Swift.max(2e-5 * expected, 2e-5),
                    "radius \(radius) at \(centre): \(total(c)) vs \(expected)")
            #expect(c.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    /// Quarter-turn discs (the disc rasterizer) and the others (the convex-polygon one).
    @Test(arguments: [0.45, 0.7, 1.6, 3.3, 5.41, 6.0, 12.0, 50.0])
    func everyPixelHoldsThePolygonsAreaInIt(radius: Double) {
        let size = Int(2 * radius + 4)
        let centre = Vec2(Double(size) / 2 + 0.31, Double(size) / 2 - 0.17)
        let c = coverage(width: size, height: size) { $0.fillCircle(center: centre, radius: radius, color: .white) }
        let outline = Self.polygon(centre, radius)
        var worst = 0.0, worstAt = "none"
        for y in 0..<size {
            for x in 0..<size {
                let expected = polygonAreaInPixel(outline, x, y)
                let error = abs(Double(c[y * size + x]) - expected)
                if error > worst { worst = error; worstAt = "(\(x), \(y)): \(c[y * size + x]) vs \(expected)" }
            }
        }
        // Coverage is kept in Float.
        #expect(worst < 2e-6, "radius \(radius): worst \(worst) at \(worstAt)")
    }

    @Test func aDiscInsideOnePixelCoversItsArea() {
        let c = coverage(width: 4, height: 4) { $0.fillCircle(center: Vec2(1.5, 2.4), radius: 0.3, color: .white) }
        let expected = polygonArea(Self.polygon(Vec2(1.5, 2.4), 0.3))
        #expect(abs(Double(c[2 * 4 + 1]) - expected) < 1e-6)
        #expect(abs(total(c) - expected) < 1e-6)
    }

    /// The polygon a ring's outline of radius `r` follows: quarter turns at any radius.
    static func ringOutline(_ centre: Vec2, _ r: Double) -> [Vec2] {
        var quarter = FlatQuarter()
        defer { quarter.deallocate() }
        let scratch = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: Canvas.maxCircleVertices)
        defer { scratch.deallocate() }
        quarter.prepare(radius: r, scratch: scratch)
        var points: [Vec2] = []
        for (sx, sy, reversed) in [(1.0, 1.0, false), (-1.0, 1.0, true), (-1.0, -1.0, false), (1.0, -1.0, true)] {
            for k in 0..<quarter.edges {
                let j = reversed ? quarter.edges - k : k
                points.append(centre + Vec2(sx * quarter.w[j], sy * quarter.y[j]))
            }
        }
        return points
    }

    /// Radii in cairo's quarter-turn range (where the ring is exactly the outer disc less the
    /// inner one, pixel by pixel) and outside it, inner and outer.
    @Test(arguments: [(40.0, 6.0), (12.0, 3.0), (25.3, 0.8), (3.0, 2.0), (150.0, 20.0), (400.0, 8.0)])
    func ringIsOuterPolygonLessInnerPolygon(radius: Double, lineWidth: Double) {
        let size = Int(2 * radius + lineWidth + 6)
        let r0 = radius - lineWidth / 2, r1 = radius + lineWidth / 2
        for offset in Self.centres {
            let centre = Vec2(Double(size / 2), Double(size / 2)) + offset
            let ring = coverage(width: size, height: size) {
                $0.strokeCircle(center: centre, radius: radius, lineWidth: lineWidth, color: .white)
            }
            if Canvas.isQuarterTurn(r0) && Canvas.isQuarterTurn(r1) {
                let outer = coverage(width: size, height: size) { $0.fillCircle(center: centre, radius: r1, color: .white) }
                let inner = coverage(width: size, height: size) { $0.fillCircle(center: centre, radius: r0, color: .white) }
                let bad = failures(size, size) { x, y in
                    let i = y * size + x
                    return abs(ring[i] - (outer[i] - inner[i])) < 2e-6
                }
                #expect(bad.count == 0, "ring \(radius)/\(lineWidth) at \(centre): \(bad.count) pixels, first \(bad.first)")
            }
            let expected = polygonArea(Self.ringOutline(centre, r1)) - polygonArea(Self.ringOutline(centre, r0))
            #expect(abs(total(ring) - expected) <= 2e-5 * expected, "ring \(radius)/\(lineWidth): \(total(ring)) vs \(expected)")
            #expect(ring.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    /// A ring's pixels hold the area between its two polygons, small and large.
    @Test(arguments: [(2.0, 1.5), (9.0, 2.5)])
    func everyPixelHoldsTheRingsAreaInIt(radius: Double, lineWidth: Double) {
        let size = Int(2 * radius + lineWidth + 4)
        let centre = Vec2(Double(size) / 2 + 0.31, Double(size) / 2 - 0.17)
        let c = coverage(width: size, height: size) {
            $0.strokeCircle(center: centre, radius: radius, lineWidth: lineWidth, color: .white)
        }
        let outer = Self.ringOutline(centre, radius + lineWidth / 2), inner = Self.ringOutline(centre, radius - lineWidth / 2)
        var worst = 0.0
        for y in 0..<size {
            for x in 0..<size {
                let expected = polygonAreaInPixel(outer, x, y) - polygonAreaInPixel(inner, x, y)
                worst = Swift.max(worst, abs(Double(c[y * size + x]) - expected))
            }
        }
        #expect(worst < 2e-6, "ring \(radius)/\(lineWidth): worst \(worst)")
    }

    @Test(arguments: [Vec2(32, 32), Vec2(32.5, 32.5)])
    func discsAndRingsHaveTheirPolygonsSymmetries(centre: Vec2) {
        // Centred on a pixel corner or a pixel's middle: mirror-symmetric both ways, to float
        // precision, and under a quarter turn too when built from quarter turns (a circle
        // under 5.4 px is two half turns, as in cairo).
        let n = centre.x == 32 ? 64 : 65
        for (quarterTurns, draw): (Bool, (Canvas) -> Void) in [
            (true, { $0.fillCircle(center: centre, radius: 20.3, color: .white) }),
            (false, { $0.fillCircle(center: centre, radius: 2.2, color: .white) }),
            (true, { $0.strokeCircle(center: centre, radius: 17.5, lineWidth: 5.2, color: .white) }),
        ] {
            let c = coverage(width: n, height: n, draw)
            let bad = failures(n, n) { x, y in
                let v = c[y * n + x]
                return abs(v - c[y * n + (n - 1 - x)]) < 1e-6 && abs(v - c[(n - 1 - y) * n + x]) < 1e-6
                    && (!quarterTurns || abs(v - c[x * n + y]) < 1e-6)
            }
            #expect(bad.count == 0, "asymmetric at \(bad.first)")
        }
    }

    /// Rings and discs drawn tile by tile through clips (as the scene renderer repaints)
    /// equal one unclipped drawing, pixel for pixel; rows outside a clip are skipped.
    @Test(arguments: PixelFormat.allCases) func roundShapesDrawnTileByTileEqualOneDrawing(format: PixelFormat) {
        let (differing, tiled) = pixelsDifferingWhenDrawnInTiles(format: format) { c in
            c.strokeCircle(center: Vec2(61.3, 57.6), radius: 40.7, lineWidth: 7.5, color: Color(r: 255, g: 136, b: 0, a: 200))
            c.strokeCircle(center: Vec2(150, 8), radius: 30, lineWidth: 2, color: Color(rgb: 0x3366FF))  // beyond two edges
            c.fillCircle(center: Vec2(-5, 70), radius: 22.2, color: .black)  // beyond the left edge
            c.fillCircle(center: Vec2(100.5, 100.5), radius: 0.6, color: .black)
        }
        #expect(differing == 0)
        #expect(!tiled.holdsWholeCanvasCells)
    }

    @Test(arguments: [Vec2(0, 25), Vec2(60, 25), Vec2(30, 0), Vec2(30, 50), Vec2(0, 0), Vec2(60, 50), Vec2(-3, 53)])
    func ringAcrossEveryEdge(center: Vec2) {
        let w = 60, h = 50, margin = 40
        func draw(_ canvas: Canvas, _ offset: Vec2) {
            canvas.strokeCircle(center: center + offset + Vec2(0.3, -0.4), radius: 17.6, lineWidth: 5.5, color: .white)
        }
        let small = coverage(width: w, height: h) { draw($0, .zero) }
        let big = coverage(width: w + 2 * margin, height: h + 2 * margin) { draw($0, Vec2(Double(margin), Double(margin))) }
        let bad = failures(w, h) { x, y in
            abs(small[y * w + x] - big[(y + margin) * (w + 2 * margin) + x + margin]) < 1e-5
        }
        #expect(bad.count == 0, "\(bad.count) pixels differ, first at \(bad.first)")
    }
}
