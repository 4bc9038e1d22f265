import Geometry
import Raster

/// One thing on screen, as a value: exhibits describe each frame as a list of these, and the
/// `SceneRenderer` works out what changed since the last frame and redraws only that.
public enum DrawCommand: Equatable, Sendable {
    /// Whole pixels, no anti-aliasing (backgrounds, bars, borders on the pixel grid).
    case fillPixels(PixelRect, Color)
    case circle(center: Vec2, radius: Double, color: Color)
    case ring(center: Vec2, radius: Double, lineWidth: Double, color: Color)
    /// `rect` in the item's own frame, mapped by `transform` (rotation and scale of a shape).
    case rect(Rect, transform: AffineTransform, color: Color)
    case line(from: Vec2, to: Vec2, width: Double, color: Color)
    case polygon([Vec2], color: Color)
    /// Laid-out text with its box's top-left at `origin`, drawn only inside `clip` (its box
    /// on the screen: no word too long, no stack of accents draws over a neighbour); nil for
    /// labels that have no box (they stay on the canvas).
    case text(TextBlock, origin: Vec2, clip: PixelRect?, color: Color)

    /// Every pixel the command may touch (anti-aliased edges included).
    public var bounds: PixelRect {
        switch self {
        case .fillPixels(let r, _):
            return r
        case .circle(let c, let r, _):
            return PixelRect(covering: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
        case .ring(let c, let r, let w, _):
            let o = r + w / 2
            return PixelRect(covering: Rect(x: c.x - o, y: c.y - o, width: 2 * o, height: 2 * o))
        case .rect(let r, let t, _):
            return DrawCommand.cover([t.apply(Vec2(r.minX, r.minY)), t.apply(Vec2(r.maxX, r.minY)),
                                      t.apply(Vec2(r.maxX, r.maxY)), t.apply(Vec2(r.minX, r.maxY))], padding: 0)
        case .line(let a, let b, let w, _):
            return DrawCommand.cover([a, b], padding: w / 2)
        case .polygon(let points, _):
            return DrawCommand.cover(points, padding: 0)
        case .text(let block, let origin, let clip, _):
            let ink = block.inkBounds
            guard !ink.isEmpty, origin.isFinite else { return .empty }
            let covered = PixelRect(covering: Rect(x: origin.x + ink.minX - 1, y: origin.y + ink.minY - 1,
                                                   width: ink.width + 2, height: ink.height + 2))
            return clip.map { covered.intersection($0) } ?? covered
        }
    }

    /// Pixels covering `points` grown by `padding` (before rounding out, so that a
    /// zero-width line along a pixel edge still covers the two columns it shades).
    static func cover(_ points: [Vec2], padding: Double) -> PixelRect {
        guard var lo = points.first else { return .empty }
        var hi = lo
        for p in points.dropFirst() {
            lo.x = min(lo.x, p.x); lo.y = min(lo.y, p.y)
            hi.x = max(hi.x, p.x); hi.y = max(hi.y, p.y)
        }
        guard lo.isFinite && hi.isFinite else { return .empty }
        return PixelRect(covering: Rect(x: lo.x - padding, y: lo.y - padding,
                                        width: hi.x - lo.x + 2 * padding, height: hi.y - lo.y + 2 * padding))
    }
}

extension PixelRect {
    /// The pixels whose centres lie inside `r`: a text box's clip (a box edge between pixel
    /// centres gives each pixel to the side holding its centre).
    public init(centresIn r: Rect) {
        guard r.minX.isFinite && r.minY.isFinite && r.maxX.isFinite && r.maxY.isFinite else { self = .empty; return }
        func edge(_ v: Double) -> Int { Int(max(-1e9, min(1e9, (v - 0.5).rounded(.up)))) }
        let x0 = edge(r.minX), y0 = edge(r.minY)
        self.init(x: x0, y: y0, width: max(0, edge(r.maxX) - x0), height: max(0, edge(r.maxY) - y0))
    }

    func grown(by n: Int) -> PixelRect {
        isEmpty ? self : PixelRect(x: x - n, y: y - n, width: width + 2 * n, height: height + 2 * n)
    }
}
