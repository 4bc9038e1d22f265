import Testing
import Geometry
@testable import Raster
#if canImport(Glibc)
import Glibc
#endif

func temporaryPath(_ name: String) -> String {
    "/tmp/motionkiosk-raster-tests-\(getpid())-\(name)"
}

@Suite struct TextTests {
    @Test func drawsNonEmptyGlyphsWithFreeTypesAdvance() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        let canvas = Canvas(width: 400, height: 60)
        canvas.clear(.white)
        let text = "Élan déjà vu, Größe, niño"
        let advance = canvas.drawText(text, at: Vec2(10, 40), font: font, size: 20, color: .black)
        // The advance is the sum of FreeType's per-glyph advances, and what `advance(of:)` measures.
        let sum = text.unicodeScalars.reduce(0.0) { $0 + font.glyph($1, size: 20).advance }
        #expect(advance == sum)
        #expect(font.advance(of: text, size: 20) == sum)
        #expect(advance > 150 && advance < 380)
        // Every letter rendered something, including the accented ones.
        for ch in "ÉéàößñÉ".unicodeScalars {
            let g = font.glyph(ch, size: 20)
            #expect(g.width > 0 && g.height > 0 && g.coverage.contains { $0 > 200 }, "glyph \(ch)")
        }
        // Ink lies between the pen start and start + advance, above and a bit below the baseline.
        let ink = changedBox(canvas, background: .white)
        #expect(!ink.isEmpty)
        #expect(ink.x >= 9 && ink.maxX <= Int(10 + advance) + 2)
        #expect(ink.y >= 40 - 24 && ink.maxY <= 40 + 7)
        // The É's accent reaches above the x-height letters' tops.
        #expect(font.glyph("É", size: 20).top > font.glyph("E", size: 20).top)
        #expect(canvas.damage.intersection(ink) == ink)
    }

    @Test func centredTextIsCentred() throws {
        let font = try Font(path: Font.dejaVuSansBoldPath)
        let canvas = Canvas(width: 300, height: 50, format: .rgb565)
        canvas.clear(.black)
        canvas.drawText("Newton's Cradle", centeredAt: Vec2(150, 35), font: font, size: 18, color: .white)
        let ink = changedBox(canvas, background: canvas.pixel(x: 0, y: 0)!)
        let middle = Double(ink.x + ink.maxX) / 2
        #expect(abs(middle - 150) < 2)
    }

    @Test func missingFontNamesThePath() {
        let path = "/nonexistent/fonts/Nope.ttf"
        do {
            _ = try Font(path: path)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains(path))
            #expect("\(error)".contains("fonts-dejavu-core"))
        }
        // A file that exists but is not a font.
        let junk = temporaryPath("junk.ttf")
        let fd = open(junk, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        _ = write(fd, "not a font", 10); close(fd)
        defer { unlink(junk) }
        #expect(throws: FontError.self) { try Font(path: junk) }
    }
}

@Suite struct PNGTests {
    @Test(arguments: PixelFormat.allCases)
    func writtenAndReadBackEqual(format: PixelFormat) throws {
        let canvas = Canvas(width: 97, height: 61, format: format)
        canvas.clear(Color(rgb: 0x203040))
        canvas.fillCircle(center: Vec2(40.5, 30.2), radius: 22, color: .yellow)
        canvas.drawLine(from: Vec2(0, 60), to: Vec2(96, 3), width: 3, color: Color(r: 200, g: 10, b: 90, a: 180))
        let path = temporaryPath("roundtrip-\(format).png")
        defer { unlink(path) }
        try writePNG(canvas.buffer, to: path)
        let back = try readPNG(path: path, format: format)
        #expect(back.width == 97 && back.height == 61 && back.format == format)
        let bad = failures(97, 61) { x, y in
            format == .xrgb8888 ? back.row32(y)[x] == canvas.buffer.row32(y)[x] | 0xFF00_0000
                : back.row16(y)[x] == canvas.buffer.row16(y)[x]
        }
        #expect(bad.count == 0, "\(bad.count) pixels differ, first \(bad.first)")
    }

    @Test func errorsNameTheFile() {
        let missing = "/nonexistent/dir/frame.png"
        #expect { try readPNG(path: missing) } throws: { "\($0)".contains(missing) }
        #expect { try writePNG(PixelBuffer(width: 2, height: 2), to: missing) } throws: { "\($0)".contains(missing) }
    }
}
