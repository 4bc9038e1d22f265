import Geometry

public extension Canvas {
    /// Draws `block` with its box's top-left at `origin`, glyphs from `typesetter`'s fonts.
    func draw(_ block: TextBlock, at origin: Vec2, color: Color, typesetter: Typesetter) {
        guard color.a > 0, origin.isFinite, abs(origin.x) < 1e6, abs(origin.y) < 1e6 else { return }
        let chain = typesetter.chain(bold: block.style.bold)
        let size64 = Font.size64(block.size)
        for g in block.glyphs where g.font < chain.fonts.count {
            let bitmap = chain.fonts[g.font].glyph(id: g.glyph, size64: size64)
            guard bitmap.width > 0 && bitmap.height > 0 else { continue }
            drawGlyph(bitmap, x: Int((origin.x + g.x).rounded()) + bitmap.left,
                      y: Int((origin.y + g.baseline).rounded()) - bitmap.top, color: color)
        }
    }

    private func drawGlyph(_ g: Glyph, x: Int, y: Int, color: Color) {
        let box = PixelRect(x: x, y: y, width: g.width, height: g.height).intersection(drawable)
        if box.isEmpty { return }
        addDamage(box)
        switch buffer.format {
        case .xrgb8888: blendGlyph(g, x: x, y: y, box: box, alpha: UInt32(color.a), painter: XRGBPainter(buffer: buffer, color: color))
        case .rgb565: blendGlyph(g, x: x, y: y, box: box, alpha: UInt32(color.a), painter: RGB565Painter(buffer: buffer, color: color))
        }
    }

    /// The glyph's coverage times the colour's alpha, blended over `box` (specialised per
    /// pixel format, as the shapes' sweeps are).
    private func blendGlyph<P: CoverageBlending>(_ g: Glyph, x: Int, y: Int, box: PixelRect, alpha: UInt32, painter p: P) {
        g.coverage.withUnsafeBufferPointer { cov in
            guard let base = cov.baseAddress else { return }
            for row in box.y..<box.maxY {
                let dst = p.row(row), src = base + (row - y) * g.width - x
                for col in box.x..<box.maxX where src[col] != 0 {
                    p.blend(dst, col, div255Rounded(UInt32(src[col]) * alpha))
                }
            }
        }
    }
}

/// A painter that blends an 8-bit alpha into one pixel (glyph bitmaps).
protocol CoverageBlending: Painter {
    func blend(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ a: UInt32)
}

extension XRGBPainter: CoverageBlending {}
extension RGB565Painter: CoverageBlending {}
