import Testing
import Geometry
@testable import Raster

/// A portrait frame where every pixel is distinct (and distinct in RGB565 too where possible).
func patternBuffer(width: Int, height: Int) -> PixelBuffer {
    let b = PixelBuffer(width: width, height: height)
    var g = SeededGenerator(seed: 7)
    for y in 0..<height {
        for x in 0..<width { b.row32(y)[x] = 0xFF00_0000 | UInt32(truncatingIfNeeded: g.next()) & 0xFF_FFFF }
    }
    return b
}

@Suite struct RotateCopyTests {
    static let cases: [(PanelRotation, PixelFormat)] = PanelRotation.allCases.flatMap { r in PixelFormat.allCases.map { (r, $0) } }

    @Test(arguments: cases)
    func fullFrameLandsWherePanelPixelSays(rotation: PanelRotation, format: PixelFormat) {
        // Odd sizes so that no tile or vector width divides them.
        let t = ScreenTransform(portraitWidth: 37, portraitHeight: 53, rotation: rotation)
        let src = patternBuffer(width: 37, height: 53)
        let dst = PixelBuffer(width: t.panelWidth, height: t.panelHeight, format: format)
        rotateCopy(from: src, rects: [src.bounds], to: dst.bytes, pitch: dst.strideBytes, format: format, transform: t)
        let bad = failures(37, 53) { x, y in
            let p = t.panelPixel(fromPortraitX: x, y: y)
            let s = src.row32(y)[x]
            return format == .xrgb8888 ? dst.row32(p.y)[p.x] == s : dst.row16(p.y)[p.x] == rgb565(xrgb: s)
        }
        #expect(bad.count == 0, "\(bad.count) misplaced, first portrait \(bad.first)")
    }

    @Test(arguments: cases)
    func roundTripThroughTheInverseTurn(rotation: PanelRotation, format: PixelFormat) {
        // Portrait → panel → portrait again with the inverse rotation gives the picture back
        // (exactly in XRGB8888, as its 565 rounding in RGB565).
        let t = ScreenTransform(portraitWidth: 48, portraitHeight: 80, rotation: rotation)
        let src = patternBuffer(width: 48, height: 80)
        let panel = PixelBuffer(width: t.panelWidth, height: t.panelHeight, format: .xrgb8888)
        rotateCopy(from: src, rects: [src.bounds], to: panel.bytes, pitch: panel.strideBytes, format: .xrgb8888, transform: t)
        let back = ScreenTransform(portraitWidth: t.panelWidth, portraitHeight: t.panelHeight, rotation: rotation.inverse)
        let again = PixelBuffer(width: 48, height: 80, format: format)
        rotateCopy(from: panel, rects: [panel.bounds], to: again.bytes, pitch: again.strideBytes, format: format, transform: back)
        let bad = failures(48, 80) { x, y in
            let s = src.row32(y)[x]
            return format == .xrgb8888 ? again.row32(y)[x] == s : again.row16(y)[x] == rgb565(xrgb: s)
        }
        #expect(bad.count == 0, "\(bad.count) differ, first \(bad.first)")
    }

    @Test(arguments: cases)
    func writesOnlyTheDamagedRectangles(rotation: PanelRotation, format: PixelFormat) {
        let t = ScreenTransform(portraitWidth: 60, portraitHeight: 90, rotation: rotation)
        let src = patternBuffer(width: 60, height: 90)
        let dst = PixelBuffer(width: t.panelWidth, height: t.panelHeight, format: format)
        let sentinel: UInt8 = 0xA5
        dst.bytes.initializeMemory(as: UInt8.self, repeating: sentinel, count: dst.strideBytes * dst.height)
        // Includes a rectangle hanging off the frame: it is clipped.
        let rects = [PixelRect(x: 3, y: 4, width: 17, height: 9), PixelRect(x: 40, y: 70, width: 40, height: 40)]
        rotateCopy(from: src, rects: rects, to: dst.bytes, pitch: dst.strideBytes, format: format, transform: t)
        let panelRects = rects.map { t.panelRect(fromPortrait: $0.intersection(src.bounds)) }
        let bpp = format.bytesPerPixel
        let bad = failures(dst.width, dst.height) { x, y in
            let inside = panelRects.contains { $0.contains(x: x, y: y) }
            let untouched = (0..<bpp).allSatisfy { (dst.bytes + y * dst.strideBytes + x * bpp + $0).load(as: UInt8.self) == sentinel }
            return inside || untouched
        }
        #expect(bad.count == 0, "\(bad.count) panel pixels written outside the damage, first \(bad.first)")
        // And inside, the right pixels.
        let p = t.panelPixel(fromPortraitX: 45, y: 80)
        if format == .xrgb8888 { #expect(dst.row32(p.y)[p.x] == src.row32(80)[45]) }
        else { #expect(dst.row16(p.y)[p.x] == rgb565(xrgb: src.row32(80)[45])) }
    }
}
