import Geometry

/// Pixel layouts the kiosk renders into and scans out.
public enum PixelFormat: String, Sendable, CaseIterable {
    /// 32-bit little-endian words 0xXXRRGGBB (DRM_FORMAT_XRGB8888).
    case xrgb8888
    /// 16-bit little-endian words RRRRRGGGGGGBBBBB (DRM_FORMAT_RGB565).
    case rgb565

    public var bytesPerPixel: Int { self == .xrgb8888 ? 4 : 2 }
}

/// A block of cached RAM holding pixels, row after row, `strideBytes` apart. Owned memory,
/// 64-byte aligned, freed with the buffer. The kiosk renders here and only ever copies out
/// of it into scanout memory.
public final class PixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    public let strideBytes: Int
    public let bytes: UnsafeMutableRawPointer

    public init(width: Int, height: Int, format: PixelFormat = .xrgb8888) {
        precondition(width > 0 && height > 0, "pixel buffer must not be empty")
        self.width = width
        self.height = height
        self.format = format
        // Rows padded to 64 bytes so SIMD stores of a row start aligned.
        strideBytes = (width * format.bytesPerPixel + 63) & ~63
        bytes = UnsafeMutableRawPointer.allocate(byteCount: strideBytes * height, alignment: 64)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: strideBytes * height)
    }
    deinit { bytes.deallocate() }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Start of row `y` as 32-bit pixels (xrgb8888 buffers).
    @inlinable public func row32(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (bytes + y * strideBytes).assumingMemoryBound(to: UInt32.self)
    }
    /// Start of row `y` as 16-bit pixels (rgb565 buffers).
    @inlinable public func row16(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        (bytes + y * strideBytes).assumingMemoryBound(to: UInt16.self)
    }
}
