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
    /// Pixels x and x + 1 at once: edge pixels come in neighbouring pairs on most rows.
    func pixelPair(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage0: Float, _ coverage1: Float)
    /// Two edge pixels of one row, apart (a band's left and right sides, each in one column).
    func pixelTwo(_ row: UnsafeMutablePointer<Pixel>, _ x0: Int, _ coverage0: Float, _ x1: Int, _ coverage1: Float)
    /// One edge pixel of a disc or ring, its coverage as computed (off by rounding only:
    /// |coverage| ≤ 1 is taken), weighed in Double: no detour through Float, so a shorter
    /// chain of dependent operations, which is what limits a disc's edge.
    func edgePixel(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage: Double)
}

extension Painter {
    @inline(__always) func pixelTwo(_ row: UnsafeMutablePointer<Pixel>, _ x0: Int, _ coverage0: Float,
                                    _ x1: Int, _ coverage1: Float) {
        pixel(row, x0, coverage0); pixel(row, x1, coverage1)
    }
    @inline(__always) func edgePixel(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage: Double) {
        pixel(row, x, Float(Swift.min(abs(coverage), 1)))
    }
}

// Below half a level of 8-bit alpha nothing would change; float noise stays out too.
let halfLevel: Float = 0.5 / 255

struct XRGBPainter: Painter {
    static var visible: Float { halfLevel }
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, spreadSrc: UInt64, alpha: UInt32, alphaScale: Float
    let alphaScaleWide: Double
    /// The source's channels as 16-bit lanes, twice (B, G, R, X of two pixels), for `pixelPair`.
    let srcLanes: SIMD8<UInt16>
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb; alpha = UInt32(color.a)
        spreadSrc = spreadChannels(color.xrgb)
        alphaScale = Float(color.a); alphaScaleWide = Double(color.a)
        let b = UInt16(color.b), g = UInt16(color.g), r = UInt16(color.r)
        srcLanes = SIMD8(b, g, r, 255, b, g, r, 255)
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
    @inline(__always) func edgePixel(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ coverage: Double) {
        blend(row, x, UInt32(Swift.min(abs(coverage), 1) * alphaScaleWide + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ a: UInt32) {
        row[x] = blendXRGB(row[x], spread: spreadSrc, a) // exact at 0 and 255, so no branches
    }
    @inline(__always) func pixelPair(_ row: UnsafeMutablePointer<UInt32>, _ x: Int, _ coverage0: Float, _ coverage1: Float) {
        let a0 = UInt16(truncatingIfNeeded: UInt32(coverage0 * alphaScale + 0.5))
        let a1 = UInt16(truncatingIfNeeded: UInt32(coverage1 * alphaScale + 0.5))
        blendPair(row + x, SIMD8(a0, a0, a0, a0, a1, a1, a1, a1), srcLanes)
    }
    @inline(__always) func pixelTwo(_ row: UnsafeMutablePointer<UInt32>, _ x0: Int, _ coverage0: Float,
                                    _ x1: Int, _ coverage1: Float) {
        let a0 = UInt16(truncatingIfNeeded: UInt32(coverage0 * alphaScale + 0.5))
        let a1 = UInt16(truncatingIfNeeded: UInt32(coverage1 * alphaScale + 0.5))
        let out = blendLanes(SIMD2(row[x0], row[x1]), SIMD8(a0, a0, a0, a0, a1, a1, a1, a1), srcLanes)
        row[x0] = out[0]; row[x1] = out[1]
    }
}

/// `blendPair`'s arithmetic on two pixels held in a vector.
@inline(__always) func blendLanes(_ pixels: SIMD2<UInt32>, _ a: SIMD8<UInt16>, _ src: SIMD8<UInt16>) -> SIMD2<UInt32> {
    let dst = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(pixels, to: SIMD8<UInt8>.self))
    var t = src &* a &+ dst &* (255 &- a) &+ 128
    t = (t &+ (t &>> 8)) &>> 8
    return unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: t), to: SIMD2<UInt32>.self) | 0xFF00_0000
}

/// `blendXRGB` on two neighbouring pixels in 16-bit vector lanes (SSE2 / NEON): the same
/// rounding, the same bits.
@inline(__always) func blendPair(_ p: UnsafeMutablePointer<UInt32>, _ a: SIMD8<UInt16>, _ src: SIMD8<UInt16>) {
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: blendLanes(raw.loadUnaligned(as: SIMD2<UInt32>.self), a, src), as: SIMD2<UInt32>.self)
}

struct RGB565Painter: Painter {
    static var visible: Float { halfLevel }
    let base: UnsafeMutableRawPointer, stride: Int, src: UInt32, solid: UInt16, alpha: UInt32, alphaScale: Float
    let alphaScaleWide: Double
    init(buffer: PixelBuffer, color: Color) {
        base = buffer.bytes; stride = buffer.strideBytes; src = color.xrgb
        solid = color.rgb565Value; alpha = UInt32(color.a); alphaScale = Float(color.a); alphaScaleWide = Double(color.a)
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
    @inline(__always) func edgePixel(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ coverage: Double) {
        blend(row, x, UInt32(Swift.min(abs(coverage), 1) * alphaScaleWide + 0.5))
    }
    @inline(__always) func blend(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ a: UInt32) {
        row[x] = a == 255 ? solid : blend565(row[x], src, a)
    }
    @inline(__always) func pixelPair(_ row: UnsafeMutablePointer<UInt16>, _ x: Int, _ coverage0: Float, _ coverage1: Float) {
        pixel(row, x, coverage0); pixel(row, x + 1, coverage1)
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
    @inline(__always) func pixelPair(_ row: UnsafeMutablePointer<Pixel>, _ x: Int, _ coverage0: Float, _ coverage1: Float) {
        guard row >= firstRow && row < endRow else { return }
        if x >= x0 && x + 1 < x1 { base.pixelPair(row, x, coverage0, coverage1); return }
        if x >= x0 && x < x1 { base.pixel(row, x, coverage0) }
        if x + 1 >= x0 && x + 1 < x1 { base.pixel(row, x + 1, coverage1) }
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
    @inline(__always) func pixelPair(_ row: UnsafeMutablePointer<Float>, _ x: Int, _ coverage0: Float, _ coverage1: Float) {
        row[x] += coverage0; row[x + 1] += coverage1
    }
}
