import Geometry
import Raster

/// Where visitor text sits in its box, top to bottom.
public enum VerticalPlacement: Sendable { case top, center }

/// The fonts the kiosk writes with (a regular and a bold fallback chain) and the typesetter
/// over them: exhibits ask it for text commands, laid out once and cached.
public final class FontSet {
    public let typesetter: Typesetter
    /// Text of the stand these fonts cannot draw (the commissioning screen shows it).
    public var coverageProblems: [FontCoverageProblem] = []

    /// Loads the chains; a fallback font that is missing goes to `missing` (its script will
    /// show boxes), a chain with no font at all is an error. With the `text` a stand can show
    /// (every string), only the fallbacks it needs are opened (`FontChain(paths:showing:)`).
    public init(regularPaths: [String] = FontChain.regularPaths, boldPaths: [String] = FontChain.boldPaths,
                showing text: [String]? = nil, missing: (FontError) -> Void = { _ in }) throws(FontError) {
        typesetter = Typesetter(regular: try FontChain(paths: regularPaths, showing: text, missing: missing),
                                bold: try FontChain(paths: boldPaths, showing: text, missing: missing))
    }

    /// One line, unwrapped, its baseline starting at `origin` (installer screens, labels).
    public func text(_ s: String, origin: Vec2, size: Double, bold: Bool = false, color: Color) -> DrawCommand {
        let block = typesetter.layout(s, TextStyle(size: size, bold: bold))
        return .text(block, origin: Vec2(origin.x, origin.y - Typesetter.ascent * block.size), clip: nil, color: color)
    }

    /// One line, unwrapped, centred on `center.x` with its baseline at `center.y`.
    public func text(_ s: String, centeredAt center: Vec2, size: Double, bold: Bool = false, color: Color) -> DrawCommand {
        let block = typesetter.layout(s, TextStyle(size: size, bold: bold))
        return .text(block, origin: Vec2(center.x - block.width / 2, center.y - Typesetter.ascent * block.size), clip: nil, color: color)
    }

    /// Visitor text in `box`: wrapped at its width, shrunk (never below `minimumSize`) until
    /// it fits, lines aligned as `alignment` says for the text's direction, the block placed
    /// `vertical`ly in the box, and drawn only inside it (text that cannot fit is cut there).
    public func text(_ s: String, in box: Rect, size: Double, minimumSize: Double, bold: Bool = false,
                     alignment: TextAlignment = .leading, vertical: VerticalPlacement = .top, language: String = "",
                     color: Color) -> DrawCommand {
        let laidOut = block(s, in: box, size: size, minimumSize: minimumSize, bold: bold, alignment: alignment, language: language)
        return .text(laidOut, origin: origin(of: laidOut, in: box, vertical: vertical), clip: PixelRect(centresIn: box), color: color)
    }

    /// The laid-out block `text(_:in:…)` draws (for measuring before placing).
    public func block(_ s: String, in box: Rect, size: Double, minimumSize: Double, bold: Bool = false,
                      alignment: TextAlignment = .leading, language: String = "") -> TextBlock {
        typesetter.layout(s, TextStyle(size: max(size, minimumSize), bold: bold, maxWidth: max(1, box.width),
                                       maxHeight: max(1, box.height), minimumSize: minimumSize, alignment: alignment,
                                       language: language))
    }

    /// Where a block's box goes in `box`.
    public func origin(of block: TextBlock, in box: Rect, vertical: VerticalPlacement) -> Vec2 {
        switch vertical {
        case .top: return Vec2(box.minX, box.minY)
        // A block taller than its box starts at its top: its first lines are the ones seen.
        case .center: return Vec2(box.minX, (box.minY + max(0, box.height - block.height) / 2).rounded())
        }
    }
}
