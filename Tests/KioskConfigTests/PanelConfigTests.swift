import Testing
@testable import KioskConfig

/// `[touch]` and `[display] max_pixels`: read, and bad values named with file and line.
@Suite struct PanelConfigTests {
    @Test func touchAndDisplayKeysAreRead() throws {
        let c = try KioskConfiguration.parse("""
        [display]
        max_pixels = 1000000
        [touch]
        transform = "flip-x"
        calibration = [1.02, 0.01, -0.03, 0, 0.98, 0.015]
        stuck_seconds = 120
        """, file: "c.toml")
        #expect(c.display.maxPixels == 1_000_000)
        #expect(c.touch.transform == .flipX)
        #expect(c.touch.calibration == [1.02, 0.01, -0.03, 0, 0.98, 0.015])
        #expect(c.touch.stuckSeconds == 120)
        let d = try KioskConfiguration.parse("", file: "c.toml")
        #expect(d.display.maxPixels == 1920 * 1200 && d.touch.transform == .none && d.touch.calibration == nil && d.touch.stuckSeconds == 600)
    }

    @Test func badValuesAreNamedWithFileAndLine() {
        do {
            _ = try KioskConfiguration.parse("""
            [display]
            max_pixels = 0
            [touch]
            transform = "rot45"
            calibration = [1, 0, 0, 2, 0, 0]
            stuck_seconds = 3
            """, file: "c.toml")
            Issue.record("bad file accepted")
        } catch {
            let lines = error.errors.map(\.description)
            guard lines.count == 4 else { Issue.record("\(lines)"); return }
            #expect(lines[0] == "c.toml:2: display.max_pixels: 0 is out of range 256…67108864")
            #expect(lines[1].hasPrefix("c.toml:4: touch.transform: 'rot45' is not one of none, rot90, rot180, rot270, flip-x, flip-y"))
            #expect(lines[2].hasPrefix("c.toml:5: touch.calibration: matrix is (nearly) singular"))
            #expect(lines[3].hasPrefix("c.toml:6: touch.stuck_seconds: 3.0 s is shorter"))
        }
        for (text, fragment) in [("calibration = [1, 0, 0]", "expected six numbers"),
                                 ("calibration = [1, 0, 0, 0, 1, \"x\"]", "expected a number"),
                                 ("calibration = [1e300, 0, 0, 0, 1, 0]", "out of range")] {
            do {
                _ = try KioskConfiguration.parse("[touch]\n" + text + "\n", file: "c.toml")
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.errors.first?.description.hasPrefix("c.toml:2: touch.calibration: ") == true)
                #expect(error.errors.first?.description.contains(fragment) == true, "\(error)")
            }
        }
    }

    @Test func theDefaultFileDocumentsTheNewKeys() {
        let text = KioskConfiguration.defaultFileText
        for key in ["max_pixels = 2304000", "[touch]", "transform = \"none\"", "calibration = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]",
                    "stuck_seconds = 600"] {
            #expect(text.contains(key), "\(key)")
        }
    }
}
