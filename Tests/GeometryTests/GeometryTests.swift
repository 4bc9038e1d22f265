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
