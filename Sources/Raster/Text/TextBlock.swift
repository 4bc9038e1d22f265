import Geometry

/// Where lines sit across their box. `leading` is the side a reader starts from: the left
/// for left-to-right text, the right for Arabic or Hebrew.
public enum TextAlignment: Sendable {
    case leading, center, trailing
}

/// What a piece of visitor text should look like and where it may go.
public struct TextStyle: Hashable, Sendable {
    /// Preferred size, pixels per em.
    public var size: Double
    public var bold: Bool
    /// The box: lines wrap at `maxWidth`; the text shrinks (to `minimumSize`, no further)
    /// until its lines fit `maxWidth` and `maxHeight`.
    public var maxWidth: Double
    public var maxHeight: Double
    public var minimumSize: Double
    public var alignment: TextAlignment
    /// BCP 47 language of the text ("ja" picks Japanese glyph forms); "" lets HarfBuzz guess.
    public var language: String

    public init(size: Double, bold: Bool = false, maxWidth: Double = .infinity, maxHeight: Double = .infinity,
                minimumSize: Double? = nil, alignment: TextAlignment = .leading, language: String = "") {
        self.size = size; self.bold = bold; self.maxWidth = maxWidth; self.maxHeight = maxHeight
        self.minimumSize = min(size, minimumSize ?? size); self.alignment = alignment; self.language = language
    }
}

/// One glyph placed in its block: `x` from the box's left edge, `baseline` from its top.
public struct PlacedGlyph: Sendable {
    public var font: Int
    public var glyph: UInt32
    public var x: Double
    public var baseline: Double
}

/// Shaped, wrapped and sized text, ready to draw. Made by a `Typesetter`; blocks it hands out
/// again for the same text and style are the same block (equal `id`), so a display list can
/// compare them cheaply.
public struct TextBlock: Equatable, Sendable {
    public let id: Int
    public let text: String
    public let style: TextStyle
    /// The size it was set at: `style.size`, or smaller when it had to shrink.
    public let size: Double
    public let lineCount: Int
    /// The box the lines take: `style.maxWidth` wide when that is finite, else the widest line.
    public let width: Double
    public let height: Double
    /// False when even at `style.minimumSize` a line is wider than the box or the lines are
    /// taller than it (the text is then broken inside words and may overflow).
    public let fits: Bool
    public let rightToLeft: Bool
    /// Glyphs no font of the chain has (drawn as boxes).
    public let missingGlyphs: Int
    /// Every pixel the glyphs cover, relative to the box's top-left.
    public let inkBounds: Rect
    public let glyphs: [PlacedGlyph]

    public static func == (a: TextBlock, b: TextBlock) -> Bool { a.id == b.id }
}
