#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Raster

/// Discs and rings are exact: each pixel gets the area of the shape inside it (no polygon).
@Suite struct DiscCoverageTests {
    static let centres = [Vec2(0.37, -0.21), Vec2(0, 0), Vec2(0.5, 0.5), Vec2(0.999, 0.001)]

    @Test(arguments: [0.3, 0.5, 0.7, 1.0, 1.5, 2.9, 3.3, 12.0, 25.4, 50.0, 133.7, 400.0])
    func discAreaIsPiRSquared(radius: Double) {
        let size = Int(2 * radius + 6)
        for offset in Self.centres {
            let centre = Vec2(Double(size / 2), Double(size / 2)) + offset
            let c = coverage(width: size, height: size) { $0.fillCircle(center: centre, radius: radius, color: .white) }
            let expected = Double.pi * radius * radius
            #expect(abs(total(c) - expected) <= Swift.max(2e-5 * expected, 2e-5),
                    "radius \(radius) at \(centre): \(total(c)) vs \(expected)")
            #expect(c.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
    }

    /// The area of the disc inside pixel (px, py) by the midpoint rule on the chord's width
    /// (slow, independent of the rasterizer).
    static func pixelArea(_ centre: Vec2, _ r: Double, _ px: Int, _ py: Int, samples: Int = 4000) -> Double {
        var sum = 0.0
        for i in 0..<samples {
            let y = Double(py) + (Double(i) + 0.5) / Double(samples) - centre.y
            guard abs(y) < r else { continue }
            let w = (r * r - y * y).squareRoot()
            let lo = Swift.max(centre.x - w, Double(px)), hi = Swift.min(centre.x + w, Double(px + 1))
            if hi > lo { sum += hi - lo }
        }
        return sum / Double(samples)
    }

    @Test(arguments: [0.45, 0.7, 1.6, 3.3, 12.0, 50.0])
    func everyPixelHoldsTheDiscsAreaInIt(radius: Double) {
        let size = Int(2 * radius + 4)
        let centre = Vec2(Double(size) / 2 + 0.31, Double(size) / 2 - 0.17)
        let c = coverage(width: size, height: size) { $0.fillCircle(center: centre, radius: radius, color: .white) }
        var worst = 0.0, worstAt = "none"
        for y in 0..<size {
            for x in 0..<size {
                // Whole pixels inside or outside need no integration.
                let dx = Swift.max(abs(Double(x) + 0.5 - centre.x) - 0.5, 0), dy = Swift.max(abs(Double(y) + 0.5 - centre.y) - 0.5, 0)
                let nearest = (dx * dx + dy * dy).squareRoot()
                let fx = abs(Double(x) + 0.5 - centre.x) + 0.5, fy = abs(Double(y) + 0.5 - centre.y) + 0.5
                let farthest = (fx * fx + fy * fy).squareRoot()
                let expected = nearest >= radius ? 0 : farthest <= radius ? 1 : Self.pixelArea(centre, radius, x, y)
                let error = abs(Double(c[y * size + x]) - expected)
                if error > worst { worst = error; worstAt = "(\(x), \(y)): \(c[y * size + x]) vs \(expected)" }
            }
        }
        // The midpoint rule is good to about 1e-5 where the chord's width turns.
        #expect(worst < 3e-5, "radius \(radius): worst \(worst) at \(worstAt)")
    }

    @Test func aDiscInsideOnePixelCoversItsArea() {
        let c = coverage(width: 4, height: 4) { $0.fillCircle(center: Vec2(1.5, 2.4), radius: 0.3, color: .white) }
        #expect(abs(Double(c[2 * 4 + 1]) - Double.pi * 0.09) < 1e-6)
        #expect(abs(total(c) - Double.pi * 0.09) < 1e-6)
    }

    @Test(arguments: [(40.0, 6.0), (12.0, 3.0), (25.3, 0.8), (3.0, 2.0), (150.0, 20.0)])
    func ringIsOuterDiscLessInnerDisc(radius: Double, lineWidth: Double) {
        let size = Int(2 * radius + lineWidth + 6)
        for offset in Self.centres {
            let centre = Vec2(Double(size / 2), Double(size / 2)) + offset
            let ring = coverage(width: size, height: size) {
                $0.strokeCircle(center: centre, radius: radius, lineWidth: lineWidth, color: .white)
            }
            let outer = coverage(width: size, height: size) {
                $0.fillCircle(center: centre, radius: radius + lineWidth / 2, color: .white)
            }
            let inner = coverage(width: size, height: size) {
                $0.fillCircle(center: centre, radius: radius - lineWidth / 2, color: .white)
            }
            let bad = failures(size, size) { x, y in
                let i = y * size + x
                return abs(ring[i] - (outer[i] - inner[i])) < 2e-6
            }
            #expect(bad.count == 0, "ring \(radius)/\(lineWidth) at \(centre): \(bad.count) pixels, first \(bad.first)")
            let r0 = radius - lineWidth / 2, r1 = radius + lineWidth / 2
            let expected = Double.pi * (r1 * r1 - r0 * r0)
            #expect(abs(total(ring) - expected) <= 2e-5 * expected)
        }
    }

    @Test(arguments: [Vec2(32, 32), Vec2(32.5, 32.5)])
    func discsAndRingsHaveTheCirclesSymmetries(centre: Vec2) {
        // Centred on a pixel corner or a pixel's middle: mirror-symmetric both ways and
        // under a quarter turn, to float precision.
        let n = centre.x == 32 ? 64 : 65
        for draw: (Canvas) -> Void in [
            { $0.fillCircle(center: centre, radius: 20.3, color: .white) },
            { $0.fillCircle(center: centre, radius: 2.2, color: .white) },
            { $0.strokeCircle(center: centre, radius: 17.5, lineWidth: 5.2, color: .white) },
        ] {
            let c = coverage(width: n, height: n, draw)
            let bad = failures(n, n) { x, y in
                let v = c[y * n + x]
                return abs(v - c[y * n + (n - 1 - x)]) < 1e-6 && abs(v - c[(n - 1 - y) * n + x]) < 1e-6
                    && abs(v - c[x * n + y]) < 1e-6
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
