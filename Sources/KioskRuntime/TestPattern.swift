import Geometry
import Raster

/// The installer's test pattern on the portrait screen: a grid, a differently coloured
/// marker in each corner (a wrong rotation or mirror is obvious), an arrow pointing to the
/// portrait top, colour bars, and a dot under every finger. Drawn with whole pixels only,
/// so every redraw of a rectangle gives the same bytes.
public struct TestPattern {
    public let width: Int
    public let height: Int
    public var fingers: [Int: Vec2] = [:]

    static let background: UInt32 = 0x202020
    static let gridLine: UInt32 = 0x505050
    static let arrow: UInt32 = 0xFFFFFF
    static let finger: UInt32 = 0xFFD000
    static let corners: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF] // TL TR BL BR
    static let bars: [UInt32] = [0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF, 0x000000]
    static let gridSpacing = 40
    static let markerSize = 32
    static let fingerRadius = 24

    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// The pixels a finger's dot covers.
    public func dotRect(_ p: Vec2) -> PixelRect {
        let r = Self.fingerRadius
        return PixelRect(x: Int(p.x.rounded(.down)) - r, y: Int(p.y.rounded(.down)) - r, width: 2 * r + 1, height: 2 * r + 1)
    }

    /// Redraws everything inside `clip`.
    public func draw(into buffer: PixelBuffer, clip: PixelRect) {
        let clip = clip.intersection(buffer.bounds)
        if clip.isEmpty { return }
        fill(buffer, clip, Self.background, clip)
        let s = Self.gridSpacing
        for x in stride(from: 0, to: width, by: s) { fill(buffer, PixelRect(x: x, y: 0, width: 1, height: height), Self.gridLine, clip) }
        fill(buffer, PixelRect(x: width - 1, y: 0, width: 1, height: height), Self.gridLine, clip)
        for y in stride(from: 0, to: height, by: s) { fill(buffer, PixelRect(x: 0, y: y, width: width, height: 1), Self.gridLine, clip) }
        fill(buffer, PixelRect(x: 0, y: height - 1, width: width, height: 1), Self.gridLine, clip)

        let m = Self.markerSize
        fill(buffer, PixelRect(x: 0, y: 0, width: m, height: m), Self.corners[0], clip)
        fill(buffer, PixelRect(x: width - m, y: 0, width: m, height: m), Self.corners[1], clip)
        fill(buffer, PixelRect(x: 0, y: height - m, width: m, height: m), Self.corners[2], clip)
        fill(buffer, PixelRect(x: width - m, y: height - m, width: m, height: m), Self.corners[3], clip)

        // Colour bars across the lower third.
        let barTop = height * 2 / 3, barHeight = height / 8
        for (i, c) in Self.bars.enumerated() {
            let x0 = width * i / Self.bars.count, x1 = width * (i + 1) / Self.bars.count
            fill(buffer, PixelRect(x: x0, y: barTop, width: x1 - x0, height: barHeight), c, clip)
        }

        // Arrow to the portrait top: a triangle head over a shaft, centred.
        let cx = width / 2, top = height / 8, headHeight = width / 5, shaftWidth = max(4, width / 16)
        for row in 0..<headHeight {
            let half = row / 2
            fill(buffer, PixelRect(x: cx - half, y: top + row, width: 2 * half + 1, height: 1), Self.arrow, clip)
        }
        fill(buffer, PixelRect(x: cx - shaftWidth / 2, y: top + headHeight, width: shaftWidth, height: height / 2 - top - headHeight),
             Self.arrow, clip)

        for p in fingers.keys.sorted().compactMap({ fingers[$0] }) { dot(buffer, p, clip) }
    }

    private func dot(_ buffer: PixelBuffer, _ p: Vec2, _ clip: PixelRect) {
        let area = dotRect(p).intersection(clip)
        if area.isEmpty { return }
        let r = Self.fingerRadius, cx = Int(p.x.rounded(.down)), cy = Int(p.y.rounded(.down))
        for y in area.y..<area.maxY {
            let row = buffer.row32(y), dy = y - cy
            for x in area.x..<area.maxX where (x - cx) * (x - cx) + dy * dy <= r * r { row[x] = Self.finger }
        }
    }

    private func fill(_ buffer: PixelBuffer, _ rect: PixelRect, _ colour: UInt32, _ clip: PixelRect) {
        let r = rect.intersection(clip)
        if r.isEmpty { return }
        for y in r.y..<r.maxY { (buffer.row32(y) + r.x).update(repeating: colour, count: r.width) }
    }
}
