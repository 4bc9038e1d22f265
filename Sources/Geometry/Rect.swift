/// An axis-aligned rectangle in floating-point screen space.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Vec2
    public var size: Vec2

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Vec2(x, y); size = Vec2(width, height)
    }
    public init(center: Vec2, width: Double, height: Double) {
        origin = Vec2(center.x - width / 2, center.y - height / 2); size = Vec2(width, height)
    }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.x }
    public var maxY: Double { origin.y + size.y }
    public var width: Double { size.x }
    public var height: Double { size.y }
    public var center: Vec2 { Vec2(origin.x + size.x / 2, origin.y + size.y / 2) }
    public var isEmpty: Bool { !(size.x > 0 && size.y > 0) }

    public func contains(_ p: Vec2) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    public func intersects(_ o: Rect) -> Bool {
        minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY
    }
    public var description: String { "Rect(\(minX), \(minY), \(width)×\(height))" }
}

/// An integer pixel rectangle, half-open: columns x..<x+width, rows y..<y+height.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }

    /// The smallest pixel rectangle covering every pixel a shape with these bounds may touch.
    public init(covering r: Rect) {
        let x0 = Int((r.minX).rounded(.down)), y0 = Int((r.minY).rounded(.down))
        let x1 = Int((r.maxX).rounded(.up)), y1 = Int((r.maxY).rounded(.up))
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : .empty
    }
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y), x1 = max(maxX, o.maxX), y1 = max(maxY, o.maxY)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
