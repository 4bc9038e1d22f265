import Geometry
@testable import Raster

/// Draws `draw` once on a 160×120 canvas and again tile by tile through 32 px clips (as the
/// scene renderer repaints damaged tiles); the pixels that differ, and the tiled canvas.
func pixelsDifferingWhenDrawnInTiles(format: PixelFormat, _ draw: (Canvas) -> Void) -> (differing: Int, tiled: Canvas) {
    let reference = Canvas(width: 160, height: 120, format: format)
    let tiled = Canvas(width: 160, height: 120, format: format)
    for c in [reference, tiled] { c.clear(.white) }
    draw(reference)
    for ty in stride(from: 0, to: 120, by: 32) {
        for tx in stride(from: 0, to: 160, by: 32) {
            tiled.clip = PixelRect(x: tx, y: ty, width: 32, height: 32)
            draw(tiled)
        }
    }
    tiled.clip = nil
    var differing = 0
    for y in 0..<120 { for x in 0..<160 where tiled.pixel(x: x, y: y) != reference.pixel(x: x, y: y) { differing += 1 } }
    return (differing, tiled)
}
