import Testing
import Geometry
@testable import Exhibits

/// The attract loop plays demos written for 480×800 on larger screens too: each exhibit maps
/// its demo's touches to the screen the way its layout scales, so they land on its shapes.
@Suite struct AttractDemoScalingTests {
    @Test func tiltBoxAndCradleDemosWorkAt720x1280() throws {
        var t = TraceBuilder()
        // The attract loop starts 1 s after the launcher opens: tilt-box first (catalog
        // order), then newtons-cradle after its demo (last touch 6.8 s) and a 2.5 s tail.
        t.checkpoint("tilt-round", at: 1000 + 2500)
        t.checkpoint("tilt-lifted", at: 1000 + 3800)
        t.checkpoint("cradle-pulled", at: 1000 + 9300 + 2100)
        t.checkpoint("cradle-end", at: 1000 + 9300 + 3600)
        let r = try replay(t.text, exhibit: "launcher", width: 720, height: 1280) { settings in
            settings.attractAfter = 1_000_000
            settings.order = ["tilt-box", "newtons-cradle"]
        }
        #expect(r.string(r.states["tilt-round"]?["attract"]) == "tilt-box")
        #expect(r.string(r.items("tilt-round").first?["shape"]) == "circle")
        #expect((r.number(r.items("tilt-lifted").first?["y"]) ?? 2000) < 600)
        #expect(r.string(r.states["cradle-pulled"]?["attract"]) == "newtons-cradle")
        // The left ball (resting at y 705) is held out and up; later the right one has swung.
        let pulled = r.items("cradle-pulled")
        #expect((r.number(pulled.first?["y"]) ?? 0) < 705 - 30, "\(pulled.first.map { "\($0)" } ?? "")")
        let end = r.items("cradle-end")
        #expect(end.count == 5)
    }
}
