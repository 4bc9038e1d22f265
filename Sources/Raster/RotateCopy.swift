import Geometry

/// Copies the portrait rectangles `rects` of `source` (XRGB8888) into a scanout buffer at
/// `destination` (`pitch` bytes per row, panel orientation, `format` pixels), turned as
/// `transform` says: portrait pixel (x, y) lands on `transform.panelPixel(fromPortraitX: x, y: y)`.
///
/// Only stores to the destination, never loads from it (scanout memory is write-combined on
/// the Pi: reading it is very slow), and only inside the panel rectangles of `rects`.
/// Quarter turns go tile by tile so that each destination row segment is written as a run of
/// consecutive stores while the source tile stays in L1. Rectangles are clipped to the source
/// and to the transform's portrait size.
public func rotateCopy(from source: PixelBuffer, rects: [PixelRect], to destination: UnsafeMutableRawPointer,
                       pitch: Int, format: PixelFormat, transform: ScreenTransform) {
    precondition(source.format == .xrgb8888, "rotateCopy reads XRGB8888 back buffers, got \(source.format.rawValue)")
    let limit = source.bounds.intersection(
        PixelRect(x: 0, y: 0, width: transform.portraitWidth, height: transform.portraitHeight))
    for rect in rects {
        let r = rect.intersection(limit)
        if r.isEmpty { continue }
        switch format {
        case .xrgb8888:
            if transform.rotation == .r90 || transform.rotation == .r270 {
                // 4×4 blocks turned in vector registers, the odd edges one pixel at a time.
                let inner = PixelRect(x: r.x, y: r.y, width: r.width & ~3, height: r.height & ~3)
                if transform.rotation == .r90 {
                    quarterTurnBlocks(source, inner, destination, pitch, transform, Turn90.self)
                } else {
                    quarterTurnBlocks(source, inner, destination, pitch, transform, Turn270.self)
                }
                for edge in [PixelRect(x: inner.maxX, y: r.y, width: r.maxX - inner.maxX, height: r.height),
                             PixelRect(x: r.x, y: inner.maxY, width: inner.width, height: r.maxY - inner.maxY)] where !edge.isEmpty {
                    copyRect(source, edge, destination, pitch, transform, XRGBStore())
                }
            } else {
                copyRect(source, r, destination, pitch, transform, XRGBStore())
            }
        case .rgb565:
            copyRect(source, r, destination, pitch, transform, RGB565Store())
        }
    }
}

/// Converts and stores one pixel into a scanout row.
protocol ScanoutStore {
    associatedtype Pixel
    func convert(_ p: UInt32) -> Pixel
}
struct XRGBStore: ScanoutStore {
    @inline(__always) func convert(_ p: UInt32) -> UInt32 { p }
}
struct RGB565Store: ScanoutStore {
    @inline(__always) func convert(_ p: UInt32) -> UInt16 { rgb565(xrgb: p) }
}

// Tiles of 64×64 portrait pixels for the block turn: a tile's 16 kB of source stays in L1
// while its 64 destination rows each get 256 bytes of consecutive stores (measured best of
// 4–64 × 8–480 at 480×800 on x86_64).
private let blockTile = 64

@inline(__always) private func load4(_ p: UnsafePointer<UInt32>) -> SIMD4<UInt32> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
}
@inline(__always) private func store4(_ p: UnsafeMutablePointer<UInt32>, _ v: SIMD4<UInt32>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, toByteOffset: 0, as: SIMD4<UInt32>.self)
}

/// How one 4×4 block lands on the panel: four portrait rows `a b c e` (y … y+3) of four
/// pixels become four panel rows of four.
protocol BlockTurn {
    /// The panel row of portrait column `x`, and the step to the next column's row.
    static func row(ofColumn x: Int, portraitWidth: Int) -> Int
    static var rowDirection: Int { get }
    /// Where portrait row `y`'s block starts along a panel row, in pixels.
    static func offset(ofRow y: Int, portraitHeight: Int) -> Int
    static func column(_ i: Int, _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ e: SIMD4<UInt32>) -> SIMD4<UInt32>
}

/// 90°: panel row = portrait x, panel x = ph−1−y (the block's rows land right to left).
struct Turn90: BlockTurn {
    @inline(__always) static func row(ofColumn x: Int, portraitWidth: Int) -> Int { x }
    static var rowDirection: Int { 1 }
    @inline(__always) static func offset(ofRow y: Int, portraitHeight: Int) -> Int { portraitHeight &- 4 &- y }
    @inline(__always) static func column(_ i: Int, _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ e: SIMD4<UInt32>) -> SIMD4<UInt32> {
        SIMD4(e[i], c[i], b[i], a[i])
    }
}

/// 270°: panel row = pw−1−x, panel x = y (the block's rows land left to right).
struct Turn270: BlockTurn {
    @inline(__always) static func row(ofColumn x: Int, portraitWidth: Int) -> Int { portraitWidth &- 1 &- x }
    static var rowDirection: Int { -1 }
    @inline(__always) static func offset(ofRow y: Int, portraitHeight: Int) -> Int { y }
    @inline(__always) static func column(_ i: Int, _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ e: SIMD4<UInt32>) -> SIMD4<UInt32> {
        SIMD4(a[i], b[i], c[i], e[i])
    }
}

/// A quarter turn of `r` (width and height multiples of 4) in 4×4 blocks: four source rows
/// of four pixels are loaded, transposed in registers and stored as four panel rows of four
/// pixels, so loads and stores both go sixteen bytes at a time (vectorised on x86_64 and
/// aarch64 alike).
@inline(__always)
private func quarterTurnBlocks<T: BlockTurn>(_ src: PixelBuffer, _ r: PixelRect, _ dst: UnsafeMutableRawPointer, _ pitch: Int,
                                             _ t: ScreenTransform, _ turn: T.Type) {
    if r.isEmpty { return }
    let sstride = src.strideBytes / 4
    let sbase = UnsafePointer(src.bytes.assumingMemoryBound(to: UInt32.self))
    let pw = t.portraitWidth, ph = t.portraitHeight
    let rowStep = T.rowDirection &* pitch
    var yTop = r.y
    while yTop < r.maxY {
        let yEnd = min(yTop + blockTile, r.maxY)
        var xLeft = r.x
        while xLeft < r.maxX {
            let xEnd = min(xLeft + blockTile, r.maxX)
            var x = xLeft
            while x < xEnd {
                let d0 = dst + T.row(ofColumn: x, portraitWidth: pw) &* pitch
                let d1 = d0 + rowStep, d2 = d1 + rowStep, d3 = d2 + rowStep
                var y = yTop
                while y < yEnd {
                    let s = sbase + y &* sstride + x
                    let a = load4(s), b = load4(s + sstride), c = load4(s + 2 &* sstride), e = load4(s + 3 &* sstride)
                    let o = T.offset(ofRow: y, portraitHeight: ph) &* 4
                    store4((d0 + o).assumingMemoryBound(to: UInt32.self), T.column(0, a, b, c, e))
                    store4((d1 + o).assumingMemoryBound(to: UInt32.self), T.column(1, a, b, c, e))
                    store4((d2 + o).assumingMemoryBound(to: UInt32.self), T.column(2, a, b, c, e))
                    store4((d3 + o).assumingMemoryBound(to: UInt32.self), T.column(3, a, b, c, e))
                    y &+= 4
                }
                x &+= 4
            }
            xLeft = xEnd
        }
        yTop = yEnd
    }
}

// Tile edge in pixels: 16 destination pixels (64 bytes of XRGB8888: one cache line / one
// write-combining buffer) by 32 rows of the quarter-turned picture.
private let tileAcross = 16
private let tileDown = 32

@inline(__always)
private func copyRect<S: ScanoutStore>(_ src: PixelBuffer, _ r: PixelRect, _ dst: UnsafeMutableRawPointer,
                                        _ pitch: Int, _ t: ScreenTransform, _ store: S) {
    let sstride = src.strideBytes / 4
    let sbase = src.bytes.assumingMemoryBound(to: UInt32.self)
    let pw = t.portraitWidth, ph = t.portraitHeight
    @inline(__always) func dstRow(_ y: Int) -> UnsafeMutablePointer<S.Pixel> {
        (dst + y &* pitch).assumingMemoryBound(to: S.Pixel.self)
    }
    switch t.rotation {
    case .r0:
        for y in r.y..<r.maxY {
            let s = sbase + y &* sstride, d = dstRow(y)
            if S.Pixel.self == UInt32.self {
                UnsafeMutableRawPointer(d + r.x).copyMemory(from: s + r.x, byteCount: r.width &* 4)
            } else {
                for x in r.x..<r.maxX { d[x] = store.convert(s[x]) }
            }
        }
    case .r180:
        for y in r.y..<r.maxY {
            let s = sbase + y &* sstride, d = dstRow(ph - 1 - y) + (pw - 1)
            for x in r.x..<r.maxX { (d - x).pointee = store.convert(s[x]) }
        }
    case .r90:
        // Panel row = portrait x; along it, panel x = ph−1−y grows as portrait y falls.
        var yTop = r.y
        while yTop < r.maxY {
            let yEnd = min(yTop + tileAcross, r.maxY)
            var xLeft = r.x
            while xLeft < r.maxX {
                let xEnd = min(xLeft + tileDown, r.maxX)
                for x in xLeft..<xEnd {
                    // Pointers and a wrapping count only: the rectangle was clipped to both
                    // buffers above, and checked arithmetic here costs a third of the copy.
                    var d = dstRow(x) + (ph - yEnd)
                    var s = sbase + (yEnd - 1) &* sstride + x
                    var n = yEnd &- yTop
                    while n > 0 {
                        d.pointee = store.convert(s.pointee)
                        d += 1; s -= sstride; n &-= 1
                    }
                }
                xLeft = xEnd
            }
            yTop = yEnd
        }
    case .r270:
        // Panel row = pw−1−x; along it, panel x = portrait y.
        var yTop = r.y
        while yTop < r.maxY {
            let yEnd = min(yTop + tileAcross, r.maxY)
            var xLeft = r.x
            while xLeft < r.maxX {
                let xEnd = min(xLeft + tileDown, r.maxX)
                for x in xLeft..<xEnd {
                    var d = dstRow(pw - 1 - x) + yTop
                    var s = sbase + yTop &* sstride + x
                    var n = yEnd &- yTop
                    while n > 0 {
                        d.pointee = store.convert(s.pointee)
                        d += 1; s += sstride; n &-= 1
                    }
                }
                xLeft = xEnd
            }
            yTop = yEnd
        }
    }
}
