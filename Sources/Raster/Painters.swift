#if canImport(Glibc)
import Glibc
#endif
import Geometry

/// Writes one pixel format. A generic parameter (not an existential) so the sweep is
/// specialised per format and the stores inline. Coverage arrives in (0, 1].
protocol Painter {
    associatedtype Pixel
    /// The least coverage worth painting.
    static var visible: Float { get }
    func row(_ y: Int) -> UnsafeMutablePointer<Pixel>
    func span(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ count: Int, _ coverage: Float)
    func pixel(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage: Float)
}

// Below half a level of 8-bit alpha nothing would change; float noise stays out too.
let halfLevel: Float = 0.5 / 255

struct XRGBPainter: Painter {
    static var visible: Float { halfLevel }
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, spreadSrc: UInt64, alpha: UInt32, alphaScale: Float
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb; alpha = UInt32(color.a)
        spreadSrc = spreadChannels(color.xrgb)
        alphaScale = Float(color.a)
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y * stride).assumingMemoryBound(to: UInt32.self)
    }
    @inline(__always) func span(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ count: Int, _ coverage: Float) {
        let a = UInt32(coverage * alphaScale + 0.5)
        if a == 255 { fillSpan32(row + x, count, src); return }
        for i in x..<(x + count) { row[i] = blendXRGB(row[i], spread: spreadSrc, a) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ coverage: Float) {
        blend(row, x, UInt32(coverage * alphaScale + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ a: UInt32) {
        row[x] = blendXRGB(row[x], spread: spreadSrc, a) // exact at 0 and 255, so no branches
    }
}

struct RGB565Painter: Painter {
    static var visible: Float { halfLevel }
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, solid: UInt16, alpha: UInt32, alphaScale: Float
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb
        solid = color.rgb565Value; alpha = UInt32(color.a); alphaScale = Float(color.a)
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        (base + y * stride).assumingMemoryBound(to: UInt16.self)
    }
    @inline(__always) func span(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ count: Int, _ coverage: Float) {
        let a = UInt32(coverage * alphaScale + 0.5)
        if a == 255 { fillSpan16(row + x, count, solid); return }
        for i in x..<(x + count) { row[i] = blend565(row[i], src, a) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ coverage: Float) {
        blend(row, x, UInt32(coverage * alphaScale + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ a: UInt32) {
        row[x] = a == 255 ? solid : blend565(row[x], src, a)
    }
}

/// Paints through `Base` only inside `clip`. Convex shapes, discs and rings skip the rows
/// outside it; general polygons still sweep them (their cells must be zeroed) but write
/// nothing. Used only when a clip is set, so the unclipped path keeps its speed.
struct ClippedPainter<Base: Painter>: Painter {
    typealias Pixel = Base.Pixel
    static var visible: Float { Base.visible }
    let base: Base
    let x0: Int, x1: Int
    let firstRow: UnsafeMutablePointer<Pixel>, endRow: UnsafeMutablePointer<Pixel>
    init(_ base: Base, _ clip: PixelRect) {
        self.base = base
        x0 = clip.x; x1 = clip.maxX
        firstRow = base.row(clip.y)
        endRow = clip.isEmpty ? firstRow : base.row(clip.maxY - 1) + 1
    }
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Pixel> { base.row(y) }
    @inline(__always) func span(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ count: Int, _ coverage: Float) {
        guard row >= firstRow && row < endRow else { return }
        let a = Swift.max(x, x0), b = Swift.min(x + count, x1)
        if b > a { base.span(row, a, b - a, coverage) }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage: Float) {
        guard row >= firstRow && row < endRow && x >= x0 && x < x1 else { return }
        base.pixel(row, x, coverage)
    }
}

/// Adds exact coverage into a Float image instead of painting: lets tests measure the
/// rasterizer without 8-bit rounding.
struct CoveragePainter: Painter {
    static var visible: Float { 1e-9 }
    let base: UnsafeMutablePointer<Float>, width: Int
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Float> { base + y * width }
    @inline(__always) func span(_ row: UnsafeMutablePointer<Float>, _ x: Int, _ count: Int, _ coverage: Float) {
        for i in x..<(x + count) { row[i] += coverage }
    }
    @inline(__always) func pixel(_ row: UnsafeMutablePointer<Float>, _ x: Int, _ coverage: Float) {
        row[x] += coverage
    }
}
