#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Raster

/// Font files are opened like every other input: a FIFO or a device named as a font is
/// refused at once with its path (FreeType's own fopen would wait on a FIFO for ever).
@Suite struct FontFileTests {
    @Test func aFIFONamedAsAFontIsRefusedWithoutWaiting() throws {
        let fifo = "/tmp/motionkiosk-font-fifo-\(getpid()).ttf"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        var refused: FontError?
        do { _ = try Font(path: fifo) } catch { refused = error }
        #expect(refused?.description == "font \(fifo): is a FIFO, not a regular file")
    }

    @Test func aDeviceADirectoryAndAnEmptyFileAreRefused() throws {
        let empty = "/tmp/motionkiosk-font-empty-\(getpid()).ttf"
        close(open(empty, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        defer { unlink(empty) }
        for (path, reason) in [("/dev/zero", "is a character device, not a regular file"), ("/tmp", "is a directory, not a regular file"),
                               (empty, "is empty")] {
            var refused: FontError?
            do { _ = try Font(path: path) } catch { refused = error }
            #expect(refused?.reason == reason, "\(path)")
        }
    }

    @Test func aChainSkipsAFIFOFallbackAndSaysSo() throws {
        let fifo = "/tmp/motionkiosk-font-fallback-\(getpid()).ttf"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        var missing: [String] = []
        let chain = try FontChain(paths: [Font.dejaVuSansPath, fifo]) { missing.append($0.description) }
        #expect(chain.fonts.count == 1)
        #expect(missing == ["font \(fifo): is a FIFO, not a regular file"])
    }

    @Test func aRealFontStillLoadsAndDraws() throws {
        let font = try Font(path: Font.dejaVuSansPath)
        #expect(font.covers("A"))
        let chain = FontChain(fonts: [font])
        let block = Typesetter(regular: chain, bold: chain).layout("Hello", TextStyle(size: 20))
        #expect(block.width > 20)
    }
}
