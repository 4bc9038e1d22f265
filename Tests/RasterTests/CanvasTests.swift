import Testing
import Geometry
@testable import Raster

/// Exact (Float) coverage of whatever `draw` fills on a `width`×`height` canvas.
func coverage(width: Int, height: Int, _ draw: (Canvas) -> Void) -> [Float] {
    let canvas = Canvas(width: width, height: height)
    var out = [Float](repeating: 0, count: width * height)
    out.withUnsafeMutableBufferPointer { p in
        canvas.coverageSink = p.baseAddress
        draw(canvas)
        canvas.coverageSink = nil
    }
    return out
}

/// Where `ok` fails over a grid: how often, and the first place (one #expect per check,
/// not one per pixel).
func failures(_ width: Int, _ height: Int, _ ok: (Int, Int) -> Bool) -> (count: Int, first: String) {
    var count = 0, first = "none"
    for y in 0..<height {
        for x in 0..<width where !ok(x, y) {
            if count == 0 { first = "(\(x), \(y))" }
            count += 1
        }
    }
    return (count, first)
}

func total(_ c: [Float]) -> Double { c.reduce(0.0) { $0 + Double($1) } }

/// Pixels that differ from `background`, as a bounding box.
func changedBox(_ canvas: Canvas, background: Color) -> PixelRect {
    var box = PixelRect.empty
    for y in 0..<canvas.height {
        for x in 0..<canvas.width where canvas.pixel(x: x, y: y) != background {
            box = box.union(PixelRect(x: x, y: y, width: 1, height: 1))
        }
    }
    return box
}

@Suite struct CircleCoverageTests {
    @Test(arguments: [0.5, 0.7, 1.0, 1.5, 2.0, 3.3, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 400.0])
    func areaIsPiRSquared(radius: Double) {
        let size = Int(2 * radius + 8)
        // Off-grid centre so that no symmetry hides an error.
        let c = coverage(width: size, height: size) {
            $0.fillCircle(center: Vec2(Double(size) / 2 + 0.37, Double(size) / 2 - 0.21), radius: radius, color: .white)
        }
        // The polygon strays from the circle by the flattening tolerance at most, all round.
        let expected = Double.pi * radius * radius
        #expect(abs(total(c) - expected) <= 2 * Double.pi * radius * Canvas.flatness, "radius \(radius): \(total(c)) vs \(expected)")
        #expect(c.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test func ringAreaIsAnnulus() {
        let c = coverage(width: 120, height: 120) {
            $0.strokeCircle(center: Vec2(60.3, 59.6), radius: 40, lineWidth: 6, color: .white)
        }
        let expected = Double.pi * (43.0 * 43.0 - 37.0 * 37.0)
        #expect(abs(total(c) - expected) / expected < 0.005)
        // The centre of a ring is empty, its line full.
        #expect(c[60 * 120 + 60] == 0)
        #expect(abs(c[60 * 120 + 100] - 1) < 1e-4)
    }

    @Test func circleEdgesAreSymmetric() {
        // Centre on a pixel corner: the picture must be mirror-symmetric both ways and under
        // a quarter turn.
        let n = 64
        let c = coverage(width: n, height: n) { $0.fillCircle(center: Vec2(32, 32), radius: 20.3, color: .white) }
        let bad = failures(n, n) { x, y in
            let v = c[y * n + x]
            return abs(v - c[y * n + (n - 1 - x)]) < 1e-4 && abs(v - c[(n - 1 - y) * n + x]) < 1e-4
                && abs(v - c[x * n + y]) < 1e-4
        }
        #expect(bad.count == 0, "asymmetric at \(bad.first)")
    }

    @Test func circleEdgeProfileIsMonotone() {
        // Along a radius the coverage falls from 1 to 0 and never comes back.
        let c = coverage(width: 100, height: 100) { $0.fillCircle(center: Vec2(50, 50.5), radius: 29.5, color: .white) }
        let profile = (50..<100).map { c[50 * 100 + $0] }
        #expect(zip(profile, profile.dropFirst()).allSatisfy { $1 <= $0 + 1e-5 })
        #expect(c[50 * 100 + 79] > 0.3 && c[50 * 100 + 79] < 0.7)
    }

    @Test func circleLargerThanCanvasCoversAll() {
        let c = coverage(width: 40, height: 30) { $0.fillCircle(center: Vec2(20, 15), radius: 5000, color: .white) }
        #expect(c.allSatisfy { abs($0 - 1) < 1e-4 })
    }
}

@Suite struct PolygonCoverageTests {
    @Test(arguments: [0.0, 0.3, 0.7853981633974483, 1.2, 2.9, -0.5])
    func rotatedScaledRectangleConservesArea(angle: Double) {
        let t = AffineTransform.scale(1.7, 0.6).rotated(angle).translated(100.25, 90.6)
        let rect = Rect(x: -30, y: -20, width: 60, height: 40)
        let c = coverage(width: 200, height: 180) { $0.fillRect(rect, transform: t, color: .white) }
        let expected = 60 * 40 * 1.7 * 0.6
        #expect(abs(total(c) - expected) / expected < 1e-4, "angle \(angle): \(total(c)) vs \(expected)")
        #expect(c.allSatisfy { $0 >= 0 && $0 <= 1 + 1e-5 })
    }

    @Test func tinyAndThinShapesKeepTheirArea() {
        let a = coverage(width: 20, height: 20) { $0.fillRect(Rect(x: 5.3, y: 7.1, width: 0.2, height: 0.3), color: .white) }
        #expect(abs(total(a) - 0.06) < 1e-5)
        let line = coverage(width: 100, height: 100) {
            $0.drawLine(from: Vec2(10.2, 20.7), to: Vec2(90.4, 75.1), width: 0.5, color: .white)
        }
        let length = Vec2(80.2, 54.4).length
        #expect(abs(total(line) - length * 0.5) / (length * 0.5) < 1e-4)
    }

    @Test func axisAlignedRectangleHasExactEdges() {
        let c = coverage(width: 10, height: 10) { $0.fillRect(Rect(x: 2.25, y: 3, width: 5.5, height: 2), color: .white) }
        #expect(abs(c[3 * 10 + 2] - 0.75) < 1e-5)
        #expect(abs(c[3 * 10 + 5] - 1) < 1e-5)
        #expect(abs(c[4 * 10 + 7] - 0.75) < 1e-5)
        #expect(c[5 * 10 + 5] == 0 && c[2 * 10 + 5] == 0)
    }

    @Test func polygonWindingIsNonZero() {
        // The same square drawn clockwise and anticlockwise covers the same pixels.
        let cw = coverage(width: 30, height: 30) {
            $0.fillPolygon([Vec2(5.5, 5.5), Vec2(20.5, 5.5), Vec2(20.5, 20.5), Vec2(5.5, 20.5)], color: .white)
        }
        let ccw = coverage(width: 30, height: 30) {
            $0.fillPolygon([Vec2(5.5, 20.5), Vec2(20.5, 20.5), Vec2(20.5, 5.5), Vec2(5.5, 5.5)], color: .white)
        }
        #expect(cw == ccw)
        #expect(abs(total(cw) - 225) < 1e-3)
    }
}

@Suite struct ClippingTests {
    /// The part of a shape inside the canvas must be exactly what a big canvas shows there.
    func agreesWithBigCanvas(_ draw: (Canvas, Vec2) -> Void) {
        let w = 60, h = 50, margin = 100
        let small = coverage(width: w, height: h) { draw($0, .zero) }
        let big = coverage(width: w + 2 * margin, height: h + 2 * margin) { draw($0, Vec2(Double(margin), Double(margin))) }
        let bad = failures(w, h) { x, y in
            abs(small[y * w + x] - big[(y + margin) * (w + 2 * margin) + x + margin]) < 1e-4
        }
        #expect(bad.count == 0, "\(bad.count) pixels differ, first at \(bad.first)")
    }

    @Test(arguments: [Vec2(0, 25), Vec2(60, 25), Vec2(30, 0), Vec2(30, 50), Vec2(0, 0), Vec2(60, 50), Vec2(-3, 53)])
    func circleAcrossEveryEdge(center: Vec2) {
        agreesWithBigCanvas { canvas, offset in
            canvas.fillCircle(center: center + offset + Vec2(0.3, -0.4), radius: 17.6, color: .white)
        }
    }

    @Test(arguments: [Vec2(0, 25), Vec2(60, 25), Vec2(30, 0), Vec2(30, 50), Vec2(60, 0)])
    func rotatedRectAndLineAcrossEdges(center: Vec2) {
        agreesWithBigCanvas { canvas, offset in
            let t = AffineTransform.rotation(0.6).translated(center.x + offset.x, center.y + offset.y)
            canvas.fillRect(Rect(x: -25, y: -8, width: 50, height: 16), transform: t, color: .white)
            canvas.drawLine(from: center + offset + Vec2(-40, 30), to: center + offset + Vec2(45, -33), width: 3, color: .white)
            canvas.strokeCircle(center: center + offset, radius: 20, lineWidth: 4, color: .white)
        }
    }

    @Test func hugeAndDegenerateShapesAreSafe() {
        // Shapes vastly larger than the canvas cover it exactly; degenerate ones draw nothing.
        let big = coverage(width: 40, height: 30) {
            $0.fillRect(Rect(x: -1e12, y: -1e12, width: 2e12, height: 2e12), transform: .rotation(0.3), color: .white)
        }
        #expect(big.allSatisfy { abs($0 - 1) < 1e-4 })
        let line = coverage(width: 40, height: 30) {
            $0.drawLine(from: Vec2(-1e15, 15), to: Vec2(1e15, 15), width: 2, color: .white)
        }
        #expect(abs(total(line) - 80) < 1e-2)
        // Segments ending far beyond any Int: rows are counted on the canvas, not on them.
        let tall = coverage(width: 40, height: 30) {
            $0.fillRect(Rect(x: 5, y: -1e300, width: 10, height: 2e300), color: .white)
            $0.fillRect(Rect(x: -1e300, y: 20, width: 2e300, height: 5), color: .white)
        }
        #expect(abs(total(tall) - (300 + 200)) < 1e-2) // coverage adds up where they cross
        let nothing = coverage(width: 40, height: 30) {
            $0.fillRect(Rect(x: 5, y: 5, width: 10, height: 10), transform: .scale(0, 1), color: .white)
            $0.drawLine(from: Vec2(3, 3), to: Vec2(3, 3), width: 4, color: .white)
            $0.fillPolygon([Vec2(1, 1), Vec2(20, 20), Vec2(39, 39)], color: .white)
            $0.fillPolygon([Vec2(1e300, 1), Vec2(-1e300, 2), Vec2(1e300, 25)], color: .white)
            $0.strokeCircle(center: Vec2(20, 15), radius: .infinity, lineWidth: 3, color: .white)
            $0.fillCircle(center: Vec2(20, 15), radius: -3, color: .white)
        }
        #expect(nothing.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
    }

    @Test func shapesWhollyOutsideTouchNothing() {
        let canvas = Canvas(width: 50, height: 40)
        canvas.clear(.black)
        _ = canvas.takeDamage()
        canvas.fillCircle(center: Vec2(-30, 20), radius: 29.9, color: .white)
        canvas.fillCircle(center: Vec2(80, 20), radius: 29.9, color: .white)
        canvas.fillCircle(center: Vec2(25, -10.5), radius: 10, color: .white)
        canvas.fillRect(Rect(x: 10, y: 41, width: 20, height: 20), transform: .rotation(0), color: .white)
        canvas.drawLine(from: Vec2(-10, -10), to: Vec2(60, -5), width: 4, color: .white)
        canvas.fillCircle(center: Vec2(.nan, 3), radius: 5, color: .white)
        canvas.fillCircle(center: Vec2(1e300, -1e300), radius: 1e299, color: .white)
        #expect(changedBox(canvas, background: .black).isEmpty)
        #expect(canvas.takeDamage().isEmpty)
    }
}

@Suite struct PaintingTests {
    @Test(arguments: PixelFormat.allCases)
    func nothingOutsideTheBoundingBoxIsTouched(format: PixelFormat) {
        let canvas = Canvas(width: 120, height: 100, format: format)
        let shapes: [(Canvas) -> Void] = [
            { $0.fillCircle(center: Vec2(40.3, 50.8), radius: 12.4, color: .red) },
            { $0.strokeCircle(center: Vec2(60, 40), radius: 25, lineWidth: 3, color: .blue) },
            { $0.fillRect(Rect(x: -10, y: -5, width: 20, height: 10), transform: AffineTransform.rotation(0.4).translated(70, 60), color: .green) },
            { $0.drawLine(from: Vec2(10, 90), to: Vec2(110.5, 12.2), width: 2.5, color: .yellow) },
        ]
        let boxes = [
            Rect(center: Vec2(40.3, 50.8), width: 24.8, height: 24.8),
            Rect(center: Vec2(60, 40), width: 53, height: 53),
            Rect(x: 70 - 11.3, y: 60 - 8.6, width: 22.6, height: 17.2),
            Rect(x: 10 - 1, y: 12.2 - 1, width: 100.5 + 2, height: 77.8 + 2),
        ]
        for (draw, box) in zip(shapes, boxes) {
            canvas.clear(.white)
            _ = canvas.takeDamage()
            draw(canvas)
            let changed = changedBox(canvas, background: canvas.pixel(x: 0, y: 99)!)
            let allowed = PixelRect(covering: box)
            #expect(!changed.isEmpty)
            #expect(changed.intersection(allowed) == changed, "changed \(changed) outside \(allowed)")
            // Damage covers every changed pixel.
            #expect(canvas.damage.intersection(changed) == changed)
        }
    }

    @Test func opaqueInteriorIsTheExactColour() {
        for format in PixelFormat.allCases {
            let canvas = Canvas(width: 64, height: 64, format: format)
            canvas.clear(.white)
            let colour = Color(rgb: 0x3A7FC4)
            canvas.fillCircle(center: Vec2(32, 32), radius: 20, color: colour)
            let expected = format == .xrgb8888 ? colour : Color(xrgb: xrgb(rgb565: colour.rgb565Value))
            #expect(canvas.pixel(x: 32, y: 32) == expected)
            #expect(canvas.pixel(x: 32, y: 13) == expected)
            #expect(canvas.pixel(x: 2, y: 2) == (format == .xrgb8888 ? .white : Color(xrgb: xrgb(rgb565: 0xFFFF))))
        }
    }

    @Test func edgePixelsBlendOverTheBackground() {
        let canvas = Canvas(width: 10, height: 10)
        canvas.clear(Color(rgb: 0x000000))
        canvas.fillRect(Rect(x: 2, y: 2, width: 4.5, height: 4), color: Color(rgb: 0xFFFFFF))
        #expect(canvas.pixel(x: 6, y: 3) == Color(r: 128, g: 128, b: 128))
        // Translucent colour: half of white over black, then over the half-covered pixel.
        canvas.fillRect(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(r: 255, g: 0, b: 0, a: 128))
        #expect(canvas.pixel(x: 0, y: 0) == Color(r: 128, g: 0, b: 0))
        #expect(canvas.pixel(x: 3, y: 3) == Color(r: 255, g: 127, b: 127))
    }

    @Test func gradientsRunEndToEndAndDitherOnRGB565() {
        let canvas = Canvas(width: 64, height: 256)
        canvas.fillGradient(canvas.bounds, from: .black, to: .white)
        #expect(canvas.pixel(x: 10, y: 0) == Color(r: 0, g: 0, b: 0))
        #expect(canvas.pixel(x: 10, y: 255) == Color(r: 255, g: 255, b: 255))
        #expect(canvas.pixel(x: 10, y: 100)!.r == 100)
        // A flat colour between two 565 levels: plain rounding is off by 4 (103 → level 13 →
        // 107); the dither's 4×4 mean lands within one 8-bit step.
        let panel = Canvas(width: 8, height: 8, format: .rgb565)
        let target = Color(r: 103, g: 103, b: 103)
        panel.fillGradient(panel.bounds, from: target, to: target)
        var sum = SIMD3<Double>.zero
        for y in 0..<4 { for x in 0..<4 { let c = panel.pixel(x: x, y: y)!; sum += SIMD3(Double(c.r), Double(c.g), Double(c.b)) } }
        let mean = sum / 16
        #expect(abs(mean.x - 103) < 1 && abs(mean.y - 103) < 1 && abs(mean.z - 103) < 1, "mean \(mean)")
        #expect(Color(xrgb: xrgb(rgb565: target.rgb565Value)).r == 107)
        #expect(panel.takeDamage() == [panel.bounds])
    }

    @Test func damageIsTheUnionOfWhatWasDrawn() {
        let canvas = Canvas(width: 200, height: 200)
        canvas.fillCircle(center: Vec2(50, 50), radius: 10, color: .red)
        canvas.fillRect(PixelRect(x: 150, y: 160, width: 20, height: 10), color: .blue)
        #expect(canvas.damage == PixelRect(x: 40, y: 40, width: 130, height: 130))
        let rects = canvas.takeDamage()
        #expect(rects == [PixelRect(x: 40, y: 40, width: 20, height: 20), PixelRect(x: 150, y: 160, width: 20, height: 10)])
        #expect(canvas.damage.isEmpty && canvas.takeDamage().isEmpty)
        // Past the list's limit, the union stands for everything.
        canvas.maxDamageRects = 4
        for i in 0..<10 { canvas.fillRect(PixelRect(x: i * 15, y: i * 10, width: 5, height: 5), color: .red) }
        #expect(canvas.takeDamage() == [PixelRect(x: 0, y: 0, width: 140, height: 95)])
        // Clipped to the canvas.
        canvas.fillCircle(center: Vec2(195, 195), radius: 20, color: .red)
        #expect(canvas.takeDamage() == [PixelRect(x: 175, y: 175, width: 25, height: 25)])
    }
}

@Suite struct PixelFormatTests {
    @Test func spanFillsWriteExactlyTheirPixels() {
        // Every length and start alignment: the vector stores overlap, never overrun.
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: 80)
        let storage16 = UnsafeMutablePointer<UInt16>.allocate(capacity: 80)
        defer { storage.deallocate(); storage16.deallocate() }
        for start in 0..<8 {
            for count in 0...60 {
                storage.initialize(repeating: 7, count: 80)
                storage16.initialize(repeating: 7, count: 80)
                fillSpan32(storage + start, count, 0xDEAD_BEEF)
                fillSpan16(storage16 + start, count, 0xBEEF)
                let bad = failures(80, 1) { i, _ in
                    let inside = i >= start && i < start + count
                    return storage[i] == (inside ? 0xDEAD_BEEF : 7) && storage16[i] == (inside ? 0xBEEF : 7)
                }
                #expect(bad.count == 0, "start \(start) count \(count): wrong at \(bad.first)")
            }
        }
    }

    @Test func blendIsPerChannelRoundedOver() {
        // The packed blend equals round((src·a + dst·(255 − a)) / 255) in every channel.
        var g = SeededGenerator(seed: 3)
        var wrong = 0
        for i in 0..<20_000 {
            let d = UInt32(truncatingIfNeeded: g.next()), s = UInt32(truncatingIfNeeded: g.next())
            let a = i < 256 ? UInt32(i) : UInt32(g.next() % 256)
            let out = blendXRGB(d, s, a)
            for shift: UInt32 in [0, 8, 16] {
                let sc = Double((s >> shift) & 0xFF), dc = Double((d >> shift) & 0xFF)
                let expected = UInt32(((sc * Double(a) + dc * Double(255 - a)) / 255).rounded())
                if (out >> shift) & 0xFF != expected { wrong += 1 }
            }
            if out >> 24 != 0xFF { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test func rgb565RoundsToNearest() {
        let bad = failures(256, 1) { v, _ in
            let five = Int(channel5(UInt32(v))), six = Int(channel6(UInt32(v)))
            // Nearest level: no other level is closer.
            let d5 = abs(Double(five) * 255 / 31 - Double(v)), d6 = abs(Double(six) * 255 / 63 - Double(v))
            return d5 <= 255.0 / 62 + 1e-9 && d6 <= 255.0 / 126 + 1e-9
                && five == Int((Double(v) * 31 / 255).rounded()) && six == Int((Double(v) * 63 / 255).rounded())
        }
        #expect(bad.count == 0, "first wrong value \(bad.first)")
        #expect(rgb565(r: 255, g: 255, b: 255) == 0xFFFF)
        #expect(rgb565(r: 0, g: 0, b: 0) == 0)
        #expect(Color(rgb: 0xFF0000).rgb565Value == 0xF800)
        #expect(Color(rgb: 0x7F7F7F).rgb565Value == (15 << 11 | 31 << 5 | 15)) // 127·31/255 = 15.4 → 15; 127·63/255 = 31.4 → 31
        // Every 565 value survives expansion and re-rounding.
        #expect((0...0xFFFF).allSatisfy { rgb565(xrgb: xrgb(rgb565: UInt16($0))) == UInt16($0) })
    }
}

@Suite struct BandTests {
    /// Rows swept as bands (sides stepped per row) near every canvas edge: a 64-pixel-wide
    /// canvas has no row padding, so a write past the right edge would land in the next row.
    @Test(arguments: [Vec2(63.5, 30), Vec2(0.5, 30), Vec2(32, 0.5), Vec2(32, 63.5), Vec2(70, 30), Vec2(-6, 30)])
    func rotatedSquaresAtTheEdgesMatchABigCanvas(center: Vec2) {
        let w = 64, h = 64, margin = 100
        for angle in stride(from: 0.0, to: 1.6, by: 0.13) {
            let draw = { (canvas: Canvas, offset: Vec2) in
                canvas.fillRect(Rect(x: -20, y: -20, width: 40, height: 40),
                                transform: AffineTransform.rotation(angle).translated(center.x + offset.x, center.y + offset.y),
                                color: .white)
            }
            let small = coverage(width: w, height: h) { draw($0, .zero) }
            let big = coverage(width: w + 2 * margin, height: h + 2 * margin) { draw($0, Vec2(Double(margin), Double(margin))) }
            let bad = failures(w, h) { x, y in
                abs(small[y * w + x] - big[(y + margin) * (w + 2 * margin) + x + margin]) < 1e-4
            }
            #expect(bad.count == 0, "angle \(angle): \(bad.count) pixels differ, first at \(bad.first)")
        }
    }

    /// Painted pixels (not only coverage) stay inside the canvas row by row.
    @Test func nothingSpillsIntoTheNextRow() {
        let canvas = Canvas(width: 64, height: 64)
        canvas.clear(.black)
        // Right side wholly beyond the right edge, left side crossing it over the band.
        canvas.fillRect(Rect(x: -30, y: -30, width: 60, height: 60),
                        transform: AffineTransform.rotation(0.35).translated(80, 32), color: .white)
        for y in 0..<64 { #expect(canvas.pixel(x: 0, y: y) == .black) }
    }
}
