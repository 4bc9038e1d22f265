import CHarfBuzz
import Geometry

/// Turns a string and a style into a `TextBlock`: splits it into runs of one direction and
/// one font (fribidi levels, the font chain), shapes each run with HarfBuzz (Arabic joins,
/// Japanese and Latin kern), breaks lines at spaces and between CJK characters, shrinks the
/// size in steps until the lines fit the box, and puts each line's runs in visual order. A
/// word wider than the box even at the smallest size is broken inside, between letters
/// (never between a letter and its accents), with a hyphen where its script takes one.
/// Blocks are cached per (text, style), within a bound, so a frame never shapes again.
public final class Typesetter {
    public let regular: FontChain
    public let bold: FontChain
    /// Lines are this many ems apart; the first baseline is `ascent` ems below the box top.
    public static let lineSpacing = 1.35
    public static let ascent = 1.0
    private var blocks: [TextStyleKey: TextBlock] = [:]
    private var olderBlocks: [TextStyleKey: TextBlock] = [:]
    private let blockCacheLimit = 256
    private var nextID = 1

    private struct TextStyleKey: Hashable { let text: String; let style: TextStyle }

    public init(regular: FontChain, bold: FontChain) { self.regular = regular; self.bold = bold }

    public func chain(bold isBold: Bool) -> FontChain { isBold ? bold : regular }

    /// The block for `text` in `style` (the same one as last time, when cached).
    public func layout(_ text: String, _ style: TextStyle) -> TextBlock {
        let key = TextStyleKey(text: text, style: style)
        if let b = blocks[key] { return b }
        if let b = olderBlocks.removeValue(forKey: key) { remember(b, key); return b }
        let b = makeBlock(text, style)
        remember(b, key)
        return b
    }

    private func remember(_ block: TextBlock, _ key: TextStyleKey) {
        if blocks.count >= blockCacheLimit / 2 { olderBlocks = blocks; blocks = [:] }
        blocks[key] = block
    }

    // MARK: Shaping

    /// A shaped paragraph: per character its font, level and advance; glyphs per run.
    private struct ShapedGlyph { var glyph: UInt32; var cluster: Int; var advance: Double; var xOffset: Double; var yOffset: Double }
    private struct Run { var start: Int; var end: Int; var font: Int; var level: UInt8; var glyphs: [ShapedGlyph] }
    private struct Paragraph {
        var scalars: [UInt32]
        var runs: [Run]
        var advances: [Double]
        var rightToLeft: Bool
        var missing: Int
        /// The hyphen of each font the runs use (by chain index), for words broken at a line end.
        var hyphens: [Int: (glyph: UInt32, advance: Double)]

        /// The run holding character `i`.
        func run(at i: Int) -> Run? { runs.first { $0.start <= i && i < $0.end } }
    }

    /// One line of a paragraph: its characters, and whether a hyphen ends it (a word broken).
    private struct Line { var range: Range<Int>; var hyphen: Bool }

    private func shape(_ scalars: [UInt32], size64: Int, chain: FontChain, language: String) -> Paragraph {
        let (levels, rtl) = Bidi.levels(of: scalars)
        // Runs: one font and one level each.
        var runs: [Run] = []
        var current: Int? = nil
        for (i, value) in scalars.enumerated() {
            let scalar = Unicode.Scalar(value) ?? " "
            let font = chain.fontIndex(for: scalar, current: current)
            current = font
            let level = i < levels.count ? levels[i] : 0
            if let last = runs.last, last.font == font, last.level == level {
                runs[runs.count - 1].end = i + 1
            } else {
                runs.append(Run(start: i, end: i + 1, font: font, level: level, glyphs: []))
            }
        }
        var advances = [Double](repeating: 0, count: scalars.count)
        var missing = 0
        let hbLanguage = language.isEmpty ? nil : hb_language_from_string(language, -1)
        scalars.withUnsafeBufferPointer { chars in
            for r in runs.indices {
                let font = chain.fonts[runs[r].font]
                font.setSize(size64)
                guard let buffer = hb_buffer_create() else { continue }
                defer { hb_buffer_destroy(buffer) }
                // The whole paragraph as context, so Arabic letters join across font runs.
                hb_buffer_add_utf32(buffer, chars.baseAddress, Int32(chars.count), UInt32(runs[r].start), Int32(runs[r].end - runs[r].start))
                hb_buffer_set_direction(buffer, runs[r].level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
                if let hbLanguage { hb_buffer_set_language(buffer, hbLanguage) }
                hb_buffer_guess_segment_properties(buffer)
                hb_shape(font.shaper, buffer, nil, 0)
                var count: UInt32 = 0
                guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                      let positions = hb_buffer_get_glyph_positions(buffer, &count) else { continue }
                var glyphs: [ShapedGlyph] = []
                glyphs.reserveCapacity(Int(count))
                for g in 0..<Int(count) {
                    let cluster = min(max(Int(infos[g].cluster), 0), scalars.count - 1)
                    let advance = Double(positions[g].x_advance) / 64
                    if infos[g].codepoint == 0 && !Typesetter.isSpace(scalars[cluster]) { missing += 1 }
                    glyphs.append(ShapedGlyph(glyph: infos[g].codepoint, cluster: cluster, advance: advance,
                                              xOffset: Double(positions[g].x_offset) / 64, yOffset: Double(positions[g].y_offset) / 64))
                    advances[cluster] += advance
                }
                runs[r].glyphs = glyphs
            }
        }
        var hyphens: [Int: (glyph: UInt32, advance: Double)] = [:]
        for run in runs where hyphens[run.font] == nil {
            if let h = chain.fonts[run.font].glyphAlone("-", size64: size64) { hyphens[run.font] = h }
        }
        return Paragraph(scalars: scalars, runs: runs, advances: advances, rightToLeft: rtl, missing: missing, hyphens: hyphens)
    }

    // MARK: Lines

    static func isSpace(_ c: UInt32) -> Bool { c == 0x20 || c == 0x3000 || c == 0x09 }
    private static func isCJK(_ c: UInt32) -> Bool {
        (0x3040...0x30FF).contains(c) || (0x3400...0x9FFF).contains(c) || (0xF900...0xFAFF).contains(c) || (0xFF01...0xFF60).contains(c)
            || (0x3001...0x303F).contains(c)
    }
    /// Japanese punctuation a line may not start with, and brackets it may not end with.
    private static func noBreakBefore(_ c: UInt32) -> Bool {
        [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0x300D, 0x300F, 0xFF09, 0xFF01, 0xFF1F, 0x30FC, 0x30FB, 0xFF1A, 0xFF1B,
         0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x30C3, 0x30E3, 0x30E5, 0x30E7].contains(c)
    }
    private static func noBreakAfter(_ c: UInt32) -> Bool { [0x300C, 0x300E, 0xFF08].contains(c) }

    /// Combining marks (accents, Arabic and Hebrew vowel signs), joiners and variation
    /// selectors: they belong to the letter before them, so no line ends before one.
    static func belongsToPrevious(_ c: UInt32) -> Bool {
        (0x0300...0x036F).contains(c) || (0x0483...0x0489).contains(c) || (0x0591...0x05C7).contains(c)
            || (0x0610...0x061A).contains(c) || (0x064B...0x065F).contains(c) || c == 0x0670 || (0x06D6...0x06ED).contains(c)
            || (0x1AB0...0x1AFF).contains(c) || (0x1DC0...0x1DFF).contains(c) || (0x200C...0x200D).contains(c)
            || (0x20D0...0x20FF).contains(c) || (0xFE00...0xFE0F).contains(c) || (0xFE20...0xFE2F).contains(c)
            || (0xE0100...0xE01EF).contains(c) || (0x3099...0x309A).contains(c)
    }

    /// Letters and digits of the scripts that mark a word broken at a line end with a hyphen
    /// (Latin, Greek, Cyrillic; not Arabic, Hebrew or CJK).
    private static func takesHyphen(_ c: UInt32) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
            || ((0xC0...0x24F).contains(c) && c != 0xD7 && c != 0xF7) || (0x370...0x52F).contains(c) || (0x1E00...0x1FFF).contains(c)
    }

    /// May a line break between characters `i - 1` and `i`?
    private static func canBreak(before i: Int, in s: [UInt32]) -> Bool {
        guard i > 0 && i < s.count else { return false }
        let a = s[i - 1], b = s[i]
        if isSpace(b) { return false }
        if isSpace(a) { return true }
        if a == 0x2D || a == 0x2F { return true }  // after a hyphen or slash
        if (isCJK(a) || isCJK(b)) && !noBreakBefore(b) && !noBreakAfter(a) { return true }
        return false
    }

    /// Greedy lines of `paragraph` within `width`: ranges of characters, trailing spaces
    /// excluded; `overflow` when a piece with no break in it is wider than `width` (it is then
    /// broken inside, hyphenated where its script takes a hyphen).
    private func breakLines(_ p: Paragraph, width: Double) -> (lines: [Line], overflow: Bool) {
        let s = p.scalars
        var lines: [Line] = []
        var overflow = false
        var start = 0
        while start < s.count && Typesetter.isSpace(s[start]) { start += 1 }
        while start < s.count {
            var lineEnd = start      // end of the last piece that fitted (trailing spaces out)
            var pen = 0.0, i = start, fitted = false, hyphen = false
            while i < s.count {
                // The next piece: to the next break opportunity.
                var j = i + 1
                while j < s.count && !Typesetter.canBreak(before: j, in: s) { j += 1 }
                var inkEnd = j
                while inkEnd > i && Typesetter.isSpace(s[inkEnd - 1]) { inkEnd -= 1 }
                var pieceInk = 0.0, pieceAll = 0.0
                for k in i..<j { pieceAll += p.advances[k]; if k < inkEnd { pieceInk += p.advances[k] } }
                if pen + pieceInk > width + 0.01 && fitted { break }
                if pen + pieceInk > width + 0.01 {
                    // Alone on the line and still too wide: break inside it, after as many
                    // letters (with their marks) as fit beside the hyphen, at least one.
                    overflow = true
                    var k = i, w = 0.0, letter: UInt32 = 0
                    var end = inkEnd, endHyphen = false, chosen = false
                    while k < inkEnd {
                        if !Typesetter.belongsToPrevious(s[k]) { letter = s[k] }
                        w += p.advances[k]
                        k += 1
                        if k < inkEnd && Typesetter.belongsToPrevious(s[k]) { continue }
                        var hyphenWidth: Double? = nil
                        if k < inkEnd && Typesetter.takesHyphen(s[k]) && Typesetter.takesHyphen(letter) {
                            hyphenWidth = p.run(at: k - 1).flatMap { p.hyphens[$0.font]?.advance }
                        }
                        if chosen && w + (hyphenWidth ?? 0) > width + 0.01 { break }
                        end = k; endHyphen = hyphenWidth != nil; chosen = true
                    }
                    lineEnd = end; i = end; fitted = true; hyphen = endHyphen
                    break
                }
                pen += pieceAll
                lineEnd = inkEnd
                i = j
                fitted = true
            }
            lines.append(Line(range: start..<max(lineEnd, start + 1), hyphen: hyphen))
            start = max(i, start + 1)
            while start < s.count && Typesetter.isSpace(s[start]) { start += 1 }
        }
        return (lines, overflow)
    }

    // MARK: Blocks

    private func makeBlock(_ text: String, _ style: TextStyle) -> TextBlock {
        let chain = self.chain(bold: style.bold)
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars.map { $0.value }) }
        let minimum = max(1, min(style.size, style.minimumSize))
        var size = max(1, style.size)
        while true {
            let size64 = Font.size64(size)
            let px = Double(size64) / 64
            let shaped = paragraphs.map { shape($0, size64: size64, chain: chain, language: style.language) }
            var lines: [(Paragraph, Line)] = []
            var overflow = false
            for p in shaped {
                if p.scalars.isEmpty { lines.append((p, Line(range: 0..<0, hyphen: false))); continue }
                let (broken, over) = breakLines(p, width: style.maxWidth)
                overflow = overflow || over
                for line in broken { lines.append((p, line)) }
            }
            let height = Double(lines.count) * px * Typesetter.lineSpacing
            let fits = !overflow && height <= style.maxHeight + 0.01
            let smaller = (size * 0.92 * 4).rounded(.down) / 4
            if fits || size <= minimum {
                return place(text, style, chain: chain, size: px, lines: lines, fits: fits, height: height,
                             missing: shaped.reduce(0) { $0 + $1.missing })
            }
            size = max(minimum, smaller)
        }
    }

    private func place(_ text: String, _ style: TextStyle, chain: FontChain, size: Double, lines: [(Paragraph, Line)],
                       fits: Bool, height: Double, missing: Int) -> TextBlock {
        let size64 = Int((size * 64).rounded())
        var placed: [PlacedGlyph] = []
        var widths: [Double] = []
        var inkLow = Vec2(Double.infinity, Double.infinity), inkHigh = Vec2(-Double.infinity, -Double.infinity)
        let paragraphRTL = lines.first?.0.rightToLeft ?? false
        for (index, (p, line)) in lines.enumerated() {
            let range = line.range
            // This line's pieces of each run, in visual order.
            var pieces: [(level: UInt8, font: Int, glyphs: ArraySlice<ShapedGlyph>)] = []
            for run in p.runs where run.end > range.lowerBound && run.start < range.upperBound {
                let inLine = run.glyphs.filter { range.contains($0.cluster) }
                pieces.append((run.level, run.font, inLine[...]))
            }
            // A word broken here ends in its font's hyphen, at the line's logical end.
            if line.hyphen, let last = p.run(at: range.upperBound - 1), let h = p.hyphens[last.font] {
                pieces.append((last.level, last.font, [ShapedGlyph(glyph: h.glyph, cluster: range.upperBound - 1, advance: h.advance,
                                                                   xOffset: 0, yOffset: 0)][...]))
            }
            let order = Bidi.visualOrder(levels: pieces.map { $0.level })
            let lineWidth = pieces.reduce(0.0) { w, piece in piece.glyphs.reduce(w) { $0 + $1.advance } }
            widths.append(lineWidth)
            let boxWidth = style.maxWidth.isFinite ? style.maxWidth : lineWidth
            let start: Double
            switch (style.alignment, p.rightToLeft) {
            case (.center, _): start = (boxWidth - lineWidth) / 2
            case (.leading, false), (.trailing, true): start = 0
            case (.leading, true), (.trailing, false): start = boxWidth - lineWidth
            }
            let baseline = (Typesetter.ascent + Double(index) * Typesetter.lineSpacing) * size
            var pen = start
            for k in order {
                let font = chain.fonts[pieces[k].font]
                for g in pieces[k].glyphs {
                    let x = pen + g.xOffset, y = baseline - g.yOffset
                    placed.append(PlacedGlyph(font: pieces[k].font, glyph: g.glyph, x: x, baseline: y))
                    let bitmap = font.glyph(id: g.glyph, size64: size64)
                    if bitmap.width > 0 && bitmap.height > 0 {
                        let left = x.rounded() + Double(bitmap.left), top = y.rounded() - Double(bitmap.top)
                        inkLow = Vec2(min(inkLow.x, left), min(inkLow.y, top))
                        inkHigh = Vec2(max(inkHigh.x, left + Double(bitmap.width)), max(inkHigh.y, top + Double(bitmap.height)))
                    }
                    pen += g.advance
                }
            }
        }
        let width = style.maxWidth.isFinite ? style.maxWidth : (widths.max() ?? 0)
        let id = nextID
        nextID &+= 1
        return TextBlock(id: id, text: text, style: style, size: size, lineCount: lines.count, width: width, height: height,
                         fits: fits, rightToLeft: paragraphRTL, missingGlyphs: missing,
                         inkBounds: inkLow.x <= inkHigh.x ? Rect(x: inkLow.x, y: inkLow.y, width: inkHigh.x - inkLow.x, height: inkHigh.y - inkLow.y)
                                                  : Rect(x: 0, y: 0, width: 0, height: 0), glyphs: placed)
    }
}
