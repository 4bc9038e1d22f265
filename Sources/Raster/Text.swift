#if canImport(Glibc)
import Glibc
#endif
import CFreeType
import Geometry

/// A font could not be loaded; names the file.
public struct FontError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "font \(path): \(reason)" }
}

/// One rendered glyph: an 8-bit coverage bitmap placed relative to the pen on the baseline.
public struct Glyph: Sendable {
    public let width: Int, height: Int
    /// From the pen to the bitmap's left column, and from the baseline up to its top row.
    public let left: Int, top: Int
    /// How far the pen moves, in pixels (hinted, as FreeType reports it).
    public let advance: Double
    public let coverage: [UInt8]
}

/// A TrueType face rendered by FreeType, with a cache of glyphs per (character, size).
public final class Font {
    public static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public static let dejaVuSansBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    public let path: String
    private var library: FT_Library?
    private var face: FT_Face?
    private var currentSize: Int = -1
    private struct Key: Hashable { let scalar: UInt32; let size64: Int }
    private var cache: [Key: Glyph] = [:]

    /// Opens the face at `path`; the error names the file and says whether it is missing
    /// (install fonts-dejavu-core for the default faces) or unreadable as a font.
    public init(path: String) throws(FontError) {
        self.path = path
        guard access(path, R_OK) == 0 else {
            throw FontError(path: path, reason: "no readable file there (Debian: apt-get install fonts-dejavu-core)")
        }
        var lib: FT_Library?
        let e1 = FT_Init_FreeType(&lib)
        guard e1 == 0, let lib else { throw FontError(path: path, reason: "FreeType init failed (error \(e1))") }
        var f: FT_Face?
        let e2 = FT_New_Face(lib, path, 0, &f)
        guard e2 == 0, let f else {
            FT_Done_FreeType(lib)
            throw FontError(path: path, reason: "FreeType cannot load it as a font (error \(e2))")
        }
        library = lib
        face = f
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    private static func size64(_ size: Double) -> Int { Int((max(1, min(size, 1000)) * 64).rounded()) }

    /// The glyph for `scalar` at `size` pixels per em (missing characters give the font's
    /// .notdef box, as FreeType does).
    public func glyph(_ scalar: Unicode.Scalar, size: Double) -> Glyph {
        let key = Key(scalar: scalar.value, size64: Font.size64(size))
        if let g = cache[key] { return g }
        let g = render(key)
        cache[key] = g
        return g
    }

    private func render(_ key: Key) -> Glyph {
        guard let face else { return Glyph(width: 0, height: 0, left: 0, top: 0, advance: 0, coverage: []) }
        if key.size64 != currentSize {
            FT_Set_Char_Size(face, 0, FT_F26Dot6(key.size64), 72, 72)
            currentSize = key.size64
        }
        guard FT_Load_Char(face, FT_ULong(key.scalar), Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph else {
            return Glyph(width: 0, height: 0, left: 0, top: 0, advance: 0, coverage: [])
        }
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows), pitch = Int(bm.pitch)
        var pixels = [UInt8](repeating: 0, count: w * h)
        if let src = bm.buffer, w > 0, h > 0 {
            for y in 0..<h {
                let row = pitch >= 0 ? src + y * pitch : src + (h - 1 - y) * (-pitch)
                for x in 0..<w { pixels[y * w + x] = row[x] }
            }
        }
        return Glyph(width: w, height: h, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
                     advance: Double(slot.pointee.advance.x) / 64, coverage: pixels)
    }

    /// The width the pen travels drawing `text` at `size`: what `drawText` returns.
    public func advance(of text: String, size: Double) -> Double {
        var pen = 0.0
        for s in text.unicodeScalars { pen += glyph(s, size: size).advance }
        return pen
    }

    /// Ascender and descender (positive, pixels) at `size`, from the face's metrics.
    public func verticalMetrics(size: Double) -> (ascender: Double, descender: Double) {
        guard let face else { return (0, 0) }
        let unitsPerEm = Double(face.pointee.units_per_EM)
        let scale = size / unitsPerEm
        return (Double(face.pointee.ascender) * scale, -Double(face.pointee.descender) * scale)
    }
}

public extension Canvas {
    /// Draws UTF-8 `text` with the left end of its baseline at `origin`; returns the advance.
    @discardableResult
    func drawText(_ text: String, at origin: Vec2, font: Font, size: Double, color: Color) -> Double {
        guard color.a > 0, origin.isFinite, size > 0 else { return 0 }
        var pen = origin.x
        let baseline = Int(origin.y.rounded())
        for s in text.unicodeScalars {
            let g = font.glyph(s, size: size)
            if g.width > 0 && g.height > 0 && abs(pen) < 1e6 {
                drawGlyph(g, x: Int(pen.rounded()) + g.left, y: baseline - g.top, color: color)
            }
            pen += g.advance
        }
        return pen - origin.x
    }

    /// Draws `text` centred horizontally on `center.x`, baseline at `center.y`; returns the advance.
    @discardableResult
    func drawText(_ text: String, centeredAt center: Vec2, font: Font, size: Double, color: Color) -> Double {
        let width = font.advance(of: text, size: size)
        return drawText(text, at: Vec2(center.x - width / 2, center.y), font: font, size: size, color: color)
    }

    private func drawGlyph(_ g: Glyph, x: Int, y: Int, color: Color) {
        let box = PixelRect(x: x, y: y, width: g.width, height: g.height).intersection(drawable)
        if box.isEmpty { return }
        addDamage(box)
        let alpha = UInt32(color.a)
        g.coverage.withUnsafeBufferPointer { cov in
            switch buffer.format {
            case .xrgb8888:
                let p = XRGBPainter(buffer: buffer, color: color)
                for row in box.y..<box.maxY {
                    let dst = p.row(row), src = cov.baseAddress! + (row - y) * g.width - x
                    for col in box.x..<box.maxX where src[col] != 0 {
                        p.blend(dst, col, div255Rounded(UInt32(src[col]) * alpha))
                    }
                }
            case .rgb565:
                let p = RGB565Painter(buffer: buffer, color: color)
                for row in box.y..<box.maxY {
                    let dst = p.row(row), src = cov.baseAddress! + (row - y) * g.width - x
                    for col in box.x..<box.maxX where src[col] != 0 {
                        p.blend(dst, col, div255Rounded(UInt32(src[col]) * alpha))
                    }
                }
            }
        }
    }
}
