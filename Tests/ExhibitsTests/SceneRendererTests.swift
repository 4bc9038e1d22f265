import Testing
import Geometry
import Raster
@testable import Exhibits

@Suite struct SceneRendererTests {
    let fonts = try! FontSet()

    /// Drawing a list from scratch and reaching it through any sequence of damage-limited
    /// frames gives the same pixels.
    @Test func incrementalFramesEqualAFullRedraw() {
        let full = SceneRenderer(canvas: Canvas(width: 200, height: 160), fonts: fonts)
        let incremental = SceneRenderer(canvas: Canvas(width: 200, height: 160), fonts: fonts)
        var random = SeededGenerator(seed: 7)
        var list: [DrawCommand] = []
        for frame in 0..<40 {
            // Move, add and remove a few shapes each frame; axis-aligned lines on pixel edges too.
            if list.count < 12 || random.unit() < 0.3 {
                let c = Vec2(random.unit() * 220 - 10, random.unit() * 180 - 10)
                switch Int(random.unit() * 4) {
                case 0: list.append(.circle(center: c, radius: 3 + random.unit() * 30, color: Color(rgb: UInt32(random.next() & 0xFFFFFF))))
                case 1: list.append(.rect(Rect(x: -20, y: -10, width: 40, height: 20), transform: .rotation(random.unit() * 3).translated(c.x, c.y),
                                          color: Color(rgb: UInt32(random.next() & 0xFFFFFF))))
                case 2: list.append(.line(from: Vec2(c.x.rounded(), 0), to: Vec2(c.x.rounded(), 160), width: 1, color: .black))
                default: list.append(fonts.text("Été \(frame)", origin: c, size: 14, color: .blue))
                }
            }
            if random.unit() < 0.3 { list.remove(at: Int(random.unit() * Double(list.count))) }
            for i in list.indices where random.unit() < 0.2 {
                if case .circle(let c, let r, let color) = list[i] { list[i] = .circle(center: c + Vec2(3, 2), radius: r, color: color) }
            }
            let background = frame < 20 ? Color.white : Color(rgb: 0xEEEEEE)
            incremental.render(background: background, commands: list)
            full.invalidate()
            full.render(background: background, commands: list)
            var differing = 0
            for y in 0..<160 { for x in 0..<200 where full.canvas.pixel(x: x, y: y) != incremental.canvas.pixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "frame \(frame)")
        }
    }

    @Test func restingSceneHasNoDamage() {
        let r = SceneRenderer(canvas: Canvas(width: 100, height: 100), fonts: fonts)
        let list: [DrawCommand] = [.circle(center: Vec2(50, 50), radius: 20, color: .red)]
        #expect(r.render(background: .white, commands: list) == [PixelRect(x: 0, y: 0, width: 100, height: 100)])
        #expect(r.render(background: .white, commands: list).isEmpty)
        let moved: [DrawCommand] = [.circle(center: Vec2(52, 50), radius: 20, color: .red)]
        let damage = r.render(background: .white, commands: moved)
        #expect(damage.count == 1)
        #expect(damage[0].contains(x: 30, y: 50) && damage[0].contains(x: 72, y: 50) && !damage[0].contains(x: 5, y: 5))
    }

    /// Many small movers scattered over a busy screen: repaint where they are (tiles), not the
    /// union of everything, and still equal a full redraw.
    @Test func scatteredMoversRepaintTilesNotTheScreen() {
        let w = 480, h = 800
        let incremental = SceneRenderer(canvas: Canvas(width: w, height: h), fonts: fonts)
        let full = SceneRenderer(canvas: Canvas(width: w, height: h), fonts: fonts)
        var random = SeededGenerator(seed: 3)
        var list: [DrawCommand] = (0..<1000).map { _ in
            .circle(center: Vec2(random.unit() * 480, random.unit() * 800), radius: 4 + random.unit() * 10,
                    color: Color(rgb: UInt32(random.next() & 0xFFFFFF)))
        }
        incremental.render(background: .white, commands: list)
        for frame in 0..<5 {
            for i in stride(from: frame, to: 1000, by: 25) {   // 40 movers scattered over the screen
                if case .circle(let c, let r, let color) = list[i] { list[i] = .circle(center: c + Vec2(2, 1), radius: r, color: color) }
            }
            let damage = incremental.render(background: .white, commands: list)
            #expect(damage.count > 1)
            let area = damage.reduce(0) { $0 + $1.area }
            #expect(area < w * h / 2, "frame \(frame): \(area) px repainted")
            full.invalidate()
            full.render(background: .white, commands: list)
            var differing = 0
            for y in 0..<h { for x in 0..<w where full.canvas.pixel(x: x, y: y) != incremental.canvas.pixel(x: x, y: y) { differing += 1 } }
            #expect(differing == 0, "frame \(frame)")
        }
    }

    @Test func zeroWidthLinesHaveBounds() {
        let line = DrawCommand.line(from: Vec2(160, 0), to: Vec2(160, 800), width: 1, color: .black)
        #expect(line.bounds == PixelRect(x: 159, y: -1, width: 2, height: 802))
    }
}
