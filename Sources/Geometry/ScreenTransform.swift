/// How the portrait picture sits on the panel: the picture is turned clockwise by this many
/// degrees to land on the panel's native scanout. A landscape panel showing portrait uses
/// 90 or 270; the DRM display and the touch mapping both derive from one `ScreenTransform`,
/// so touches always line up with the picture.
public enum PanelRotation: Int, CaseIterable, Sendable, CustomStringConvertible {
    case r0 = 0, r90 = 90, r180 = 180, r270 = 270

    public var isQuarterTurn: Bool { self == .r90 || self == .r270 }
    public var description: String { "\(rawValue)" }
    /// The rotation that undoes this one.
    public var inverse: PanelRotation { PanelRotation(rawValue: (360 - rawValue) % 360)! }
}

/// Maps between the portrait screen (what exhibits and gestures see) and the panel's native
/// pixel grid (what DRM scans out and what a direct touchscreen reports).
public struct ScreenTransform: Hashable, Sendable {
    public var portraitWidth: Int
    public var portraitHeight: Int
    public var rotation: PanelRotation

    public init(portraitWidth: Int, portraitHeight: Int, rotation: PanelRotation) {
        self.portraitWidth = portraitWidth; self.portraitHeight = portraitHeight; self.rotation = rotation
    }
    /// The transform for a panel of native size `panelWidth`×`panelHeight` turned by `rotation`.
    public init(panelWidth: Int, panelHeight: Int, rotation: PanelRotation) {
        if rotation.isQuarterTurn {
            self.init(portraitWidth: panelHeight, portraitHeight: panelWidth, rotation: rotation)
        } else {
            self.init(portraitWidth: panelWidth, portraitHeight: panelHeight, rotation: rotation)
        }
    }

    public var panelWidth: Int { rotation.isQuarterTurn ? portraitHeight : portraitWidth }
    public var panelHeight: Int { rotation.isQuarterTurn ? portraitWidth : portraitHeight }

    /// Continuous coordinates (pixel edges at integers): portrait → panel.
    public func panelPoint(fromPortrait p: Vec2) -> Vec2 {
        let w = Double(portraitWidth), h = Double(portraitHeight)
        switch rotation {
        case .r0: return p
        case .r90: return Vec2(h - p.y, p.x)
        case .r180: return Vec2(w - p.x, h - p.y)
        case .r270: return Vec2(p.y, w - p.x)
        }
    }
    /// Continuous coordinates: panel → portrait (touch positions from a direct touchscreen).
    public func portraitPoint(fromPanel q: Vec2) -> Vec2 {
        let w = Double(portraitWidth), h = Double(portraitHeight)
        switch rotation {
        case .r0: return q
        case .r90: return Vec2(q.y, h - q.x)
        case .r180: return Vec2(w - q.x, h - q.y)
        case .r270: return Vec2(w - q.y, q.x)
        }
    }
    /// Pixel indices: the panel pixel that shows portrait pixel (x, y).
    @inlinable public func panelPixel(fromPortraitX x: Int, y: Int) -> (x: Int, y: Int) {
        switch rotation {
        case .r0: return (x, y)
        case .r90: return (portraitHeight - 1 - y, x)
        case .r180: return (portraitWidth - 1 - x, portraitHeight - 1 - y)
        case .r270: return (y, portraitWidth - 1 - x)
        }
    }
    /// The panel rectangle covering a portrait pixel rectangle.
    public func panelRect(fromPortrait r: PixelRect) -> PixelRect {
        if r.isEmpty { return .empty }
        let a = panelPixel(fromPortraitX: r.x, y: r.y)
        let b = panelPixel(fromPortraitX: r.maxX - 1, y: r.maxY - 1)
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        return PixelRect(x: x0, y: y0, width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }
}
