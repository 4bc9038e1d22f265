#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Geometry

@Suite struct AffineTransformTests {
    @Test func rotationIsClockwiseOnScreen() {
        // x right, y down: a quarter turn clockwise takes "right" to "down".
        let p = AffineTransform.rotation(.pi / 2).apply(Vec2(1, 0))
        #expect(abs(p.x) < 1e-12 && abs(p.y - 1) < 1e-12)
        let q = Vec2(1, 0).rotated(by: .pi / 2)
        #expect(abs(q.x) < 1e-12 && abs(q.y - 1) < 1e-12)
    }
    @Test func composeAndInvert() {
        let t = AffineTransform.scale(2, 3).rotated(0.7).translated(10, -4)
        let p = Vec2(5, 7)
        let back = t.inverted!.apply(t.apply(p))
        #expect((back - p).length < 1e-9)
        #expect(AffineTransform.scale(0, 1).inverted == nil)
    }
    @Test func thenAppliesSelfFirst() {
        let t = AffineTransform.translation(10, 0).then(.scale(2, 2))
        #expect(t.apply(Vec2(0, 0)) == Vec2(20, 0))
    }
}

@Suite struct PixelRectTests {
    @Test func unionAndIntersection() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let b = PixelRect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.union(b) == PixelRect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.intersection(b) == PixelRect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.intersection(PixelRect(x: 20, y: 20, width: 1, height: 1)).isEmpty)
        #expect(PixelRect.empty.union(b) == b)
    }
    @Test func coveringRoundsOutward() {
        let r = PixelRect(covering: Rect(x: 0.5, y: 1.2, width: 2, height: 2))
        #expect(r == PixelRect(x: 0, y: 1, width: 3, height: 3))
    }
}

@Suite struct ColorTests {
    @Test func hexRoundTrip() {
        #expect(Color(hex: "#FF8000")?.hex == "#FF8000")
        #expect(Color(hex: "12ab34")?.rgb == 0x12AB34)
        #expect(Color(hex: "#12345") == nil)
        #expect(Color(hex: "zzzzzz") == nil)
    }
}

@Suite struct ClockAndRandomTests {
    @Test func virtualClockAdvances() {
        let c = VirtualClock()
        c.advance(by: 1500)
        #expect(c.now == 1500)
    }
    @Test func seededGeneratorIsReproducible() {
        var a = SeededGenerator(seed: 42), b = SeededGenerator(seed: 42)
        for _ in 0..<100 { #expect(a.next() == b.next()) }
        for _ in 0..<1000 { let u = a.unit(); #expect(u >= 0 && u < 1) }
    }
    @Test func angleNormalization() {
        #expect(abs(normalizeAngle(3 * .pi) - .pi) < 1e-12)
        #expect(abs(normalizeAngle(-0.5) + 0.5) < 1e-12)
    }
}

@Suite struct ScreenTransformTests {
    @Test(arguments: PanelRotation.allCases) func pointRoundTrip(rotation: PanelRotation) {
        let t = ScreenTransform(portraitWidth: 480, portraitHeight: 800, rotation: rotation)
        for p in [Vec2(0, 0), Vec2(480, 800), Vec2(12.5, 700.25)] {
            let back = t.portraitPoint(fromPanel: t.panelPoint(fromPortrait: p))
            #expect((back - p).length < 1e-9)
        }
    }
    @Test(arguments: PanelRotation.allCases) func pixelAndPointAgree(rotation: PanelRotation) {
        // The centre of a portrait pixel lands at the centre of the panel pixel that shows it.
        let t = ScreenTransform(portraitWidth: 6, portraitHeight: 10, rotation: rotation)
        for y in 0..<10 { for x in 0..<6 {
            let q = t.panelPoint(fromPortrait: Vec2(Double(x) + 0.5, Double(y) + 0.5))
            let px = t.panelPixel(fromPortraitX: x, y: y)
            #expect(Int(q.x) == px.x && Int(q.y) == px.y)
            #expect(px.x >= 0 && px.x < t.panelWidth && px.y >= 0 && px.y < t.panelHeight)
        } }
    }
    @Test func landscapePanelTurnedClockwise() {
        // 800×480 panel showing portrait 480×800 turned 90° clockwise: the portrait top edge
        // runs down the panel's right edge.
        let t = ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .r90)
        #expect(t.portraitWidth == 480 && t.portraitHeight == 800)
        #expect(t.panelPixel(fromPortraitX: 0, y: 0).x == 799)
        #expect(t.panelRect(fromPortrait: PixelRect(x: 0, y: 0, width: 480, height: 10)) == PixelRect(x: 790, y: 0, width: 10, height: 480))
    }
}

@Suite struct PolarTests {
    @Test func angleAndLengthRoundTrip() {
        let v = Vec2(angle: .pi / 2, length: 3)   // clockwise quarter turn from +x: down
        #expect(abs(v.x) < 1e-12 && abs(v.y - 3) < 1e-12)
        #expect(abs(Vec2(-1, 0).angle - .pi) < 1e-12)
        #expect(abs(Vec2(angle: -0.7, length: 2).angle + 0.7) < 1e-12)
    }
}

/// Our sin, cos and atan2 (the same bits on every CPU) against the C library's.
@Suite struct PortableTrigonometryTests {
    /// Distance in units in the last place.
    func ulps(_ a: Double, _ b: Double) -> Double {
        if a == b { return 0 }
        return abs(a - b) / max(abs(b).ulp, Double.leastNormalMagnitude)
    }

    @Test func sinAndCosAreWithinFourUlpsOfTheLibrary() {
        var worst = 0.0
        var x = -1000.0
        while x < 1000 {
            let (s, c) = portableSinCos(x)
            // Near a zero of the function the library's own ulp is tiny: compare absolutely there.
            let ds = abs(sin(x)) > 1e-3 ? ulps(s, sin(x)) : abs(s - sin(x)) / 1e-19
            let dc = abs(cos(x)) > 1e-3 ? ulps(c, cos(x)) : abs(c - cos(x)) / 1e-19
            worst = max(worst, ds, dc)
            x += 0.0137
        }
        #expect(worst <= 4, "worst \(worst) ulps")
        #expect(portableSinCos(0) == (0, 1))
        #expect(portableSinCos(.pi / 2).sin == 1)
        #expect(portableSinCos(.infinity).sin.isNaN)
        #expect(portableSinCos(1e300).sin.isFinite && portableSinCos(-1e300).cos.isFinite)
    }

    @Test func atan2IsWithinFourUlpsAndKeepsItsQuadrants() {
        var worst = 0.0
        for i in 0..<4000 {
            let angle = -3.14 + Double(i) * 0.00157
            for radius in [1e-3, 1.0, 250.0] {
                let y = radius * sin(angle), x = radius * cos(angle)
                let ours = portableAtan2(y, x), theirs = atan2(y, x)
                worst = max(worst, abs(theirs) > 1e-3 ? ulps(ours, theirs) : abs(ours - theirs) / 1e-19)
            }
        }
        #expect(worst <= 4, "worst \(worst) ulps")
        #expect(portableAtan2(0, -1) == .pi)
        #expect(portableAtan2(-0.0, -1) == -.pi)
        #expect(portableAtan2(1, 0) == .pi / 2)
        #expect(portableAtan2(-1, -0.0) == -.pi / 2)
        #expect(portableAtan2(.infinity, .infinity) == .pi / 4)
        #expect(portableAtan2(.nan, 1).isNaN)
    }
}
