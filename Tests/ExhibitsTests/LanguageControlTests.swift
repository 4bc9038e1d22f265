import Diagnostics
@testable import Exhibits
import Geometry
import Raster
import Testing
import VisitorText

/// A stand in English, Arabic and Japanese, played from its launcher.
@Suite struct LanguageControlTests {
    static func stand(_ s: inout KioskApp.Settings) {
        s.languages = ["en", "ar", "ja"]
        s.idleTimeout = 10_000_000
        s.attractAfter = 60_000_000
    }

    func control(_ r: ReplayResult, _ checkpoint: String, _ id: String) -> (center: Vec2, width: Double, selected: Bool)? {
        guard case .array(let controls)? = r.states[checkpoint]?["controls"],
              let c = controls.first(where: { r.string($0["id"]) == id }),
              let x = r.number(c["x"]), let y = r.number(c["y"]), let w = r.number(c["width"]) else { return nil }
        return (Vec2(x, y), w, c["selected"] == .bool(true))
    }

    /// The x-centre of the light text pixels inside `box` of a frame (tile text is white).
    func textCentreX(_ frame: PixelBuffer, in box: PixelRect) -> Double? {
        var sum = 0.0, count = 0.0
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX {
                let p = frame.bytes.load(fromByteOffset: y * frame.strideBytes + x * 4, as: UInt32.self)
                let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                if r > 200 && g > 200 && b > 200 { sum += Double(x); count += 1 }
            }
        }
        return count > 50 ? sum / count : nil
    }

    @Test func theLanguageButtonsSwitchEveryScreenAndIdleReturnsToTheFirst() throws {
        // Where the buttons are, from a stand like the replayed one.
        var settings = KioskApp.Settings()
        Self.stand(&settings)
        let probe = KioskApp(settings: settings, fonts: try FontSet(), log: Log(minimum: .error))
        guard case .array(let controls)? = probe.state()["controls"] else { Issue.record("no controls"); return }
        func centre(_ id: String) -> Vec2 {
            let c = controls.first { if case .string(id)? = $0["id"] { true } else { false } }
            if case .number(let x)? = c?["x"], case .number(let y)? = c?["y"] { return Vec2(x, y) }
            return Vec2(-1, -1)
        }
        var t = TraceBuilder()
        t.checkpoint("english", at: 100)
        t.tap(centre("language.ar"), at: 500)
        t.checkpoint("arabic", at: 900)
        t.tap(centre("exhibit.newtons-cradle"), at: 1200)
        t.checkpoint("cradle-arabic", at: 1600)
        t.tap(centre("language.ja"), at: 2000)
        t.checkpoint("cradle-japanese", at: 2400)
        // Nobody for 10 s: the launcher again, in English, for the next visitor.
        t.checkpoint("idle", at: 12_500)
        let r = try replay(t.text, exhibit: "launcher", configure: Self.stand)

        #expect(r.states["english"]?["language"] == .string("en"))
        #expect(control(r, "english", "language.en")?.selected == true)
        #expect(control(r, "english", "language.ar")?.selected == false)
        #expect(r.states["arabic"]?["language"] == .string("ar"))
        #expect(control(r, "arabic", "language.ar")?.selected == true)
        #expect(r.states["cradle-arabic"]?["exhibit"] == .string("newtons-cradle"))
        #expect(r.states["cradle-arabic"]?["language"] == .string("ar"))
        #expect(control(r, "cradle-arabic", "language.ja") != nil, "the buttons are on the exhibit too")
        #expect(r.states["cradle-japanese"]?["language"] == .string("ja"))
        #expect(r.states["idle"]?["exhibit"] == .string("launcher"))
        #expect(r.states["idle"]?["language"] == .string("en"))

        // The first tile's text reads from the left in English and from the right in Arabic
        // (however many tiles, in one column or more).
        let tile = try #require(control(r, "english", "exhibit.motion-cube"))
        let box = PixelRect(x: Int(tile.center.x - tile.width / 2), y: Int(tile.center.y) - 40, width: Int(tile.width), height: 80)
        let english = try #require(r.frames["english"].flatMap { textCentreX($0, in: box) })
        let arabic = try #require(r.frames["arabic"].flatMap { textCentreX($0, in: box) })
        let side = tile.width * 0.08
        #expect(english < tile.center.x - side && arabic > tile.center.x + side,
                "text centres: English \(english), Arabic \(arabic) in a tile centred at \(tile.center.x)")
        // The cradle's instruction changed with the language: the frames differ below the cradle.
        let a = try #require(r.frames["cradle-arabic"]), j = try #require(r.frames["cradle-japanese"])
        var differing = 0
        for y in 640..<800 { for x in 0..<480 where a.bytes.load(fromByteOffset: y * a.strideBytes + x * 4, as: UInt32.self)
            != j.bytes.load(fromByteOffset: y * j.strideBytes + x * 4, as: UInt32.self) { differing += 1 } }
        #expect(differing > 500)
    }

    @Test func oneLanguageShowsNoButtonsAndNoLanguageKey() throws {
        var t = TraceBuilder()
        t.checkpoint("start", at: 100)
        let r = try replay(t.text, exhibit: "launcher")
        #expect(r.states["start"]?["language"] == nil)
        guard case .array(let controls)? = r.states["start"]?["controls"] else { Issue.record("no controls"); return }
        #expect(!controls.contains { r.string($0["id"])?.hasPrefix("language.") == true })
    }
}
