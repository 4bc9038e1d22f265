#if canImport(Glibc)
import Glibc
#endif
import CFreeType
import CHarfBuzz
import Geometry
import Syscalls

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
    public let coverage: [UInt8]
    static let empty = Glyph(width: 0, height: 0, left: 0, top: 0, coverage: [])
}

/// One face of a font file (a .ttc holds several): FreeType renders its glyphs, HarfBuzz
/// shapes text with it. Rendered glyphs are cached per (glyph, size) within a byte budget.
public final class Font {
    public static let dejaVuSansPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    public static let dejaVuSansBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    public let path: String
    public let faceIndex: Int
    private var library: FT_Library?
    private var face: FT_Face?
    /// HarfBuzz's view of `face`, following its current size.
    private(set) var shaper: OpaquePointer?
    private var currentSize: Int = -1
    private var cache: GlyphCache
    /// The file's bytes, mapped while the face reads them.
    private var mapped: FontFile?

    /// Opens face `faceIndex` of the file at `path`; the error names the file and says whether
    /// it is missing or unreadable as a font.
    public init(path: String, faceIndex: Int = 0, glyphCacheBytes: Int = 2 << 20,
                system: any SystemCalls = LinuxSystem.shared) throws(FontError) {
        self.path = path
        self.faceIndex = faceIndex
        cache = GlyphCache(budgetBytes: glyphCacheBytes)
        guard faceIndex >= 0 && faceIndex < 256 else { throw FontError(path: path, reason: "face index \(faceIndex) is out of range") }
        let file = try FontFile(path: path, system: system)
        var lib: FT_Library?
        let e1 = FT_Init_FreeType(&lib)
        guard e1 == 0, let lib else { throw FontError(path: path, reason: "FreeType init failed (error \(e1))") }
        var f: FT_Face?
        let e2 = FT_New_Memory_Face(lib, file.bytes, FT_Long(file.count), FT_Long(faceIndex), &f)
        guard e2 == 0, let f else {
            FT_Done_FreeType(lib)
            throw FontError(path: path, reason: "FreeType cannot load face \(faceIndex) of it as a font (error \(e2))")
        }
        library = lib
        face = f
        mapped = file
        setSize(64 * 16)
        shaper = hb_ft_font_create_referenced(f)
    }

    deinit {
        if let shaper { hb_font_destroy(shaper) }
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
        mapped?.unmap()
    }

    /// Sizes in 1/64 pixel per em, clamped to what a screen can show.
    static func size64(_ size: Double) -> Int { size.isFinite ? Int((max(1, min(size, 1000)) * 64).rounded()) : 64 }

    /// Puts the face (and HarfBuzz's font over it) at `size64`.
    func setSize(_ size64: Int) {
        guard let face, size64 != currentSize else { return }
        FT_Set_Char_Size(face, 0, FT_F26Dot6(size64), 72, 72)
        currentSize = size64
        if let shaper { hb_ft_font_changed(shaper) }
    }

    /// True when the face draws `scalar` (not its .notdef box).
    public func covers(_ scalar: Unicode.Scalar) -> Bool {
        guard let face else { return false }
        return FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// The glyph that draws `scalar` alone and its advance in pixels at `size64`; nil when the
    /// face lacks it (a word broken at a line end gets the hyphen of its own font).
    func glyphAlone(_ scalar: Unicode.Scalar, size64: Int) -> (glyph: UInt32, advance: Double)? {
        guard let shaper else { return nil }
        setSize(size64)
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(shaper, hb_codepoint_t(scalar.value), &glyph) != 0, glyph != 0 else { return nil }
        return (UInt32(glyph), Double(hb_font_get_glyph_h_advance(shaper, glyph)) / 64)
    }

    /// The rendered glyph number `glyphID` at `size64` (1/64 px per em).
    func glyph(id glyphID: UInt32, size64: Int) -> Glyph {
        let key = GlyphCache.Key(glyph: glyphID, size64: Int32(clamping: size64))
        if let g = cache.lookup(key) { return g }
        let g = render(glyphID, size64: size64)
        cache.insert(g, for: key)
        return g
    }

    private func render(_ glyphID: UInt32, size64: Int) -> Glyph {
        guard let face else { return .empty }
        setSize(size64)
        guard FT_Load_Glyph(face, FT_UInt(glyphID), Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph else { return .empty }
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows), pitch = Int(bm.pitch)
        var pixels = [UInt8](repeating: 0, count: w * h)
        if let src = bm.buffer, w > 0, h > 0 {
            for y in 0..<h {
                let row = pitch >= 0 ? src + y * pitch : src + (h - 1 - y) * (-pitch)
                for x in 0..<w { pixels[y * w + x] = row[x] }
            }
        }
        return Glyph(width: w, height: h, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), coverage: pixels)
    }

    /// Bytes the glyph cache holds now (tests check the bound).
    public var cachedGlyphBytes: Int { cache.bytes }
}

/// Rendered glyphs kept in two generations: lookups promote from the older one; when the
/// newer one fills half the budget it becomes the older and the oldest is let go. A long
/// run showing many languages and sizes stays within the budget and keeps what it still uses.
struct GlyphCache {
    struct Key: Hashable { let glyph: UInt32; let size64: Int32 }
    private var recent: [Key: Glyph] = [:]
    private var older: [Key: Glyph] = [:]
    private var recentBytes = 0
    private var olderBytes = 0
    let budgetBytes: Int

    init(budgetBytes: Int) { self.budgetBytes = max(4096, budgetBytes) }

    var bytes: Int { recentBytes + olderBytes }

    private static func cost(_ g: Glyph) -> Int { g.coverage.count + 48 }

    mutating func lookup(_ key: Key) -> Glyph? {
        if let g = recent[key] { return g }
        guard let g = older.removeValue(forKey: key) else { return nil }
        olderBytes -= Self.cost(g)
        insert(g, for: key)
        return g
    }

    mutating func insert(_ g: Glyph, for key: Key) {
        if recentBytes + Self.cost(g) > budgetBytes / 2 {
            older = recent
            olderBytes = recentBytes
            recent = [:]
            recentBytes = 0
        }
        recent[key] = g
        recentBytes += Self.cost(g)
    }
}
