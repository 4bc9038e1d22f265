import Testing
import Geometry
@testable import Raster
#if canImport(Glibc)
import Glibc
#endif

/// The kiosk's own chains (DejaVu, Noto Arabic, Hebrew and CJK), each test its own (a typesetter is not shared across threads).
func makeTypesetter() -> Typesetter {
    // The tests need every font of the chain: a missing one would hide shaping faults.
    let regular = try! FontChain(paths: FontChain.regularPaths) { Issue.record("\($0)") }
    let bold = try! FontChain(paths: FontChain.boldPaths) { Issue.record("\($0)") }
    return Typesetter(regular: regular, bold: bold)
}

@Suite struct TextShapingTests {
    let t = makeTypesetter()

    @Test func latinTextDrawsWithinItsBox() {
        let block = t.layout("Élan déjà vu, Größe, niño", TextStyle(size: 20))
        #expect(block.missingGlyphs == 0)
        #expect(block.lineCount == 1 && block.fits && !block.rightToLeft)
        #expect(block.width > 150 && block.width < 380)
        let canvas = Canvas(width: 400, height: 60)
        canvas.clear(.white)
        canvas.draw(block, at: Vec2(10, 10), color: .black, typesetter: t)
        let ink = changedBox(canvas, background: .white)
        #expect(!ink.isEmpty)
        // The ink the block promised is where it landed, to the pixel.
        #expect(ink.x == 10 + Int(block.inkBounds.minX) && ink.maxX == 10 + Int(block.inkBounds.maxX))
        #expect(ink.y == 10 + Int(block.inkBounds.minY) && ink.maxY == 10 + Int(block.inkBounds.maxY))
        #expect(block.inkBounds.minY >= 0 && block.inkBounds.maxY <= block.height)
    }

    @Test func arabicJoinsAndRunsRightToLeft() {
        // Meem alone, and meem starting a word: HarfBuzz picks the initial (joined) form.
        let alone = t.layout("م", TextStyle(size: 30))
        let word = t.layout("مهد", TextStyle(size: 30))
        #expect(alone.missingGlyphs == 0 && word.missingGlyphs == 0)
        #expect(word.rightToLeft)
        #expect(word.glyphs.allSatisfy { $0.font == 1 }, "Noto Sans Arabic draws it")
        let rightmost = word.glyphs.max { $0.x < $1.x }!
        #expect(rightmost.glyph != alone.glyphs[0].glyph, "the first letter is joined, not isolated")
        // Right to left: the first letter is at the right end.
        let leftmost = word.glyphs.min { $0.x < $1.x }!
        #expect(rightmost.x > leftmost.x)
        let letters = word.glyphs.map { $0.glyph }
        #expect(Set(letters).count == 3)
        // A leading alignment puts Arabic at the right of its box.
        let boxed = t.layout("مهد نيوتن", TextStyle(size: 30, maxWidth: 400))
        #expect(boxed.inkBounds.maxX > 390 && boxed.inkBounds.minX > 200)
    }

    @Test func mixedDirectionsKeepEachRunInOrder() {
        // A Latin paragraph with an Arabic word: the Arabic comes after (right of) the Latin.
        let block = t.layout("Tilt مهد", TextStyle(size: 24))
        #expect(!block.rightToLeft)
        let latin = block.glyphs.filter { $0.font == 0 }, arabic = block.glyphs.filter { $0.font == 1 }
        #expect(latin.count >= 4 && arabic.count == 3)
        #expect(latin.map { $0.x }.max()! < arabic.map { $0.x }.min()!)
    }

    @Test func japaneseWrapsBetweenCharactersButNotBeforeFullStops() {
        let text = "画面にさわってあそぼう。台をかたむけよう、箱をダブルタップ。"
        let one = t.layout(text, TextStyle(size: 24, language: "ja"))
        #expect(one.missingGlyphs == 0 && one.lineCount == 1)
        #expect(one.glyphs.allSatisfy { $0.font == 3 }, "Noto Sans CJK draws it")
        let narrow = t.layout(text, TextStyle(size: 24, maxWidth: 130, language: "ja"))
        #expect(narrow.lineCount >= 4 && narrow.fits)
        #expect(narrow.inkBounds.maxX <= 130 + 1)
        // No line starts with 。 or 、: each line's first glyph is never one of them.
        let stops = Set(t.layout("。、", TextStyle(size: 24, language: "ja")).glyphs.map { $0.glyph })
        var lineStarts: [Double: UInt32] = [:]
        for g in narrow.glyphs where lineStarts[g.baseline] == nil || g.x < 1 { if g.x < 1 { lineStarts[g.baseline] = g.glyph } }
        #expect(lineStarts.count == narrow.lineCount)
        #expect(lineStarts.values.allSatisfy { !stops.contains($0) })
    }

    @Test func longTextWrapsThenShrinksButNotBelowTheMinimum() {
        let sentence = "Tap to drop shapes; drag, pinch, turn them; tilt the stand"
        let wrapped = t.layout(sentence, TextStyle(size: 20, maxWidth: 200))
        #expect(wrapped.size == 20 && wrapped.lineCount >= 3 && wrapped.fits)
        #expect(wrapped.inkBounds.maxX <= 200 + 1 && wrapped.inkBounds.minX >= -1)
        // Two lines' height: it shrinks until the lines fit.
        let shrunk = t.layout(sentence, TextStyle(size: 20, maxWidth: 200, maxHeight: 2 * 1.35 * 20, minimumSize: 10))
        #expect(shrunk.size < 20 && shrunk.size >= 10 && shrunk.fits)
        #expect(shrunk.height <= 2 * 1.35 * 20 + 0.01)
        // Not even at the minimum: it says so, and does not go below it.
        let tooBig = t.layout(sentence, TextStyle(size: 20, maxWidth: 200, maxHeight: 20, minimumSize: 16))
        #expect(!tooBig.fits && tooBig.size >= 16)
    }

    @Test func theSameTextAndStyleGiveTheSameBlock() {
        let a = t.layout("Newton's Cradle", TextStyle(size: 18, bold: true))
        let b = t.layout("Newton's Cradle", TextStyle(size: 18, bold: true))
        let c = t.layout("Newton's Cradle", TextStyle(size: 19, bold: true))
        #expect(a == b && a != c)
    }

    @Test func theGlyphCacheStaysWithinItsBudget() throws {
        let font = try Font(path: Font.dejaVuSansPath, glyphCacheBytes: 64 * 1024)
        for size in stride(from: 10, through: 60, by: 5) {
            for glyph in 1..<200 { _ = font.glyph(id: UInt32(glyph), size64: size * 64) }
        }
        #expect(font.cachedGlyphBytes <= 64 * 1024 + 60 * 60 + 48)
        #expect(font.cachedGlyphBytes > 0)
    }

    @Test func aMissingFallbackFontIsReportedAndTheRestWork() throws {
        var reported: [String] = []
        let chain = try FontChain(paths: [Font.dejaVuSansPath, "/nonexistent/NotoSansCJK.ttc"]) { reported.append("\($0)") }
        #expect(chain.fonts.count == 1)
        #expect(reported.count == 1 && reported[0].contains("/nonexistent/NotoSansCJK.ttc"))
        let t = Typesetter(regular: chain, bold: chain)
        // Without the CJK font Japanese shows boxes (counted), Latin still draws.
        #expect(t.layout("日本", TextStyle(size: 20)).missingGlyphs == 2)
        #expect(t.layout("Tilt", TextStyle(size: 20)).missingGlyphs == 0)
        do {
            _ = try FontChain(paths: ["/nonexistent/A.ttf"])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("/nonexistent/A.ttf") && "\(error)".contains("fonts-dejavu-core"))
        }
        let junk = temporaryPath("junk.ttf")
        let fd = open(junk, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        _ = write(fd, "not a font", 10); close(fd)
        defer { unlink(junk) }
        #expect(throws: FontError.self) { try Font(path: junk) }
    }
}
