import Geometry

/// Outstanding damage of each scanout buffer. A frame's damage is owed to every buffer;
/// the buffer about to be shown gets everything it missed since it was last filled, so a
/// buffer that sat out two frames catches up on both. Rectangles are portrait pixels.
public struct BufferDamage: Sendable {
    public let bounds: PixelRect
    public private(set) var outstanding: [[PixelRect]]
    /// Beyond this many rectangles per buffer, they are merged into their bounding box.
    public let mergeBeyond: Int

    /// Every buffer starts owing the whole screen: fresh dumb buffers hold nothing.
    public init(bufferCount: Int, bounds: PixelRect, mergeBeyond: Int = 16) {
        precondition(bufferCount > 0)
        self.bounds = bounds
        self.mergeBeyond = mergeBeyond
        outstanding = Array(repeating: [bounds], count: bufferCount)
    }

    /// Owes `damage` to every buffer.
    public mutating func record(_ damage: [PixelRect]) {
        for r in damage {
            let clipped = r.intersection(bounds)
            if clipped.isEmpty { continue }
            for i in outstanding.indices { add(clipped, to: i) }
        }
    }

    /// What buffer `index` must receive now; afterwards it owes nothing.
    public mutating func take(for index: Int) -> [PixelRect] {
        defer { outstanding[index] = [] }
        return outstanding[index]
    }

    /// Everything is owed again (after a modeset or a lost buffer).
    public mutating func invalidateAll() {
        for i in outstanding.indices { outstanding[i] = [bounds] }
    }

    private mutating func add(_ r: PixelRect, to i: Int) {
        var list = outstanding[i]
        if list.contains(where: { $0.intersection(r) == r }) { return }
        list.removeAll { r.intersection($0) == $0 }
        list.append(r)
        if list.count > mergeBeyond {
            list = [list.dropFirst().reduce(list[0]) { $0.union($1) }]
        }
        outstanding[i] = list
    }
}
