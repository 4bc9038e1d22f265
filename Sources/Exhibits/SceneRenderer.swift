import Geometry
import Raster

/// Turns each frame's display list into pixels, redrawing only what changed: it compares the
/// list with the previous frame's, item by item, and repaints the rectangles where they
/// differ (background, then every command crossing the rectangle, clipped to it). A resting
/// exhibit produces no damage and so no copy to the scanout at all.
///
/// Still layer: when the first commands of the list (a prefix, in z-order) have stayed the
/// same for `layerAfterFrames` frames, they are drawn once, over the background, into a RAM
/// layer. A damaged rectangle is then restored from the layer by copy and only the commands
/// after the prefix are redrawn over it. As the prefix is exactly what lies below everything
/// else, the pixels equal a full redraw (no z-order is changed); exhibits that keep their
/// still things early in the list and their movers late profit most.
public final class SceneRenderer {
    public let canvas: Canvas
    public let fonts: FontSet
    private var previous: [DrawCommand] = []
    private var previousBackground: Color? = nil
    private var damage: [PixelRect] = []
    /// Rectangles where commands the still layer holds changed this frame (kept, like `damage`,
    /// so that a frame allocates nothing).
    private var changedInLayer: [PixelRect] = []
    /// Bounds of the commands a trimmed layer lets go (kept for the same reason).
    private var trimmed: [PixelRect] = []
    /// Past this many separate rectangles one union is cheaper than many clipped passes.
    public var maxDamageRects = 16
    /// Frames the still prefix must last: its shortest length over the last this many frames
    /// is what the layer may hold.
    public var layerAfterFrames = 8
    /// The fewest still commands worth a layer: it costs a whole frame of memory (3.7 MB at
    /// 720×1280), and a few shapes are cheaply redrawn inside the damage each frame.
    public var layerMinimumCommands = 16
    /// How much the still layer grows in one frame, as a share of the screen's area covered by
    /// the commands drawn into it (at least one command a frame): a layer of 900 circles drawn
    /// at once made one frame cost 5× the others (15 M instructions on aarch64 at 480×800),
    /// a dropped frame on a Pi Zero 2 W. Grown over a few frames, each holds a longer prefix
    /// of the same still commands, so every frame's pixels stay those of a full redraw.
    public var layerGrowthShare = 1.0 / 8
    /// The still layer: background plus `layerCount` first commands, drawn unclipped.
    private var layer: Canvas? = nil
    private var layerBackground: Color? = nil
    /// How many leading commands the still layer holds (0: no layer in use).
    public private(set) var layerCount = 0
    /// Whether a layer's frame of memory is held now.
    public var holdsStillLayer: Bool { layer != nil }
    /// The unchanged prefix length of each of the last `layerAfterFrames` frames (a ring).
    private var recentPrefixes: [Int] = []
    private var recentNext = 0

    public init(canvas: Canvas, fonts: FontSet) {
        self.canvas = canvas
        self.fonts = fonts
        damage.reserveCapacity(64)
    }

    /// Forces the next frame to repaint everything (after the display was lost, say).
    public func invalidate() { previousBackground = nil; dropLayer() }

    /// Draws the frame and returns the portrait rectangles that changed.
    @discardableResult
    public func render(background: Color, commands: [DrawCommand]) -> [PixelRect] {
        damage.removeAll(keepingCapacity: true)
        // The new list lined up with the previous one, and how many leading commands did not
        // change this frame (the still prefix the layer may grow to).
        var stillPrefix = 0
        if previousBackground != background {
            damage.append(canvas.bounds)
        } else {
            let alignment = ListAlignment(from: previous, to: commands)
            stillPrefix = commands.count
            changedInLayer.removeAll(keepingCapacity: true)
            let layerEnd = alignment.newCount(ofOldPrefix: layerCount)
            // The first of the layer's commands that changed (new numbering).
            var firstChangeInLayer = layerEnd
            for j in commands.indices {
                guard let o = alignment.oldIndex(ofNew: j) else {
                    stillPrefix = min(stillPrefix, j)
                    addDamage(commands[j].bounds)
                    if j < layerEnd {
                        changedInLayer.append(commands[j].bounds.grown(by: 1))
                        firstChangeInLayer = min(firstChangeInLayer, j)
                    }
                    continue
                }
                guard previous[o] != commands[j] else { continue }
                stillPrefix = min(stillPrefix, j)
                addDamage(previous[o].bounds)
                addDamage(commands[j].bounds)
                if j < layerEnd {
                    changedInLayer.append(previous[o].bounds.union(commands[j].bounds).grown(by: 1))
                    firstChangeInLayer = min(firstChangeInLayer, j)
                }
            }
            for o in alignment.removedOldIndices(oldCount: previous.count) {
                addDamage(previous[o].bounds)
                if o < layerCount {
                    changedInLayer.append(previous[o].bounds.grown(by: 1))
                    firstChangeInLayer = min(firstChangeInLayer, alignment.start)
                }
            }
            if layerCount > 0 {
                if layerBackground != background {
                    dropLayer()
                } else if trimLayer(to: firstChangeInLayer, alignment, background: background, commands: commands) {
                    realignRecentPrefixes(alignment)
                } else if repairLayer(changedInLayer, background: background, held: commands[..<layerEnd]) {
                    layerCount = layerEnd
                    realignRecentPrefixes(alignment)
                } else {
                    dropLayer()
                }
            }
        }
        if layerCount > 0 && layerBackground != background { dropLayer() }
        let rects = coalesced()
        if !rects.isEmpty { updateLayer(firstChange: stillPrefix, background: background, commands: commands) }
        // First every damaged rectangle back to what lies below the commands still to draw
        // (the still layer, or the background), then those commands in list order. The
        // rectangles are disjoint, so each pixel still sees the commands in z-order. A command
        // wholly inside the damage is drawn once, unclipped (all its pixels were restored);
        // one reaching outside it is drawn clipped to each rectangle it crosses.
        var from = 0
        if layerCount > 0, let layer {
            for rect in rects { copy(rect, from: layer.buffer) }
            from = layerCount
        } else {
            for rect in rects {
                canvas.clip = rect
                canvas.fillRect(rect, color: background)
            }
        }
        if !rects.isEmpty {
            for command in commands[from...] {
                let b = command.bounds.intersection(canvas.bounds)
                guard !b.isEmpty, touchesDamage(b, rects) else { continue }
                if coveredByDamage(b, rects) {
                    canvas.clip = nil
                    draw(command, on: canvas)
                } else {
                    for rect in rects where b.intersects(rect) {
                        canvas.clip = rect
                        draw(command, on: canvas)
                    }
                }
            }
        }
        if tilesMarked { clearTiles() }
        canvas.clip = nil
        canvas.resetDamage()
        previous = commands
        previousBackground = background
        return rects
    }

    /// Lets the layer go, its memory too: a new one is made when a long enough prefix has
    /// stayed still again (drawing it costs far more than the allocation).
    private func dropLayer() {
        layer = nil
        layerCount = 0
        layerBackground = nil
        recentPrefixes.removeAll(keepingCapacity: true)
        recentNext = 0
    }

    /// Brings the still layer up to date where commands it holds changed (a circle deleted
    /// or knocked from a still pile): those rectangles get the background and every command
    /// the layer now holds, clipped to them. Redrawing the whole layer instead costs a frame
    /// of ~1000 circles at once, a visible hitch. Refused (false) when the changes cover so
    /// much that a fresh layer later is cheaper.
    private func repairLayer(_ changed: [PixelRect], background: Color, held: ArraySlice<DrawCommand>) -> Bool {
        guard !changed.isEmpty else { return true }
        guard let layer else { return false }
        let rects = mergedOverlapping(changed.map { $0.intersection(layer.bounds) }.filter { !$0.isEmpty })
        guard rects.reduce(0, { $0 + $1.area }) * 4 <= layer.width * layer.height else { return false }
        for rect in rects {
            layer.clip = rect
            layer.fillRect(rect, color: background)
            for command in held where command.bounds.intersects(rect) { draw(command, on: layer) }
        }
        layer.clip = nil
        layer.resetDamage()
        return true
    }

    /// Takes the layer back to its first `end` commands (new numbering) when those are the
    /// previous frame's and painting over the old bounds of the ones after them costs less than
    /// mending the changes in place: the shapes that started to move at the layer's end (the
    /// pile a visitor flings) then leave it at once, where mending would keep them in it and
    /// mend again every frame, or drop the whole layer when they cover too much. False, with
    /// nothing done, otherwise.
    private func trimLayer(to end: Int, _ alignment: ListAlignment, background: Color, commands: [DrawCommand]) -> Bool {
        guard end < layerCount, end <= alignment.start, end >= layerMinimumCommands else { return false }
        var mendedArea = 0
        for rect in changedInLayer { mendedArea += rect.area }
        var trimmedArea = 0
        trimmed.removeAll(keepingCapacity: true)
        for command in previous[end..<layerCount] {
            let b = command.bounds.grown(by: 1)
            trimmedArea += b.area
            trimmed.append(b)
        }
        guard trimmedArea <= mendedArea,
              repairLayer(trimmed, background: background, held: commands[..<end]) else { return false }
        layerCount = end
        return true
    }

    /// Past frames' still prefixes in the new list's numbering: commands removed or inserted
    /// at `alignment.start` moved the ones after them.
    private func realignRecentPrefixes(_ alignment: ListAlignment) {
        guard alignment.shift != 0 else { return }
        for k in recentPrefixes.indices where recentPrefixes[k] > alignment.start {
            let e = recentPrefixes[k]
            // Inserted commands were not there before: the prefix stops where they begin.
            recentPrefixes[k] = alignment.shift > 0 ? alignment.start : max(alignment.start, e + alignment.shift)
        }
    }

    /// Notes how many leading commands stayed the same this frame; once the last
    /// `layerAfterFrames` frames all kept more than the layer holds, caches the shortest of
    /// them, `layerGrowthShare` of the screen a frame (extending the layer in place: the new
    /// commands lie above the ones already there).
    private func updateLayer(firstChange: Int, background: Color, commands: [DrawCommand]) {
        let window = max(layerAfterFrames, 1)
        if recentPrefixes.count < window {
            recentPrefixes.append(firstChange)
        } else {
            recentPrefixes[recentNext % window] = firstChange
        }
        recentNext = (recentNext + 1) % window
        guard recentPrefixes.count >= window else { return }
        let count = min(recentPrefixes.min()!, commands.count)
        guard count > layerCount, count >= layerMinimumCommands else { return }
        let target: Canvas
        if let layer, layer.width == canvas.width, layer.height == canvas.height, layer.buffer.format == canvas.buffer.format {
            target = layer
        } else {
            target = Canvas(buffer: PixelBuffer(width: canvas.width, height: canvas.height, format: canvas.buffer.format))
            layer = target
            layerCount = 0
        }
        target.clip = nil
        if layerCount == 0 { target.fillRect(target.bounds, color: background) }
        // This frame's share: commands in list order until their area reaches the share.
        let budget = Double(target.width * target.height) * layerGrowthShare
        var covered = 0.0
        var end = layerCount
        while end < count, end == layerCount || covered < budget {
            let b = commands[end].bounds.intersection(target.bounds)
            if !b.isEmpty { draw(commands[end], on: target) }
            covered += Double(b.area)
            end += 1
        }
        target.resetDamage()
        layerCount = end
        layerBackground = background
    }

    /// Copies `rect` of the still layer into the canvas, row by row.
    private func copy(_ rect: PixelRect, from source: PixelBuffer) {
        let r = rect.intersection(canvas.bounds)
        guard !r.isEmpty else { return }
        let target = canvas.buffer
        let bpp = target.format.bytesPerPixel
        for y in r.y..<r.maxY {
            (target.bytes + y * target.strideBytes + r.x * bpp)
                .copyMemory(from: source.bytes + y * source.strideBytes + r.x * bpp, byteCount: r.width * bpp)
        }
    }

    /// Whether `b` (inside the canvas) meets a damaged pixel: by the tile grid when the damage
    /// went through it, else by the few merged rectangles.
    private func touchesDamage(_ b: PixelRect, _ rects: [PixelRect]) -> Bool {
        guard tilesMarked else { return rects.contains { $0.intersects(b) } }
        let t = tileSize, columns = (canvas.width + t - 1) / t
        let dirtyTiles = self.dirtyTiles
        for ty in (b.y / t)...((b.maxY - 1) / t) {
            for tx in (b.x / t)...((b.maxX - 1) / t) where dirtyTiles[ty * columns + tx] {
                // A dirty tile's run may not reach all of the tile when the canvas ends in it,
                // but then neither does `b`: the tile's pixels in the canvas are all damaged.
                return true
            }
        }
        return false
    }

    /// Whether every pixel of `b` (inside the canvas) is damaged, so that it was restored.
    private func coveredByDamage(_ b: PixelRect, _ rects: [PixelRect]) -> Bool {
        guard tilesMarked else { return rects.contains { $0.intersection(b) == b } }
        let t = tileSize, columns = (canvas.width + t - 1) / t
        let dirtyTiles = self.dirtyTiles
        for ty in (b.y / t)...((b.maxY - 1) / t) {
            for tx in (b.x / t)...((b.maxX - 1) / t) where !dirtyTiles[ty * columns + tx] { return false }
        }
        return true
    }

    private func addDamage(_ r: PixelRect) {
        let c = r.grown(by: 1).intersection(canvas.bounds)
        if !c.isEmpty { damage.append(c) }
    }

    /// Merges overlapping rectangles, and everything into one when there are too many.
    /// Few rectangles: merged where they overlap. Many (hundreds of scattered movers): marked
    /// on a grid of tiles and repainted as runs of dirty tiles, so that a few moving shapes
    /// on a busy screen repaint where they are and not the union of everything.
    private func coalesced() -> [PixelRect] {
        chooseTileSize()
        if damage.count <= maxDamageRects {
            // Merging chains through a pile of touching shapes to its whole bounding box: when
            // that repaints (and copies) far more than the shapes' tiles, the tiles win.
            let merged = mergedOverlapping(damage)
            let mergedArea = merged.reduce(0) { $0 + $1.width * $1.height }
            let t = tileSize
            guard merged.count > 1 || damage.count > 1, mergedArea > 4 * t * t else { return merged }
            let tiled = dirtyTileRuns()
            let tiledArea = tiled.reduce(0) { $0 + $1.width * $1.height }
            if tiledArea * 4 < mergedArea * 3 { return tiled }
            clearTiles()
            return merged
        }
        return dirtyTileRuns()
    }

    private func clearTiles() {
        dirtyTiles.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        tilesMarked = false
    }

    /// The damage marked on the tile grid, as runs of dirty tiles per row (a run that repeats
    /// the row above grows down). Only the tiles under the damage's bounding box are read.
    private func dirtyTileRuns() -> [PixelRect] {
        let t = tileSize
        let columns = (canvas.width + t - 1) / t, rows = (canvas.height + t - 1) / t
        if dirtyTiles.count != columns * rows { dirtyTiles = [Bool](repeating: false, count: columns * rows) }
        tilesMarked = true
        var top = rows, bottom = -1, left = columns, right = -1
        // One access to the grid for all the marks (not an exclusivity check per tile).
        dirtyTiles.withUnsafeMutableBufferPointer { dirtyTiles in
            for r in damage {
                let ty0 = r.y / t, ty1 = (r.maxY - 1) / t, tx0 = r.x / t, tx1 = (r.maxX - 1) / t
                top = min(top, ty0); bottom = max(bottom, ty1); left = min(left, tx0); right = max(right, tx1)
                for ty in ty0...ty1 {
                    for tx in tx0...tx1 { dirtyTiles[ty * columns + tx] = true }
                }
            }
        }
        var rects: [PixelRect] = []
        guard top <= bottom else { return rects }
        let width = canvas.width, height = canvas.height
        // Runs of the row above and of this row, by start: (first tile, past the last, rect).
        var above: [(Int, Int, Int)] = [], current: [(Int, Int, Int)] = []
        dirtyTiles.withUnsafeBufferPointer { dirtyTiles in
            for ty in top...bottom {
                current.removeAll(keepingCapacity: true)
                var k = 0
                var tx = left
                while tx <= right {
                    guard dirtyTiles[ty * columns + tx] else { tx += 1; continue }
                    let start = tx
                    while tx <= right && dirtyTiles[ty * columns + tx] { tx += 1 }
                    while k < above.count && above[k].0 < start { k += 1 }
                    let y = ty * t, h = min(t, height - y)
                    if k < above.count && above[k].0 == start && above[k].1 == tx {
                        rects[above[k].2].height += h
                        current.append((start, tx, above[k].2))
                    } else {
                        let x = start * t
                        rects.append(PixelRect(x: x, y: y, width: min(tx * t, width) - x, height: h))
                        current.append((start, tx, rects.count - 1))
                    }
                }
                swap(&above, &current)
            }
        }
        return rects
    }

    /// Side of the damage tiles this frame (px), from the size of what changed: small movers
    /// dirty about their own boxes with small tiles (everything repainted is also copied to
    /// the scanout), while big shapes crossing many small tiles would be drawn clipped to
    /// many runs. circle-draw's 100 movers (radius 12) at 480×800: 4.98 M instructions a
    /// frame with 32 px tiles, 4.21 M with 8; motion-cube's 40 shapes of ~100 px: 3.13 M
    /// with 32, 3.32 M with 8.
    private var tileSize = 32

    private func chooseTileSize() {
        var sides = 0
        for r in damage { sides += min(r.width, r.height) }
        let typical = sides / max(damage.count, 1)
        tileSize = typical < 48 ? 8 : (typical < 96 ? 16 : 32)
    }
    /// Tiles repainted this frame (all false between frames), when the damage went by tiles.
    private var dirtyTiles: [Bool] = []
    private var tilesMarked = false

    private func mergedOverlapping(_ input: [PixelRect]) -> [PixelRect] {
        var rects = input
        var merged = true
        while merged {
            merged = false
            var i = 0
            while i < rects.count {
                var j = i + 1
                while j < rects.count {
                    if rects[i].intersects(rects[j]) {
                        rects[i] = rects[i].union(rects[j])
                        rects.swapAt(j, rects.count - 1)
                        rects.removeLast()
                        merged = true
                    } else {
                        j += 1
                    }
                }
                i += 1
            }
        }
        return rects
    }

    private func draw(_ command: DrawCommand, on canvas: Canvas) {
        switch command {
        case .fillPixels(let r, let color):
            canvas.fillRect(r, color: color)
        case .circle(let c, let r, let color):
            canvas.fillCircle(center: c, radius: r, color: color)
        case .ring(let c, let r, let w, let color):
            canvas.strokeCircle(center: c, radius: r, lineWidth: w, color: color)
        case .rect(let r, let t, let color):
            canvas.fillRect(r, transform: t, color: color)
        case .line(let a, let b, let w, let color):
            canvas.drawLine(from: a, to: b, width: w, color: color)
        case .polygon(let points, let color):
            canvas.fillPolygon(points, color: color)
        case .text(let block, let origin, let clip, let color):
            guard let clip else {
                canvas.draw(block, at: origin, color: color, typesetter: fonts.typesetter)
                return
            }
            // Within the box as well as within what is being repainted.
            let outer = canvas.clip
            let inside = (outer ?? canvas.bounds).intersection(clip)
            guard !inside.isEmpty else { return }
            canvas.clip = inside
            canvas.draw(block, at: origin, color: color, typesetter: fonts.typesetter)
            canvas.clip = outer
        }
    }
}

extension PixelRect {
    func intersects(_ o: PixelRect) -> Bool { !intersection(o).isEmpty }
}
