import Geometry
import Testing
@testable import Raster

/// Raster is built -Ounchecked for speed, so its public entry points must turn away
/// geometry that would overflow a pixel index: whatever an exhibit or a trace asks for,
/// nothing is written outside the buffer and nothing traps.
@Suite struct ExtremeGeometryTests {
    @Test(arguments: [1e300, -1e300, 9.3e18, -9.3e18, 4e9, Double.greatestFiniteMagnitude, 8e6, -8e6, 3e5, -3e5])
    func hugeCoordinatesDrawNothingOutsideAndDoNotTrap(v: Double) {
        let buffer = PixelBuffer(width: 64, height: 48)
        let canvas = Canvas(buffer: buffer)
        canvas.clear(Color(rgb: 0x000000))
        let red = Color(rgb: 0xFF0000)
        canvas.fillRect(Rect(x: v, y: v, width: abs(v), height: abs(v)), color: red)
        canvas.fillRect(Rect(x: 0, y: 0, width: 10, height: 10), transform: .translation(v, v), color: red)
        canvas.fillRect(Rect(x: 0, y: 0, width: 10, height: 10), transform: .scale(v, v), color: red)
        canvas.fillCircle(center: Vec2(v, 10), radius: 5, color: red)
        canvas.fillCircle(center: Vec2(10, 10), radius: abs(v), color: red)
        canvas.strokeCircle(center: Vec2(10, v), radius: abs(v), lineWidth: abs(v), color: red)
        canvas.drawLine(from: Vec2(-v, 0), to: Vec2(v, 40), width: 3, color: red)
        canvas.drawLine(from: Vec2(0, 0), to: Vec2(20, 20), width: abs(v), color: red)
        canvas.fillPolygon([Vec2(0, 0), Vec2(v, 0), Vec2(v, v), Vec2(0, v)], color: red)
        // Still a whole buffer of valid pixels (what was drawn is clipped to it).
        #expect(buffer.width == 64 && buffer.height == 48)
    }
}
