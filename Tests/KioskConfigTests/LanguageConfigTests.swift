@testable import KioskConfig
import Testing
import VisitorText

@Suite struct LanguageConfigTests {
    @Test func languagesAndTheMuseumsWordingAreRead() throws {
        let text = """
        [exhibits]
        languages = ["fr", "en"]

        [text.fr]
        "motion-cube.title" = "Cube magique"
        tilt-box.title = "La boîte qui penche"

        [text.en]
        attract.call = "Come and play!"
        """
        let c = try KioskConfiguration.parse(text, file: "s.toml")
        #expect(c.exhibits.languages == ["fr", "en"])
        #expect(c.text.overrides["fr"] == ["motion-cube.title": "Cube magique", "tilt-box.title": "La boîte qui penche"])
        #expect(c.text.overrides["en"] == ["attract.call": "Come and play!"])
        let book = TextBook(languages: c.exhibits.languages, overrides: c.text.overrides)
        #expect(book[TextKey.title("motion-cube")] == "Cube magique")
        #expect(book[TextKey.title("newtons-cradle")] == "Pendule de Newton")
        book.select("en")
        #expect(book[TextKey.attractCall] == "Come and play!")
        #expect(book[TextKey.title("motion-cube")] == "Motion Cube")
    }

    @Test func everyMistakeNamesItsLine() {
        let text = """
        [exhibits]
        languages = ["en", "fe", "en"]

        [text.fr]
        motion-cube.titel = "Cube"
        "grid-block.title" = ""

        [text.xx]
        attract.call = "Hi"

        [text.de]
        attract.call = "Los\\u0007"
        """
        do {
            _ = try KioskConfiguration.parse(text, file: "s.toml")
            Issue.record("expected errors")
        } catch {
            let lines = error.errors.map { $0.description }
            #expect(lines.contains { $0.hasPrefix("s.toml:2: exhibits.languages: 'fe' is not a language the kiosk has text for") && $0.contains("did you mean") })
            #expect(lines.contains { $0.hasPrefix("s.toml:5:") && $0.contains("no visitor text 'motion-cube.titel'; did you mean 'motion-cube.title'?") })
            #expect(lines.contains { $0.hasPrefix("s.toml:6:") && $0.contains("must not be empty") })
            #expect(lines.contains { $0.hasPrefix("s.toml:9:") && $0.contains("no language 'xx'") })
            #expect(lines.contains { $0.hasPrefix("s.toml:12:") && $0.contains("control character") })
        }
        #expect(throws: ConfigErrors.self) { try KioskConfiguration.parse("[exhibits]\nlanguages = [\"en\", \"en\"]\n", file: "d.toml") }
        #expect(throws: ConfigErrors.self) { try KioskConfiguration.parse("[exhibits]\nlanguages = []\n", file: "d.toml") }
        let long = String(repeating: "a", count: 401)
        #expect(throws: ConfigErrors.self) { try KioskConfiguration.parse("[text.en]\nattract.call = \"\(long)\"\n", file: "d.toml") }
        #expect(throws: ConfigErrors.self) { try KioskConfiguration.parse("[text]\nfonts = [\"fonts/relative.ttf\"]\n", file: "d.toml") }
    }

    @Test func wordingForALanguageTheStandDoesNotOfferIsAWarning() throws {
        var warnings: [String] = []
        let c = try KioskConfiguration.parse("[text.ja]\nattract.call = \"あそぼう\"\n", file: "w.toml") { warnings.append($0.description) }
        #expect(c.text.overrides["ja"]?["attract.call"] == "あそぼう")
        #expect(warnings == ["w.toml:2: text.ja.attract.call: 'ja' is not in exhibits.languages: visitors will not see this wording"])
    }
}
