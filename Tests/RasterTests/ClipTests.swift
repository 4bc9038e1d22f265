import Testing
import Geometry
@testable import Raster

@Suite struct ClipTests {
    /// Drawing with a clip equals drawing without one, inside the clip, and nothing outside.
    @Test(arguments: PixelFormat.allCases) func clipIsExactInsideAndSilentOutside(format: PixelFormat) {
        let clip = PixelRect(x: 37, y: 41, width: 53, height: 29)
        let reference = Canvas(width: 160, height: 120, format: format)
        let clipped = Canvas(width: 160, height: 120, format: format)
        for c in [reference, clipped] { c.clear(Color(rgb: 0x102030)) }
        let background = clipped.pixel(x: 0, y: 0)  // as the format stores it
        clipped.clip = clip
        clipped.resetDamage()
        for c in [reference, clipped] {
            c.fillCircle(center: Vec2(60.3, 55.7), radius: 30.2, color: Color(rgb: 0xFF8800))
            c.fillRect(Rect(x: -20, y: -20, width: 60, height: 40), transform: .rotation(0.3).translated(70, 60),
                       color: Color(r: 20, g: 200, b: 90, a: 180))
            c.strokeCircle(center: Vec2(80, 50), radius: 25, lineWidth: 3, color: .white)
            c.drawLine(from: Vec2(0, 0), to: Vec2(159, 119), width: 2.5, color: .black)
            c.fillPolygon([Vec2(30, 80), Vec2(100, 30), Vec2(120, 90), Vec2(60, 50)], color: Color(rgb: 0x3366FF))
            c.fillRect(PixelRect(x: 0, y: 60, width: 160, height: 3), color: Color(rgb: 0xFFFF00))
        }
        var inside = 0
        for y in 0..<120 { for x in 0..<160 {
            if clip.contains(x: x, y: y) {
                #expect(clipped.pixel(x: x, y: y) == reference.pixel(x: x, y: y))
                inside += 1
            } else {
                #expect(clipped.pixel(x: x, y: y) == background)
            }
        } }
        #expect(inside == clip.area)
        #expect(!clipped.damage.isEmpty && clipped.damage.intersection(clip) == clipped.damage)
    }

    /// Convex shapes skip the rows outside the clip: drawn tile by tile through clips (as the
    /// scene renderer repaints), they equal one unclipped drawing, pixel for pixel.
    @Test(arguments: PixelFormat.allCases) func convexShapesDrawnTileByTileEqualOneDrawing(format: PixelFormat) {
        let (differing, _) = pixelsDifferingWhenDrawnInTiles(format: format) { c in
            c.fillCircle(center: Vec2(61.3, 57.6), radius: 40.7, color: Color(r: 255, g: 136, b: 0, a: 200))
            c.fillCircle(center: Vec2(12.5, 100.25), radius: 6.3, color: .black)
            c.fillCircle(center: Vec2(150, 8), radius: 30, color: Color(rgb: 0x3366FF))  // beyond two edges
            c.fillRect(Rect(x: -20, y: -20, width: 60, height: 40), transform: .rotation(0.7).translated(100, 70),
                       color: Color(r: 20, g: 200, b: 90, a: 180))
            c.drawLine(from: Vec2(3, 117), to: Vec2(157, 4), width: 1.5, color: .black)
        }
        #expect(differing == 0)
    }

    @Test func clearingTheClipRestoresTheWholeCanvas() {
        let c = Canvas(width: 20, height: 20)
        c.clip = PixelRect(x: 0, y: 0, width: 5, height: 5)
        #expect(c.drawable == PixelRect(x: 0, y: 0, width: 5, height: 5))
        c.clip = PixelRect(x: 15, y: 15, width: 50, height: 50)
        #expect(c.drawable == PixelRect(x: 15, y: 15, width: 5, height: 5))
        c.clip = nil
        #expect(c.drawable == c.bounds)
    }
}
