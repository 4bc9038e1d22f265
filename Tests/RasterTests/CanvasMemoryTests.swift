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
        #expect(!canvas.holdsWholeCanvasCells)
        canvas.fillPolygon([Vec2(10, 10), Vec2(300, 40), Vec2(100, 90), Vec2(280, 200), Vec2(20, 180)], color: .blue)
        #expect(canvas.holdsWholeCanvasCells)
    }
}
