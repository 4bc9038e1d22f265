import Testing
import Geometry
import Raster
@testable import Exhibits

@Suite struct SceneRendererTests {
    let fonts = try! FontSet()

    /// A renderer under test and one that redraws from scratch to compare it with, at w×h.
    func renderers(_ w: Int, _ h: Int, layerAfterFrames: Int? = nil) -> (incremental: SceneRenderer, full: SceneRenderer) {
        let incremental = SceneRenderer(canvas: Canvas(width: w, height: h), fonts: fonts)
        if let layerAfterFrames { incremental.layerAfterFrames = layerAfterFrames }
        return (incremental, SceneRenderer(canvas: Canvas(width: w, height: h), fonts: fonts))
    }

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
            #expect(pixelsDiffering(full, incremental) == 0, "frame \(frame)")
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
        let (incremental, full) = renderers(w, h)
        var list = randomCircles(1000, width: w, height: h, radius: 4, spread: 10, seed: 3)
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
            #expect(pixelsDiffering(full, incremental) == 0, "frame \(frame)")
        }
    }

    /// A diagonal chain of touching shapes, each nudged: merging overlaps would grow to the
    /// chain's bounding box (most of the screen); the tiles along the chain are repainted
    /// instead, and the picture still equals a full redraw.
    @Test func aChainOfMoversRepaintsItsTilesNotItsBoundingBox() {
        let w = 480, h = 800
        let (incremental, full) = renderers(w, h)
        var list: [DrawCommand] = (0..<8).map { k in
            .circle(center: Vec2(40 + Double(k) * 56, 60 + Double(k) * 96), radius: 50, color: Color(rgb: UInt32(0x204060 + k * 0x10)))
        }
        incremental.render(background: .white, commands: list)
        for i in list.indices {
            if case .circle(let c, let r, let color) = list[i] { list[i] = .circle(center: c + Vec2(1, 2), radius: r, color: color) }
        }
        let damage = incremental.render(background: .white, commands: list)
        let area = damage.reduce(0) { $0 + $1.width * $1.height }
        #expect(area < w * h / 2, "repainted \(area) of \(w * h) px in \(damage.count) rectangles")
        full.render(background: .white, commands: list)
        #expect(pixelsDiffering(full, incremental) == 0)
    }

    /// Still circles first, movers last, a bar of text on top: once the still prefix has lasted
    /// the window it is cached, damaged tiles come from the layer, and every frame still equals
    /// a full redraw; a still circle that changes, or is deleted, is mended in the layer,
    /// which stays.
    @Test func stillLayerFramesEqualAFullRedraw() {
        let w = 240, h = 320
        let (incremental, full) = renderers(w, h, layerAfterFrames: 3)
        var list = randomCircles(300, width: w, height: h, radius: 3, spread: 8, seed: 11)
        var stillCount = list.count
        for k in 0..<20 {
            list.append(.circle(center: Vec2(Double(k * 12), Double(k * 15)), radius: 9, color: Color(rgb: 0x3366CC)))
        }
        list.append(.fillPixels(PixelRect(x: 0, y: h - 40, width: w, height: 40), Color(r: 28, g: 28, b: 30)))
        list.append(fonts.text("Move", origin: Vec2(90, Double(h - 12)), size: 20, color: .white))
        var layered = 0
        for frame in 0..<24 {
            // A still circle changes once, another is deleted: the layer is mended, not dropped.
            if frame == 12, case .circle(let c, let r, _) = list[150] { list[150] = .circle(center: c, radius: r, color: .red) }
            if frame == 16 { list.remove(at: 40); stillCount -= 1 }
            for i in stillCount..<(stillCount + 20) {
                if case .circle(let c, let r, let color) = list[i] {
                    list[i] = .circle(center: c + Vec2(2.3, frame % 2 == 0 ? 1.7 : -0.9), radius: r, color: color)
                }
            }
            let held = incremental.layerCount
            incremental.render(background: .white, commands: list)
            if frame == 12 { #expect(held > 150 && incremental.layerCount == held) }
            if frame == 16 { #expect(held > 40 && incremental.layerCount == held - 1) }
            if incremental.layerCount > 0 {
                layered += 1
                #expect(incremental.layerCount <= stillCount, "frame \(frame): only still circles are cached")
            }
            full.invalidate()
            full.render(background: .white, commands: list)
            #expect(pixelsDiffering(full, incremental) == 0, "frame \(frame)")
        }
        #expect(layered >= 15)
        #expect(incremental.layerCount == stillCount)
    }

    /// A still layer of many circles is not drawn in one frame (a hitch, a dropped frame on
    /// a Pi Zero 2 W): it grows by about `layerGrowthShare` of the screen a frame, each frame's
    /// pixels those of a full redraw, until it holds every still circle.
    @Test func aLargeStillLayerGrowsOverSeveralFrames() {
        let w = 240, h = 400
        let (incremental, full) = renderers(w, h, layerAfterFrames: 3)
        var list = randomCircles(900, width: w, height: h, radius: 3, spread: 4, seed: 3)
        let stillCount = list.count
        let stillArea = list.reduce(0) { $0 + $1.bounds.intersection(PixelRect(x: 0, y: 0, width: w, height: h)).area }
        for k in 0..<10 { list.append(.circle(center: Vec2(Double(20 + k * 20), 200), radius: 8, color: .blue)) }
        var growthFrames = 0
        for frame in 0..<30 {
            for i in stillCount..<list.count {
                if case .circle(let c, let r, let color) = list[i] { list[i] = .circle(center: c + Vec2(0, frame % 2 == 0 ? 3 : -3), radius: r, color: color) }
            }
            let before = incremental.layerCount
            incremental.render(background: .white, commands: list)
            let added = incremental.layerCount - before
            if added > 0 {
                growthFrames += 1
                // The share of the screen, overshot by at most the last circle drawn.
                let area = list[before..<incremental.layerCount].reduce(0) { $0 + $1.bounds.intersection(PixelRect(x: 0, y: 0, width: w, height: h)).area }
                #expect(Double(area) <= Double(w * h) * incremental.layerGrowthShare + 19 * 19, "frame \(frame)")
            }
            full.invalidate()
            full.render(background: .white, commands: list)
            #expect(pixelsDiffering(full, incremental) == 0, "frame \(frame)")
        }
        #expect(incremental.layerCount == stillCount)
        #expect(Double(stillArea) > Double(w * h) * incremental.layerGrowthShare * 3)
        #expect(growthFrames >= 3, "grown over \(growthFrames) frames")
    }

    /// Circles at the layer's end that start to move (a pile flung) leave the layer in that
    /// very frame, painted out of it once, instead of being mended in it every frame or
    /// dropping the whole layer; the pixels stay a full redraw's.
    @Test func moversAtTheLayersEndLeaveItAtOnce() {
        let w = 240, h = 320
        let (incremental, full) = renderers(w, h, layerAfterFrames: 3)
        var list = randomCircles(300, width: w, height: h, radius: 3, spread: 6, seed: 17)
        let stillCount = list.count
        for k in 0..<12 { list.append(.circle(center: Vec2(Double(30 + k % 4 * 60), Double(50 + k / 4 * 100)), radius: 8, color: .blue)) }
        let moverCount = list.count
        for frame in 0..<24 {
            // A blinking mark last of all keeps frames coming while the circles rest; from
            // frame 16 on, the last 12 circles move.
            let mark = DrawCommand.fillPixels(PixelRect(x: 0, y: 0, width: 8, height: 8), frame % 2 == 0 ? .red : .green)
            if list.count > moverCount { list[moverCount] = mark } else { list.append(mark) }
            if frame >= 16 {
                for i in stillCount..<moverCount {
                    if case .circle(let c, let r, let color) = list[i] { list[i] = .circle(center: c + Vec2(1.5, 0.75), radius: r, color: color) }
                }
            }
            let held = incremental.layerCount
            incremental.render(background: .white, commands: list)
            if frame == 15 { #expect(incremental.layerCount == moverCount, "every resting circle is in the layer") }
            if frame == 16 { #expect(held == moverCount && incremental.layerCount == stillCount) }
            if frame > 16 { #expect(incremental.layerCount == stillCount && incremental.holdsStillLayer, "frame \(frame)") }
            full.invalidate()
            full.render(background: .white, commands: list)
            #expect(pixelsDiffering(full, incremental) == 0, "frame \(frame)")
        }
    }

    /// Deleting one of many circles repaints where it was, not every circle after it (each
    /// moved up one place in the list), and inserting one repaints where it goes.
    @Test func aDeletionRepaintsOnlyWhatWasDeleted() {
        let w = 240, h = 320
        let renderer = SceneRenderer(canvas: Canvas(width: w, height: h), fonts: fonts)
        let full = SceneRenderer(canvas: Canvas(width: w, height: h), fonts: fonts)
        var list = randomCircles(200, width: w, height: h, radius: 4, spread: 6, seed: 5)
        renderer.render(background: .white, commands: list)
        let gone = list.remove(at: 20)
        var damage = renderer.render(background: .white, commands: list)
        #expect(damage.reduce(0) { $0 + $1.area } <= gone.bounds.grown(by: 1).area)
        let added = DrawCommand.circle(center: Vec2(120, 160), radius: 10, color: .red)
        list.insert(added, at: 70)
        damage = renderer.render(background: .white, commands: list)
        #expect(damage.reduce(0) { $0 + $1.area } <= added.bounds.grown(by: 1).area)
        full.render(background: .white, commands: list)
        #expect(pixelsDiffering(full, renderer) == 0)
    }

    /// A change of background drops the layer: the next frames repaint on the new colour.
    @Test func backgroundChangeDropsTheStillLayer() {
        let r = SceneRenderer(canvas: Canvas(width: 64, height: 64), fonts: fonts)
        r.layerAfterFrames = 2
        r.layerMinimumCommands = 1
        var list: [DrawCommand] = [.circle(center: Vec2(20, 20), radius: 10, color: .red),
                                   .circle(center: Vec2(40, 40), radius: 5, color: .blue)]
        for k in 0..<4 {
            list[1] = .circle(center: Vec2(40 + Double(k), 40), radius: 5, color: .blue)
            r.render(background: .white, commands: list)
        }
        #expect(r.layerCount == 1)
        list[1] = .circle(center: Vec2(30, 40), radius: 5, color: .blue)
        r.render(background: .black, commands: list)
        #expect(r.layerCount == 0 && !r.holdsStillLayer)
        #expect(r.canvas.pixel(x: 60, y: 2) == .black)
        #expect(r.canvas.pixel(x: 20, y: 20) == .red)
    }

    /// A few still shapes are redrawn in the damage instead: a layer costs a frame of memory.
    @Test func aShortStillPrefixGetsNoLayer() {
        let r = SceneRenderer(canvas: Canvas(width: 64, height: 64), fonts: fonts)
        r.layerAfterFrames = 2
        var list: [DrawCommand] = (0..<(r.layerMinimumCommands - 1)).map { k in
            .circle(center: Vec2(Double(k * 3), 10), radius: 4, color: .red)
        }
        list.append(.circle(center: Vec2(40, 40), radius: 5, color: .blue))
        for k in 0..<6 {
            list[list.count - 1] = .circle(center: Vec2(40 + Double(k), 40), radius: 5, color: .blue)
            r.render(background: .white, commands: list)
        }
        #expect(r.layerCount == 0 && !r.holdsStillLayer)
        // One more still shape and the prefix is worth it.
        list.insert(.circle(center: Vec2(50, 10), radius: 4, color: .red), at: 0)
        for k in 0..<6 {
            list[list.count - 1] = .circle(center: Vec2(30 + Double(k), 40), radius: 5, color: .blue)
            r.render(background: .white, commands: list)
        }
        #expect(r.layerCount == r.layerMinimumCommands && r.holdsStillLayer)
    }

    /// `count` circles of random colour anywhere on a `width`×`height` canvas, radius from
    /// `radius` to `radius + spread`.
    private func randomCircles(_ count: Int, width: Int, height: Int, radius: Double, spread: Double,
                               seed: UInt64) -> [DrawCommand] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            .circle(center: Vec2(random.unit() * Double(width), random.unit() * Double(height)),
                    radius: radius + random.unit() * spread, color: Color(rgb: UInt32(random.next() & 0xFFFFFF)))
        }
    }

    /// Pixels where two renderers' canvases differ.
    private func pixelsDiffering(_ a: SceneRenderer, _ b: SceneRenderer) -> Int {
        var differing = 0
        for y in 0..<a.canvas.height {
            for x in 0..<a.canvas.width where a.canvas.pixel(x: x, y: y) != b.canvas.pixel(x: x, y: y) { differing += 1 }
        }
        return differing
    }

    @Test func zeroWidthLinesHaveBounds() {
        let line = DrawCommand.line(from: Vec2(160, 0), to: Vec2(160, 800), width: 1, color: .black)
        #expect(line.bounds == PixelRect(x: 159, y: -1, width: 2, height: 802))
    }
}
