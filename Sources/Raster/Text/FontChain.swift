/// Fonts tried in order for each character: the first that has it draws it. The kiosk's
/// chain starts with DejaVu (Latin, Greek, Cyrillic) and falls back to Noto for Arabic,
/// Hebrew and CJK, so one string may mix scripts.
public final class FontChain {
    public let fonts: [Font]

    /// The Debian paths of the default chains (fonts-dejavu-core, fonts-noto-core,
    /// fonts-noto-cjk; face 0 of the CJK collection is the Japanese one).
    public static let regularPaths = [
        Font.dejaVuSansPath,
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    ]
    public static let boldPaths = [
        Font.dejaVuSansBoldPath,
        "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    ]

    public init(fonts: [Font]) { self.fonts = fonts }

    /// Loads every path it can; a missing fallback is reported through `missing` (its
    /// script will show boxes) but only a chain with no font at all is an error. Given the
    /// `text` a stand can show, the fallbacks stay closed when the first font draws every
    /// character of it: an open face holds memory (the two Noto CJK faces ~1.9 MB resident,
    /// mostly their character maps), and a stand in Latin-script languages never needs them.
    public convenience init(paths: [String], showing text: [String]? = nil,
                            missing: (FontError) -> Void = { _ in }) throws(FontError) {
        var loaded: [Font] = []
        var firstError: FontError? = nil
        var fallbacksNeeded: Bool? = nil   // decided once, when the first font is open
        for path in paths {
            if let text, let first = loaded.first {
                // Control characters (line breaks) are laid out, never drawn.
                if fallbacksNeeded == nil {
                    fallbacksNeeded = !text.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value < 0x20 || first.covers($0) } }
                }
                if fallbacksNeeded == false { break }
            }
            do throws(FontError) {
                loaded.append(try Font(path: path))
            } catch {
                missing(error)
                if firstError == nil { firstError = error }
            }
        }
        guard !loaded.isEmpty else { throw firstError ?? FontError(path: "(none)", reason: "no font was named") }
        self.init(fonts: loaded)
    }

    /// Whether some font of the chain draws `scalar`.
    public func covers(_ scalar: Unicode.Scalar) -> Bool { fonts.contains { $0.covers(scalar) } }

    /// The font for `scalar`. Letters of Arabic, Hebrew and CJK go to the first fallback
    /// that has them (DejaVu draws some Arabic letters, without the joined forms of a
    /// complete Arabic font); anything else to `current` when it has it (spaces and
    /// punctuation stay in the run around them), else to the first font that has it.
    func fontIndex(for scalar: Unicode.Scalar, current: Int?) -> Int {
        if FontChain.wantsFallback(scalar.value) {
            for i in fonts.indices.dropFirst() where fonts[i].covers(scalar) { return i }
        }
        if let current, fonts[current].covers(scalar) { return current }
        for (i, font) in fonts.enumerated() where font.covers(scalar) { return i }
        return current ?? 0
    }

    /// Scripts a general font covers only in part: Hebrew, Arabic, kana, CJK ideographs, Hangul.
    static func wantsFallback(_ c: UInt32) -> Bool {
        (0x0590...0x08FF).contains(c) || (0xFB1D...0xFDFF).contains(c) || (0xFE70...0xFEFF).contains(c)
            || (0x3040...0x30FF).contains(c) || (0x3400...0x9FFF).contains(c) || (0xAC00...0xD7AF).contains(c)
            || (0xF900...0xFAFF).contains(c) || (0xFF00...0xFFEF).contains(c) || (0x3000...0x303F).contains(c)
    }
}
