import Testing
import Diagnostics
import Geometry
import Gestures
import KioskConfig
import Platform
import Syscalls
@testable import Exhibits

/// A calibration replayed: a touch panel that reports skewed and offset (as a panel glued a
/// little off, or a cheap controller does) is touched on the screen's four targets; the
/// fitted `[touch] calibration` then puts every target within 1 px.
@Suite struct CalibrationScreenTests {
    /// The panel reports normalised point p as `skew(p)`.
    let skew = TouchCalibration.affine(libinput: [1.04, 0.03, -0.025, -0.02, 0.96, 0.035])!

    func run(screen: ScreenTransform, before: TouchCalibration) throws -> (Calibration, TouchCalibration) {
        var env = ExhibitEnvironment(width: screen.portraitWidth, height: screen.portraitHeight, fonts: try FontSet(),
                                     log: Log(minimum: .error), homeControl: Rect(x: 8, y: 8, width: 72, height: 72))
        env.touchPanel = TouchPanel(screen: screen, calibration: before)
        let gestures = GestureEnvironment()
        let screenExhibit = Calibration(environment: env, gestures: gestures, random: SeededGenerator(seed: 1))
        var translator = TouchTranslator(screen: screen)
        translator.calibration = before
        // What the panel's controller sends for a finger at portrait point `t`: through the
        // mounting backwards (the panel is mounted that way), then skewed.
        let w = Double(screen.panelWidth), h = Double(screen.panelHeight)
        func reported(_ t: Vec2) -> Vec2 {
            let panel = screen.panelPoint(fromPortrait: t)
            let mountedBack = before.mounting.inverted!.apply(Vec2(panel.x / w, panel.y / h))
            let s = skew.apply(mountedBack)
            return Vec2(s.x * w, s.y * h)
        }
        var time: UInt64 = 1_000
        for (slot, target) in screenExhibit.targets.enumerated() {
            let r = reported(target)
            var events = translator.translate(.touchDown(device: 1, slot: Int32(slot), x: r.x, y: r.y, time: time))
            events += translator.translate(.touchFrame(device: 1, time: time))
            time += 120_000
            events += translator.translate(.touchUp(device: 1, slot: Int32(slot), time: time))
            events += translator.translate(.touchFrame(device: 1, time: time))
            for case .touches(let f) in events { screenExhibit.touches(f); gestures.handle(f) }
            time += 800_000
        }
        let result = try #require(screenExhibit.result)
        // The new calibration, through the same path: each target lands within 1 px.
        var after = TouchTranslator(screen: screen)
        after.calibration = result
        for (slot, target) in screenExhibit.targets.enumerated() {
            let r = reported(target)
            _ = after.translate(.touchDown(device: 1, slot: Int32(slot), x: r.x, y: r.y, time: time))
            guard case .touches(let f)? = after.translate(.touchFrame(device: 1, time: time)).first else { throw KioskConfigTestFailure() }
            #expect(f.events[0].position.distance(to: target) <= 1, "target \(slot): \(f.events[0].position) for \(target)")
            _ = after.translate(.touchUp(device: 1, slot: Int32(slot), time: time + 1))
            _ = after.translate(.touchFrame(device: 1, time: time + 1))
        }
        return (screenExhibit, result)
    }
    struct KioskConfigTestFailure: Error {}

    @Test func aSkewedOffsetPanelIsFittedWithinAPixelOfEachTarget() throws {
        let (screenExhibit, result) = try run(screen: ScreenTransform(panelWidth: 800, panelHeight: 480, rotation: .r90), before: .identity)
        #expect(screenExhibit.touched.count == 4)
        // The line goes into the file as is, and reads back as the same calibration.
        let line = try #require(screenExhibit.configLine)
        let config = try KioskConfiguration.parse("[touch]\n" + line + "\n", file: "c.toml")
        let values = try #require(config.touch.calibration)
        let read = try #require(TouchCalibration.affine(libinput: values))
        for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)] {
            #expect(read.apply(Vec2(x, y)).distance(to: result.matrix.apply(Vec2(x, y))) < 1e-5)
        }
        if case .array(let touched)? = screenExhibit.state().extras.first(where: { $0.0 == "touched" })?.1 { #expect(touched.count == 4) }
    }

    @Test func aMountedPanelWithAnOldCalibrationIsFittedThroughBoth() throws {
        let before = TouchCalibration(transform: "rot180", calibration: [0.98, 0, 0.01, 0, 1.01, -0.005])!
        let (_, result) = try run(screen: ScreenTransform(panelWidth: 720, panelHeight: 1280, rotation: .r0), before: before)
        #expect(result.mounting == before.mounting, "the transform stays [touch] transform's")
    }

    /// One touch that slipped by a centimetre (or a target touched out of turn) does not fit
    /// one panel error with the other three: no calibration, and the targets are asked for again.
    @Test func fourTouchesThatDisagreeGiveNoCalibration() throws {
        var env = ExhibitEnvironment(width: 480, height: 800, fonts: try FontSet(), log: Log(minimum: .error))
        env.touchPanel = TouchPanel(screen: ScreenTransform(panelWidth: 480, panelHeight: 800, rotation: .r0), calibration: .identity)
        for (slipped, by) in [(3, Vec2(-60, 0)), (0, Vec2(0, 50)), (1, Vec2(40, 40))] {
            let c = Calibration(environment: env, gestures: GestureEnvironment(), random: SeededGenerator(seed: 1))
            for (i, target) in c.targets.enumerated() {
                let p = target + Vec2(6, -4) + (i == slipped ? by : Vec2(0, 0))
                let t = Microseconds(i) * 1_000_000
                c.touches(TouchFrame(time: t, events: [TouchEvent(slot: 0, phase: .down, position: p, time: t)]))
                c.touches(TouchFrame(time: t + 100_000, events: [TouchEvent(slot: 0, phase: .up, position: p, time: t + 100_000)]))
            }
            #expect(c.result == nil && c.touched.isEmpty, "target \(slipped) off by \(by)")
        }
        // Off by a few pixels each, as fingers are: a calibration.
        let c = Calibration(environment: env, gestures: GestureEnvironment(), random: SeededGenerator(seed: 1))
        for (i, target) in c.targets.enumerated() {
            let p = target + [Vec2(3, -2), Vec2(-2, 3), Vec2(4, 1), Vec2(-1, -3)][i]
            let t = Microseconds(i) * 1_000_000
            c.touches(TouchFrame(time: t, events: [TouchEvent(slot: 0, phase: .down, position: p, time: t)]))
            c.touches(TouchFrame(time: t + 100_000, events: [TouchEvent(slot: 0, phase: .up, position: p, time: t + 100_000)]))
        }
        #expect(c.result != nil)
    }

    @Test func touchingAfterTheFourthStartsAgainOnlyOnALongPress() throws {
        let env = ExhibitEnvironment(width: 480, height: 800, fonts: try FontSet(), log: Log(minimum: .error))
        let gestures = GestureEnvironment()
        let c = Calibration(environment: env, gestures: gestures, random: SeededGenerator(seed: 1))
        var t: Microseconds = 0
        func tap(_ p: Vec2, hold: Microseconds = 100_000) {
            for (phase, at) in [(TouchPhase.down, t), (.up, t + hold)] {
                gestures.advance(to: at)
                let f = TouchFrame(time: at, events: [TouchEvent(slot: 0, phase: phase, position: p, time: at)])
                c.touches(f); gestures.handle(f)
            }
            t += hold + 500_000
        }
        for target in c.targets { tap(target + Vec2(3, -2)) }
        #expect(c.touched.count == 4 && c.configLine == nil, "no panel known: a fit, but no configuration line")
        tap(Vec2(240, 400))
        #expect(c.touched.count == 4)
        tap(Vec2(240, 400), hold: 2_500_000)
        #expect(c.touched.isEmpty)
    }
}
