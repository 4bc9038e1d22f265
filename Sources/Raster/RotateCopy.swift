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
            copyRect(source, r, destination, pitch, transform, XRGBStore())
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
