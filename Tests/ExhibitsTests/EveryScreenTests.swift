import Geometry
import Testing
@testable import Exhibits

/// circle-draw's controls and motion-cube's shapes on every panel the issue names: on
/// screen, below the home control's row, finger-sized, in proportion.
@Suite struct EveryScreenTests {
    static let sizes = [(480, 800), (600, 1024), (720, 1280), (800, 1280), (768, 1024), (720, 720), (1080, 1920), (400, 400)]

    func controls(_ r: ReplayResult, _ cp: String) -> [(id: String, frame: Rect)] {
        guard case .array(let list)? = r.states[cp]?["controls"] else { return [] }
        return list.compactMap { c in
            guard let id = r.string(c["id"]), let x = r.number(c["x"]), let y = r.number(c["y"]),
                  let w = r.number(c["width"]), let h = r.number(c["height"]) else { return nil }
            return (id, Rect(x: x - w / 2, y: y - h / 2, width: w, height: h))
        }
    }

    @Test(arguments: sizes.map { "\($0.0)x\($0.1)" })
    func circleDrawsBarAndMenuFitAndStayFingerSized(size: String) throws {
        let p = size.split(separator: "x").compactMap { Double($0) }
        let (w, h) = (p[0], p[1])
        var t = TraceBuilder()
        t.checkpoint("open", at: 100)
        // A circle drawn from as high as a finger can start: it begins below the home row.
        t.drag(from: Vec2(w * 0.6, 4), to: Vec2(w * 0.6 + 40, 4), at: 300, duration: 200)
        t.checkpoint("drawn", at: 800)
        let r = try replay(t.text, exhibit: "circle-draw", width: Int(w), height: Int(h))
        let all = controls(r, "open")
        let home = try #require(all.first { $0.id == "home" }).frame
        let modes = all.filter { $0.id.hasPrefix("mode.") }, swatches = all.filter { $0.id.hasPrefix("color.") }
        #expect(modes.count == 3 && swatches.count == 4)
        let pixelsPerMillimetre = (w * w + h * h).squareRoot() / (7 * 25.4)
        for c in modes + swatches {
            #expect(c.frame.minX >= 0 && c.frame.maxX <= w && c.frame.minY > home.maxY && c.frame.maxY <= h, "\(size) \(c.id) \(c.frame)")
            #expect(c.frame.height >= 9 * pixelsPerMillimetre, "\(size) \(c.id) is \(c.frame.height) px tall")
        }
        for s in swatches { #expect(abs(s.frame.width - s.frame.height) < 1, "\(size) \(s.id) is square") }
        // No two controls overlap; the swatches sit above the bar.
        for (i, a) in (modes + swatches).enumerated() {
            for b in (modes + swatches).dropFirst(i + 1) {
                #expect(!a.frame.insetBy(dx: 0.5, dy: 0.5).intersects(b.frame), "\(size) \(a.id) overlaps \(b.id)")
            }
        }
        let barTop = modes.map { $0.frame.minY }.min()!
        #expect(swatches.allSatisfy { $0.frame.maxY <= barTop })
        // The drawing area keeps most of the screen.
        #expect(barTop - (home.maxY + home.minY) > h * 0.4, "\(size): \(barTop - home.maxY) px to draw in")
        for item in r.items("drawn") {
            if let y = r.number(item["y"]), let d = r.number(item["width"]) {
                #expect(y - d / 2 >= home.maxY + home.minY - 0.5, "\(size): a circle reaches up under the home control's row")
            }
        }
    }

    @Test(arguments: sizes.map { "\($0.0)x\($0.1)" })
    func motionCubeShapesStayBelowTheHomeRow(size: String) throws {
        let p = size.split(separator: "x").compactMap { Double($0) }
        let (w, h) = (p[0], p[1])
        var t = TraceBuilder()
        t.flat(from: 0, to: 4000)
        // A tap in the top row beside the home control, then a shape dragged far up.
        t.tap(Vec2(w / 2, 10), at: 300)
        t.checkpoint("born", at: 600)
        t.tap(Vec2(w / 2, h * 0.7), at: 900)
        t.drag(from: Vec2(w / 2, h * 0.7), to: Vec2(w / 2, -h), at: 1500, duration: 150, hold: 500)
        t.checkpoint("dragged", at: 2100)
        let r = try replay(t.text, exhibit: "motion-cube", width: Int(w), height: Int(h))
        let home = try #require(controls(r, "born").first { $0.id == "home" }).frame
        let safeTop = home.maxY + home.minY
        for cp in ["born", "dragged"] {
            #expect(!r.items(cp).isEmpty, "\(size) \(cp): no shape")
            for item in r.items(cp) {
                guard let y = r.number(item["y"]), let side = r.number(item["height"]), let x = r.number(item["x"]) else { continue }
                // A turned square reaches out to half its diagonal; these are upright or round.
                #expect(y - side / 2 >= safeTop - 1, "\(size) \(cp): a shape at y \(y) reaches above \(safeTop)")
                #expect(x - side / 2 >= -1 && x + side / 2 <= w + 1 && y + side / 2 <= h + 1)
            }
        }
    }
}
