import Geometry
import Raster

/// Where visitor text sits in its box, top to bottom.
public enum VerticalPlacement: Sendable { case top, center }

/// The fonts the kiosk writes with (a regular and a bold fallback chain) and the typesetter
/// over them: exhibits ask it for text commands, laid out once and cached.
public final class FontSet {
    public let typesetter: Typesetter

    /// Loads the chains; a fallback font that is missing goes to `missing` (its script will
    /// show boxes), a chain with no font at all is an error.
    public init(regularPaths: [String] = FontChain.regularPaths, boldPaths: [String] = FontChain.boldPaths,
                missing: (FontError) -> Void = { _ in }) throws(FontError) {
        typesetter = Typesetter(regular: try FontChain(paths: regularPaths, missing: missing),
                                bold: try FontChain(paths: boldPaths, missing: missing))
    }

    /// Loads the chains for a stand that shows `text` (every string it can show). When the
    /// first font of a chain draws every character of it, the fallbacks behind it are not
    /// opened: an open face holds memory (the two Noto CJK faces ~1.9 MB resident, mostly
    /// their character maps), and a stand in Latin-script languages never needs them.
    public init(regularPaths: [String] = FontChain.regularPaths, boldPaths: [String] = FontChain.boldPaths,
                showing text: [String], missing: (FontError) -> Void = { _ in }) throws(FontError) {
        func chain(_ paths: [String]) throws(FontError) -> FontChain {
            var loaded: [Font] = []
            var firstError: FontError? = nil
            var rest = paths[...]
            while loaded.isEmpty, let path = rest.popFirst() {
                do throws(FontError) { loaded.append(try Font(path: path)) } catch {
                    missing(error)
                    if firstError == nil { firstError = error }
                }
            }
            guard let first = loaded.first else {
                if let firstError { throw firstError }
                return try FontChain(paths: [])     // no path given: FontChain's own error
            }
            // Control characters (line breaks) are laid out, never drawn.
            let firstDrawsAll = text.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value < 0x20 || first.covers($0) } }
            if !firstDrawsAll {
                for path in rest {
                    do throws(FontError) { loaded.append(try Font(path: path)) } catch { missing(error) }
                }
            }
            return FontChain(fonts: loaded)
        }
        typesetter = Typesetter(regular: try chain(regularPaths), bold: try chain(boldPaths))
    }

    /// One line, unwrapped, its baseline starting at `origin` (installer screens, labels).
    public func text(_ s: String, origin: Vec2, size: Double, bold: Bool = false, color: Color) -> DrawCommand {
        let block = typesetter.layout(s, TextStyle(size: size, bold: bold))
        return .text(block, origin: Vec2(origin.x, origin.y - Typesetter.ascent * block.size), color: color)
    }

    /// One line, unwrapped, centred on `center.x` with its baseline at `center.y`.
    public func text(_ s: String, centeredAt center: Vec2, size: Double, bold: Bool = false, color: Color) -> DrawCommand {
        let block = typesetter.layout(s, TextStyle(size: size, bold: bold))
        return .text(block, origin: Vec2(center.x - block.width / 2, center.y - Typesetter.ascent * block.size), color: color)
    }

    /// Visitor text in `box`: wrapped at its width, shrunk (never below `minimumSize`) until
    /// it fits, lines aligned as `alignment` says for the text's direction, the block placed
    /// `vertical`ly in the box.
    public func text(_ s: String, in box: Rect, size: Double, minimumSize: Double, bold: Bool = false,
                     alignment: TextAlignment = .leading, vertical: VerticalPlacement = .top, language: String = "",
                     color: Color) -> DrawCommand {
        let laidOut = block(s, in: box, size: size, minimumSize: minimumSize, bold: bold, alignment: alignment, language: language)
        return .text(laidOut, origin: origin(of: laidOut, in: box, vertical: vertical), color: color)
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
        case .center: return Vec2(box.minX, (box.minY + (box.height - block.height) / 2).rounded())
        }
    }
}
