import Geometry
import Syscalls
import Testing
@testable import Platform

@Suite struct TouchCalibrationTests {
    func near(_ a: Vec2, _ b: Vec2, _ tolerance: Double = 1e-9) -> Bool { a.distance(to: b) <= tolerance }

    @Test func mountingsFollowLibinputsMatrices() throws {
        let p = Vec2(0.2, 0.3)
        func mapped(_ name: String) throws -> Vec2 { try #require(TouchCalibration.mounting(named: name)).apply(p) }
        #expect(near(try mapped("none"), p))
        #expect(near(try mapped("rot90"), Vec2(0.7, 0.2)))       // x' = 1 − y, y' = x
        #expect(near(try mapped("rot180"), Vec2(0.8, 0.7)))
        #expect(near(try mapped("rot270"), Vec2(0.3, 0.8)))
        #expect(near(try mapped("flip-x"), Vec2(0.8, 0.3)))
        #expect(near(try mapped("flip-y"), Vec2(0.2, 0.7)))
        #expect(TouchCalibration.mounting(named: "rot45") == nil)
        let m = [1.1, 0.2, -0.05, 0.0, 0.9, 0.1]
        #expect(TouchCalibration.libinputValues(try #require(TouchCalibration.affine(libinput: m))) == m)
    }

    @Test func appliedAfterLibinputAndBeforeThePortraitTurn() {
        // A landscape 800x480 panel shown in portrait (90°), its touch mounted mirrored and
        // then calibrated 10 % narrower around the left edge.
        var t = TouchTranslator(screen: ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .r90))
        t.calibration = TouchCalibration(transform: "flip-x", calibration: [0.9, 0, 0, 0, 1, 0])!
        _ = t.translate(.touchDown(device: 1, slot: 0, x: 100, y: 50, time: 10))
        let out = t.translate(.touchFrame(device: 1, time: 10))
        // flip-x: (700, 50); calibration: (630, 50); then the one ScreenTransform.
        let expected = ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .r90).portraitPoint(fromPanel: Vec2(630, 50))
        guard case .touches(let frame)? = out.first else { Issue.record("no frame"); return }
        #expect(near(frame.events[0].position, expected, 1e-6))
        // A mouse is no touch panel: its absolute position is not calibrated.
        var m = TouchTranslator(screen: ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .r0))
        m.calibration = TouchCalibration(transform: "flip-x", calibration: nil)!
        _ = m.translate(.pointerAbsolute(device: 2, x: 100, y: 50, time: 1))
        let press = m.translate(.pointerButton(device: 2, button: 0x110, pressed: true, time: 2))
        guard case .touches(let f)? = press.first else { Issue.record("no press"); return }
        #expect(near(f.events[0].position, Vec2(100, 50)))
    }

    @Test func aFitNeedsThreePointsOffALine() throws {
        let truth = AffineTransform(a: 1.02, b: -0.03, c: 0.05, d: 0.97, tx: 12, ty: -7)
        let from = [Vec2(10, 10), Vec2(400, 20), Vec2(390, 700), Vec2(30, 690)]
        let k = try #require(TouchCalibration.fit(from: from, to: from.map(truth.apply)))
        for p in from { #expect(near(k.apply(p), truth.apply(p), 1e-6)) }
        #expect(TouchCalibration.fit(from: [Vec2(0, 0), Vec2(1, 1), Vec2(2, 2), Vec2(3, 3)], to: [Vec2(0, 0), Vec2(1, 1), Vec2(2, 2), Vec2(3, 3)]) == nil)
        #expect(TouchCalibration.fit(from: [Vec2(0, 0), Vec2(1, 0)], to: [Vec2(0, 0), Vec2(1, 0)]) == nil)
    }

    @Test func theConfigLineIsLibinputsOrder() {
        let c = TouchCalibration(matrix: TouchCalibration.affine(libinput: [1.0125, -0.02, 0.015, 0, 0.98, -0.0000001])!)
        #expect(c.configLine == "calibration = [1.0125, -0.02, 0.015, 0.0, 0.98, 0.0]")
    }
}
