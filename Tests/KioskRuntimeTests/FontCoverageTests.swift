import Diagnostics
import Exhibits
import KioskConfig
import KioskRuntime
import Raster
import Testing

/// A stand whose text some font cannot draw hears it where an operator looks: check-config,
/// the start-up log and the commissioning screen name the language (and key) and what to
/// install or configure.
@Suite struct FontCoverageTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// A stand in English and Japanese whose Noto CJK fonts are not there.
    static let japaneseWithoutCJK = """
        [exhibits]
        languages = ["en", "ja"]
        [text]
        fonts = ["\(dejaVu)", "/nonexistent/fonts/NotoSansCJK-Regular.ttc"]
        bold_fonts = ["\(dejaVuBold)", "/nonexistent/fonts/NotoSansCJK-Bold.ttc"]

        """

    @Test func aJapaneseStandWithoutNotoCJKIsToldToInstallFontsNotoCJK() throws {
        let configuration = try KioskConfiguration.parse(Self.japaneseWithoutCJK, file: "stand.toml")
        // check-config
        let warnings = configuration.fontWarnings
        #expect(warnings.count == 1, "\(warnings)")
        let warning = try #require(warnings.first)
        #expect(warning.contains("language \"ja\"") && warning.contains("fonts-noto-cjk"), "\(warning)")
        #expect(warning.contains("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc to [text] fonts"), "\(warning)")
        // The start-up log: a warning, once.
        let log = Log.Recorder()
        let fonts = try configuration.fonts(log: Log(minimum: .info, sink: log.sink))
        let logged = log.recorded.filter { $0.hasPrefix("warning:") }
        #expect(logged.count == 1 && logged.first?.contains("fonts-noto-cjk") == true, "\(log.recorded)")
        // The commissioning screen.
        var settings = configuration.kioskSettings
        settings.devices = ["display: virtual", "tilt: fixed down gravity"]
        let app = KioskApp(settings: settings, fonts: fonts, log: Log(minimum: .error))
        app.open("commissioning")
        let shown = app.displayList().commands.compactMap { command -> String? in
            if case .text(let block, _, _, _) = command { return block.text } else { return nil }
        }
        #expect(shown.contains("fonts: no font for ja text: install fonts-noto-cjk"), "\(shown)")
    }

    @Test func theMuseumsWordingWithCharactersNoFontHasIsNamedByKeyAndLanguage() throws {
        let text = """
            [exhibits]
            languages = ["en", "de"]
            [text.de]
            "tilt-box.title" = "Kippen \\uE000 \\U0001F980"
            "launcher.heading" = "অন্বেষণ"

            """
        let configuration = try KioskConfiguration.parse(text, file: "stand.toml")
        let warnings = configuration.fontWarnings
        #expect(warnings.count == 2, "\(warnings)")
        let title = try #require(warnings.first { $0.contains("tilt-box.title") })
        #expect(title.contains("[text.de]") && title.contains("U+E000") && title.contains("U+1F980"), "\(title)")
        #expect(title.contains("private-use") && title.contains("emoji"), "\(title)")
        let heading = try #require(warnings.first { $0.contains("launcher.heading") })
        #expect(heading.contains("[text.de]") && heading.contains("fonts-noto-core"), "\(heading)")
    }

    @Test func theShippedFontsDrawEveryShippedLanguage() throws {
        let configuration = try KioskConfiguration.parse("[exhibits]\nlanguages = [\"en\", \"fr\", \"de\", \"es\", \"ar\", \"ja\"]\n", file: "stand.toml")
        #expect(configuration.fontWarnings.isEmpty, "\(configuration.fontWarnings)")
    }

    @Test func noFontAtAllIsSaid() throws {
        let configuration = try KioskConfiguration.parse("[text]\nfonts = [\"/nonexistent/a.ttf\"]\n", file: "stand.toml")
        let warnings = configuration.fontWarnings
        #expect(warnings.count == 1 && warnings.first?.contains("/nonexistent/a.ttf") == true, "\(warnings)")
    }
}
