import Geometry
import Gestures
import Raster

/// The first screen: one big tile per exhibit with its title and a one-line instruction.
/// A tap on a tile opens that exhibit.
final class Launcher {
    private let width: Int, height: Int
    private let fonts: FontSet
    private let exhibits: [ExhibitInfo]
    let tiles: [Rect]

    init(width: Int, height: Int, fonts: FontSet, exhibits: [ExhibitInfo], gestures: GestureEnvironment,
         open: @escaping (String) -> Void) {
        self.width = width; self.height = height; self.fonts = fonts; self.exhibits = exhibits
        let scale = Double(width) / 480
        let margin = (16 * scale).rounded()
        let header = (88 * scale).rounded()
        let count = max(1, exhibits.count)
        let gap = (12 * scale).rounded()
        let tileHeight = ((Double(height) - header - margin - gap * Double(count - 1)) / Double(count)).rounded(.down)
        tiles = (0..<exhibits.count).map { i in
            Rect(x: margin, y: header + Double(i) * (tileHeight + gap), width: Double(width) - 2 * margin, height: tileHeight)
        }
        for (i, info) in exhibits.enumerated() {
            gestures.add(TapGestureRecognizer(region: tiles[i], name: "open \(info.name)") { tap in
                if tap.state == .ended { open(info.name) }
            })
        }
    }

    func draw(into list: inout [DrawCommand]) -> Color {
        let scale = Double(width) / 480
        let background = Color(r: 246, g: 246, b: 250)
        list.append(fonts.text("MotionKiosk", centeredAt: Vec2(Double(width) / 2, 52 * scale), size: 34 * scale,
                               bold: true, color: Color(r: 28, g: 28, b: 36)))
        for (i, info) in exhibits.enumerated() {
            let t = tiles[i]
            list.append(.rect(t, transform: .identity, color: info.tileColor))
            let titleSize = min(30 * scale, t.height * 0.3)
            list.append(fonts.text(info.title, origin: Vec2(t.minX + 20 * scale, t.minY + t.height * 0.45),
                                   size: titleSize, bold: true, color: .white))
            list.append(fonts.text(info.instruction, origin: Vec2(t.minX + 20 * scale, t.minY + t.height * 0.45 + titleSize * 1.1),
                                   size: min(18 * scale, t.height * 0.18), color: Color(r: 240, g: 240, b: 245)))
        }
        return background
    }

    func state() -> ExhibitState {
        ExhibitState(background: Color(r: 246, g: 246, b: 250),
                     controls: exhibits.enumerated().map { ControlState(id: "exhibit.\($1.name)", frame: tiles[$0]) })
    }
}
