// `motionkiosk-bench raster [--runs N] [--png-dir DIR] [--scene NAME [--ours-only]]`: the scenes of facts/raster.md drawn
// by our canvas and by cairo in the same run (best of N each), a rings scene (the circles
// stroked, as circle-draw's outlines), plus a full-frame 90° rotate-copy next to a memcpy of
// the same frame. One JSON line per scene; circles and rings also give their difference from
// cairo drawing them at tolerance 0.001 px (fine_cairo_*): how far both pictures, ours and
// cairo's default one (the same polygon), lie from the true circle.
#if canImport(Glibc)
import Glibc
#endif
import CCairo
import Geometry
import Raster

private let sceneWidth = 480, sceneHeight = 800, shapesPerFrame = 1000

/// The scene's generator: xorshift32, seed 12345 (facts/raster.md).
private struct XorShift32 {
    var s: UInt32 = 12345
    mutating func next() -> UInt32 { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s }
    mutating func unit() -> Double { Double(next() >> 8) / 16_777_216 }
}

private struct Shape { var x: Double, y: Double, angle: Double, rgb: UInt32 }

/// The shapes of one frame, drawn from the scene's generator in the scene's order.
private func sceneShapes(squares: Bool) -> [Shape] {
    var rng = XorShift32()
    var out: [Shape] = []
    out.reserveCapacity(shapesPerFrame)
    for _ in 0..<shapesPerFrame {
        let x = rng.unit() * Double(sceneWidth), y = rng.unit() * Double(sceneHeight)
        let angle = squares ? rng.unit() * 2 * Double.pi : 0
        let rgb = rng.next() & 0xFF_FFFF
        out.append(Shape(x: x, y: y, angle: angle, rgb: rgb))
    }
    return out
}

/// The rings scene: the circles' centres and colours, stroked this wide (circle-draw's rings
/// are 3–4 px).
private let ringWidth = 4.0

private func drawOurs(_ canvas: Canvas, _ shapes: [Shape], squares: Bool, rings: Bool = false) {
    canvas.clear(.white)
    let square = Rect(x: -50, y: -50, width: 100, height: 100)
    for s in shapes {
        let color = Color(rgb: s.rgb)
        if squares {
            canvas.fillRect(square, transform: AffineTransform.rotation(s.angle).translated(s.x, s.y), color: color)
        } else if rings {
            canvas.strokeCircle(center: Vec2(s.x, s.y), radius: 50, lineWidth: ringWidth, color: color)
        } else {
            canvas.fillCircle(center: Vec2(s.x, s.y), radius: 50, color: color)
        }
    }
}

private func drawCairo(_ cr: OpaquePointer, _ shapes: [Shape], squares: Bool, rings: Bool = false) {
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_paint(cr)
    for s in shapes {
        cairo_set_source_rgb(cr, Double((s.rgb >> 16) & 0xFF) / 255, Double((s.rgb >> 8) & 0xFF) / 255,
                             Double(s.rgb & 0xFF) / 255)
        if squares {
            let c = _cos(s.angle), n = _sin(s.angle)
            func corner(_ u: Double, _ v: Double) -> (Double, Double) { (s.x + c * u - n * v, s.y + n * u + c * v) }
            let p0 = corner(-50, -50), p1 = corner(50, -50), p2 = corner(50, 50), p3 = corner(-50, 50)
            cairo_move_to(cr, p0.0, p0.1)
            cairo_line_to(cr, p1.0, p1.1)
            cairo_line_to(cr, p2.0, p2.1)
            cairo_line_to(cr, p3.0, p3.1)
            cairo_close_path(cr)
        } else {
            cairo_new_sub_path(cr)
            cairo_arc(cr, s.x, s.y, 50, 0, 2 * Double.pi)
        }
        if rings {
            cairo_set_line_width(cr, ringWidth)
            cairo_stroke(cr)
        } else {
            cairo_fill(cr)
        }
    }
    cairo_surface_flush(cairo_get_target(cr))
}

/// Best wall time of `runs` calls, in milliseconds.
private func bestOf(_ runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let t0 = monotonicSeconds()
        body()
        best = min(best, monotonicSeconds() - t0)
    }
    return best * 1000
}

/// Mean and max absolute difference over the R, G, B channels of two XRGB8888 frames.
private func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (mean: Double, max: Int) {
    var sum = 0, worst = 0
    for y in 0..<a.height {
        let ra = a.row32(y), rb = b.row32(y)
        for x in 0..<a.width {
            let p = ra[x], q = rb[x]
            for shift in [UInt32(0), 8, 16] {
                let d = abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))
                sum += d
                worst = max(worst, d)
            }
        }
    }
    return (Double(sum) / Double(a.width * a.height * 3), worst)
}

private func fixed(_ v: Double, _ digits: Int = 3) -> String {
    guard v.isFinite else { return "null" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    return "\(r)"
}

func runRasterBench(_ args: [String]) -> Int32 {
    var runs = 25
    var pngDir: String?
    // One scene alone, and ours alone, for profilers (instruction counts of our loops only).
    var only: String?, oursOnly = false
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--runs" where i + 1 < args.count:
            guard let n = Int(args[i + 1]), n >= 1 else {
                FileHandleStderr.write("raster: --runs wants a positive integer, got \(args[i + 1])\n"); return 2
            }
            runs = n; i += 2
        case "--png-dir" where i + 1 < args.count:
            pngDir = args[i + 1]; i += 2
        case "--scene" where i + 1 < args.count && ["circles", "squares", "rings"].contains(args[i + 1]):
            only = args[i + 1]; i += 2
        case "--ours-only":
            oursOnly = true; i += 1
        default:
            FileHandleStderr.write("usage: motionkiosk-bench raster [--runs N] [--png-dir DIR] [--scene circles|squares|rings [--ours-only]]\n")
            return 2
        }
    }

    let canvas = Canvas(width: sceneWidth, height: sceneHeight)
    let cairoBuffer = PixelBuffer(width: sceneWidth, height: sceneHeight)
    guard let surface = cairo_image_surface_create_for_data(
        cairoBuffer.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
        Int32(sceneWidth), Int32(sceneHeight), Int32(cairoBuffer.strideBytes)),
        let cr = cairo_create(surface) else {
        FileHandleStderr.write("raster: cannot create a cairo image surface\n"); return 1
    }
    defer { cairo_destroy(cr); cairo_surface_destroy(surface) }

    for (scene, squares, rings) in [("circles", false, false), ("squares", true, false), ("rings", false, true)] {
        if let only, only != scene { continue }
        let shapes = sceneShapes(squares: squares)
        if oursOnly {
            let ours = bestOf(runs) { drawOurs(canvas, shapes, squares: squares, rings: rings) }
            print("{\"bench\":\"raster\",\"scene\":\"\(scene)\",\"ours_ms\":\(fixed(ours)),\"runs\":\(runs)}")
            continue
        }
        // Interleave so that both renderers see the same machine conditions.
        var ours = Double.infinity, theirs = Double.infinity
        for _ in 0..<runs {
            ours = min(ours, bestOf(1) { drawOurs(canvas, shapes, squares: squares, rings: rings) })
            theirs = min(theirs, bestOf(1) { drawCairo(cr, shapes, squares: squares, rings: rings) })
        }
        _ = canvas.takeDamage()
        let diff = difference(canvas.buffer, cairoBuffer)
        // Cairo's own error besides: at its default tolerance (0.1 px) a circle is an inscribed
        // polygon, up to ~0.06 px inside the arc; at 0.001 px it is the circle, so the second
        // figure is how far ours is from an exact circle under cairo's 15-row sampling.
        var fine = ""
        if !squares {
            cairo_set_tolerance(cr, 0.001)
            drawCairo(cr, shapes, squares: squares, rings: rings)
            cairo_set_tolerance(cr, 0.1)
            let exact = difference(canvas.buffer, cairoBuffer)
            fine = ",\"fine_cairo_mean_abs_diff\":\(fixed(exact.mean)),\"fine_cairo_max_abs_diff\":\(exact.max)"
            drawCairo(cr, shapes, squares: squares, rings: rings) // the default picture again, for --png-dir
        }
        if let pngDir {
            do {
                try writePNG(canvas.buffer, to: "\(pngDir)/raster-\(scene)-ours.png")
                try writePNG(cairoBuffer, to: "\(pngDir)/raster-\(scene)-cairo.png")
            } catch {
                FileHandleStderr.write("raster: \(error)\n"); return 1
            }
        }
        print("{\"bench\":\"raster\",\"scene\":\"\(scene)\",\"ours_ms\":\(fixed(ours)),\"cairo_ms\":\(fixed(theirs)),"
              + "\"ratio\":\(fixed(ours / theirs)),\"mean_abs_diff\":\(fixed(diff.mean)),\"max_abs_diff\":\(diff.max)\(fine),\"runs\":\(runs)}")
    }

    if only != nil { return 0 }
    // Full-frame 90° rotate-copy into a landscape scanout vs a plain copy of the same bytes.
    let transform = ScreenTransform(portraitWidth: sceneWidth, portraitHeight: sceneHeight, rotation: .r90)
    let scanout = PixelBuffer(width: transform.panelWidth, height: transform.panelHeight)
    let frame = [canvas.bounds]
    let bytes = canvas.buffer.strideBytes * sceneHeight
    var rotate = Double.infinity, copy = Double.infinity
    for _ in 0..<max(runs, 50) {
        rotate = min(rotate, bestOf(1) {
            rotateCopy(from: canvas.buffer, rects: frame, to: scanout.bytes, pitch: scanout.strideBytes,
                       format: .xrgb8888, transform: transform)
        })
        copy = min(copy, bestOf(1) { scanout.bytes.copyMemory(from: canvas.buffer.bytes, byteCount: bytes) })
    }
    print("{\"bench\":\"raster\",\"scene\":\"rotate90_copy\",\"ours_ms\":\(fixed(rotate, 4)),\"memcpy_ms\":\(fixed(copy, 4)),"
          + "\"ratio\":\(fixed(rotate / copy, 2))}")
    return 0
}
