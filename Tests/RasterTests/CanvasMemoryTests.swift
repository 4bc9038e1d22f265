import Geometry
import Testing
@testable import Raster

/// A canvas carries its whole-canvas cells (twice a frame's bytes) only once it fills a
/// general polygon: convex shapes, discs, rings and text sweep one row at a time.
@Suite struct CanvasMemoryTests {
    @Test func convexShapesAndRingsNeedNoWholeCanvasCells() {
        let canvas = Canvas(width: 720, height: 1280)
        canvas.fillCircle(center: Vec2(300, 400), radius: 120, color: .red)
        canvas.fillRect(Rect(x: 10, y: 10, width: 200, height: 80), transform: .rotation(0.3), color: .blue)
        canvas.drawLine(from: Vec2(0, 0), to: Vec2(700, 1200), width: 6, color: .black)
        canvas.strokeCircle(center: Vec2(360, 640), radius: 200, lineWidth: 12, color: .red)
        canvas.strokeCircle(center: Vec2(30, 40), radius: 12, lineWidth: 2, color: .red)
        // A convex polygon (the home control's roof) goes row by row too.
        canvas.fillPolygon([Vec2(100, 30), Vec2(130, 60), Vec2(70, 60)], color: .blue)
        #expect(!canvas.holdsWholeCanvasCells)
        canvas.fillPolygon([Vec2(10, 10), Vec2(300, 40), Vec2(100, 90), Vec2(280, 200), Vec2(20, 180)], color: .blue)
        #expect(canvas.holdsWholeCanvasCells)
    }

    /// Convex polygons (either way round, repeated points, collinear points) fill exactly
    /// their area; stars and concave ones keep non-zero winding through the cells.
    @Test func convexPolygonsFillTheirAreaRowByRow() {
        let hexagon = [Vec2(40.3, 10.2), Vec2(70.1, 25.7), Vec2(70.1, 25.7), Vec2(68.4, 60.9), Vec2(40.3, 75.5),
                       Vec2(25.05, 68.2), Vec2(9.8, 60.9), Vec2(12.2, 25.1)]
        func shoelace(_ p: [Vec2]) -> Double {
            var a = 0.0
            for i in 0..<p.count { let q = p[(i + 1) % p.count]; a += p[i].x * q.y - q.x * p[i].y }
            return abs(a) / 2
        }
        for points in [hexagon, Array(hexagon.reversed())] {
            let canvas = Canvas(width: 80, height: 80)
            var c = [Float](repeating: 0, count: 80 * 80)
            c.withUnsafeMutableBufferPointer { p in
                canvas.coverageSink = p.baseAddress
                canvas.fillPolygon(points, color: .white)
                canvas.coverageSink = nil
            }
            #expect(abs(total(c) - shoelace(hexagon)) < 1e-3)
            #expect(!canvas.holdsWholeCanvasCells)
        }
        // A pentagram: every second point of a regular pentagon.
        let star = [Vec2(70, 40), Vec2(15.73, 57.63), Vec2(49.27, 11.47), Vec2(49.27, 68.53), Vec2(15.73, 22.37)]
        let canvas = Canvas(width: 80, height: 80)
        canvas.fillPolygon(star, color: .white)
        #expect(canvas.holdsWholeCanvasCells)
        // Non-zero winding: the star's centre (wound twice) is covered.
        #expect(canvas.pixel(x: 40, y: 40) == .white)
    }
}
