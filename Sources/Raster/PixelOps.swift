import Geometry

// Pixel-level arithmetic shared by the canvas, rotate-copy and PNG: packing, RGB565 rounding
// and "over" blending. Everything here is @inlinable so per-pixel loops see through it.

/// x / 255 rounded to nearest, exact for 0 ≤ x ≤ 65535 − 128.
@inlinable @inline(__always) func div255Rounded(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// An 8-bit channel to 5 bits, rounded to nearest: round(v · 31 / 255).
@inlinable @inline(__always) public func channel5(_ v: UInt32) -> UInt32 { div255Rounded(v &* 31) }
/// An 8-bit channel to 6 bits, rounded to nearest: round(v · 63 / 255).
@inlinable @inline(__always) public func channel6(_ v: UInt32) -> UInt32 { div255Rounded(v &* 63) }

/// RGB565 from 8-bit channels, each rounded to the nearest representable level
/// (plain truncation would darken every colour by up to one level).
@inlinable @inline(__always) public func rgb565(r: UInt32, g: UInt32, b: UInt32) -> UInt16 {
    UInt16(truncatingIfNeeded: channel5(r) << 11 | channel6(g) << 5 | channel5(b))
}
/// RGB565 from an XRGB8888 pixel, rounded per channel.
@inlinable @inline(__always) public func rgb565(xrgb p: UInt32) -> UInt16 {
    rgb565(r: (p >> 16) & 0xFF, g: (p >> 8) & 0xFF, b: p & 0xFF)
}
/// XRGB8888 from RGB565 by bit replication (0 → 0, 31 → 255), the inverse of the rounding above.
@inlinable @inline(__always) public func xrgb(rgb565 p: UInt16) -> UInt32 {
    let v = UInt32(p)
    let r5 = v >> 11, g6 = (v >> 5) & 63, b5 = v & 31
    let r = r5 << 3 | r5 >> 2, g = g6 << 2 | g6 >> 4, b = b5 << 3 | b5 >> 2
    return 0xFF00_0000 | r << 16 | g << 8 | b
}

public extension Color {
    /// The nearest RGB565 pixel.
    var rgb565Value: UInt16 { rgb565(r: UInt32(r), g: UInt32(g), b: UInt32(b)) }
    /// The colour an XRGB8888 pixel shows (opaque).
    init(xrgb p: UInt32) {
        self.init(r: UInt8((p >> 16) & 0xFF), g: UInt8((p >> 8) & 0xFF), b: UInt8(p & 0xFF))
    }
}

/// An XRGB8888 pixel's channels spread into 16-bit lanes of a 64-bit word (B at bit 0, R at
/// 16, G at 32), so that one multiply weighs all three.
@inlinable @inline(__always) func spreadChannels(_ p: UInt32) -> UInt64 {
    let q = UInt64(p)
    return (q & 0x00FF_00FF) | ((q & 0xFF00) << 24)
}

/// `src` (spread by `spreadChannels`) over `dst` with coverage·alpha `a` (0…255), each channel
/// rounded to nearest; result opaque. Exact at a = 0 (dst) and a = 255 (src).
@inlinable @inline(__always) func blendXRGB(_ dst: UInt32, spread src: UInt64, _ a: UInt32) -> UInt32 {
    let a64 = UInt64(a)
    let lanes: UInt64 = 0x0000_00FF_00FF_00FF
    var t = src &* a64 &+ spreadChannels(dst) &* (255 &- a64) &+ 0x0000_0080_0080_0080
    t = ((t &+ ((t >> 8) & lanes)) >> 8) & lanes
    return 0xFF00_0000 | UInt32(truncatingIfNeeded: t & 0x00FF_00FF) | UInt32(truncatingIfNeeded: (t >> 24) & 0xFF00)
}

/// `src` over `dst` with coverage·alpha `a` (0…255), per channel rounded; result opaque.
@inlinable @inline(__always) func blendXRGB(_ dst: UInt32, _ src: UInt32, _ a: UInt32) -> UInt32 {
    blendXRGB(dst, spread: spreadChannels(src), a)
}

/// The same blend on an RGB565 pixel: expand, blend in 8 bits, round back.
@inlinable @inline(__always) func blend565(_ dst: UInt16, _ src: UInt32, _ a: UInt32) -> UInt16 {
    rgb565(xrgb: blendXRGB(xrgb(rgb565: dst), src, a))
}

/// Stores `count` copies of `value` from `p` on: 16-byte vector stores, the last one
/// overlapping the previous ones instead of a scalar tail (fewer unpredictable branches,
/// which cost more than the stores on short spans).
@inlinable @inline(__always) func fillSpan32(_ p: UnsafeMutablePointer<UInt32>, _ count: Int, _ value: UInt32) {
    let raw = UnsafeMutableRawPointer(p)
    let v = SIMD4<UInt32>(repeating: value)
    if count >= 4 {
        var i = 0
        while i &+ 16 <= count {
            raw.storeBytes(of: v, toByteOffset: i &* 4, as: SIMD4<UInt32>.self)
            raw.storeBytes(of: v, toByteOffset: i &* 4 &+ 16, as: SIMD4<UInt32>.self)
            raw.storeBytes(of: v, toByteOffset: i &* 4 &+ 32, as: SIMD4<UInt32>.self)
            raw.storeBytes(of: v, toByteOffset: i &* 4 &+ 48, as: SIMD4<UInt32>.self)
            i &+= 16
        }
        // Up to 15 left: four stores ending at the span's end cover them (overlapping; when
        // nothing is left they repeat the last store).
        let end = (count &- 4) &* 4
        let done = Swift.min(i &* 4, end)
        raw.storeBytes(of: v, toByteOffset: Swift.max(done, end &- 48), as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: Swift.max(done, end &- 32), as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: Swift.max(done, end &- 16), as: SIMD4<UInt32>.self)
        raw.storeBytes(of: v, toByteOffset: end, as: SIMD4<UInt32>.self)
    } else {
        var i = 0
        while i < count { p[i] = value; i &+= 1 }
    }
}

/// Stores `count` copies of a 16-bit `value` from `p` on.
@inlinable @inline(__always) func fillSpan16(_ p: UnsafeMutablePointer<UInt16>, _ count: Int, _ value: UInt16) {
    var i = 0
    while i < count && (UInt(bitPattern: p + i) & 15) != 0 { p[i] = value; i += 1 }
    let raw = UnsafeMutableRawPointer(p)
    let v = SIMD8<UInt16>(repeating: value)
    while i + 8 <= count {
        raw.storeBytes(of: v, toByteOffset: i &* 2, as: SIMD8<UInt16>.self)
        i &+= 8
    }
    while i < count { p[i] = value; i &+= 1 }
}
