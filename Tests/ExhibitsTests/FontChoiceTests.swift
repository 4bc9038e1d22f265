import Testing
import Exhibits
import Raster
import VisitorText

@Suite struct FontChoiceTests {
    /// A stand in Latin-script languages opens only the first font of each chain; one that
    /// offers Japanese or Arabic opens the fallbacks too, and its text draws without boxes.
    @Test func fallbackFontsOpenOnlyWhenTheStandsTextNeedsThem() throws {
        let latin = try FontSet(showing: TextBook(languages: ["en", "fr", "de", "es"]).everyString)
        #expect(latin.typesetter.regular.fonts.count == 1 && latin.typesetter.bold.fonts.count == 1)
        #expect(latin.typesetter.regular.fonts[0].path == Font.dejaVuSansPath)

        let everyLanguage = try FontSet(showing: TextBook(languages: ["en", "ar", "ja"]).everyString)
        #expect(everyLanguage.typesetter.regular.fonts.count == FontChain.regularPaths.count)
        #expect(everyLanguage.typesetter.bold.fonts.count == FontChain.boldPaths.count)
        for scalar in "日本語العربية".unicodeScalars {
            #expect(everyLanguage.typesetter.regular.fonts.contains { $0.covers(scalar) })
        }

        // The museum's own wording counts: a Latin stand with a Japanese title opens them.
        let worded = try FontSet(showing: TextBook(languages: ["en"], overrides: ["en": ["title.circle-draw": "円"]]).everyString)
        #expect(worded.typesetter.regular.fonts.count > 1)
    }
}
