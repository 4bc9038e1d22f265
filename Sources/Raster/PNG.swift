import CPNG
import Geometry

/// A PNG file could not be written or read; names the file and says why.
public struct PNGError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "PNG \(path): \(reason)" }
}

private func message(of image: png_image) -> String {
    withUnsafeBytes(of: image.message) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The buffer's pixels as 8-bit RGB rows (the X byte of XRGB8888 is not alpha, so none is kept).
private func rgbRows(_ buffer: PixelBuffer) -> [UInt8] {
    let w = buffer.width, h = buffer.height
    var rgb = [UInt8](repeating: 0, count: w * h * 3)
    rgb.withUnsafeMutableBufferPointer { out in
        var o = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = buffer.format == .xrgb8888 ? buffer.row32(y)[x] : xrgb(rgb565: buffer.row16(y)[x])
                out[o] = UInt8((p >> 16) & 0xFF); out[o + 1] = UInt8((p >> 8) & 0xFF); out[o + 2] = UInt8(p & 0xFF)
                o += 3
            }
        }
    }
    return rgb
}

private func rgbImage(_ buffer: PixelBuffer) -> png_image {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    image.width = UInt32(buffer.width)
    image.height = UInt32(buffer.height)
    image.format = UInt32(PNG_FORMAT_RGB)
    return image
}

/// Writes `buffer` as an 8-bit RGB PNG file.
public func writePNG(_ buffer: PixelBuffer, to path: String) throws(PNGError) {
    let rgb = rgbRows(buffer)
    var image = rgbImage(buffer)
    let ok = rgb.withUnsafeBytes { raw in
        png_image_write_to_file(&image, path, 0, raw.baseAddress, Int32(buffer.width * 3), nil)
    }
    let why = message(of: image)
    png_image_free(&image)
    if ok == 0 { throw PNGError(path: path, reason: why.isEmpty ? "cannot write" : why) }
}

/// `buffer` as the bytes of an 8-bit RGB PNG, for a caller that writes them itself (through
/// the system-call seam); `name` is for the error.
public func encodePNG(_ buffer: PixelBuffer, name: String) throws(PNGError) -> [UInt8] {
    let rgb = rgbRows(buffer)
    // Deflate never grows the rows by more than a little: one pass almost always fits, and a
    // second pass gets the size libpng asks for.
    var capacity = rgb.count + rgb.count / 64 + 4096
    for _ in 0..<2 {
        var image = rgbImage(buffer)
        var png = [UInt8](repeating: 0, count: capacity)
        var size = capacity
        let ok = png.withUnsafeMutableBytes { out in
            rgb.withUnsafeBytes { raw in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, raw.baseAddress, Int32(buffer.width * 3), nil)
            }
        }
        let why = message(of: image)
        png_image_free(&image)
        if ok != 0 && size <= capacity {
            png.removeLast(capacity - size)
            return png
        }
        if size <= capacity { throw PNGError(path: name, reason: why.isEmpty ? "cannot encode" : why) }
        capacity = size
    }
    throw PNGError(path: name, reason: "cannot encode")
}

/// Reads a PNG (any colour type; alpha is composited over black by libpng) into a new buffer.
public func readPNG(path: String, format: PixelFormat = .xrgb8888) throws(PNGError) -> PixelBuffer {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_file(&image, path) != 0 else {
        let why = message(of: image)
        png_image_free(&image)
        throw PNGError(path: path, reason: why.isEmpty ? "cannot read" : why)
    }
    let w = Int(image.width), h = Int(image.height)
    guard w > 0, h > 0, w <= 1 << 15, h <= 1 << 15 else {
        png_image_free(&image)
        throw PNGError(path: path, reason: "unsupported size \(w)x\(h)")
    }
    image.format = UInt32(PNG_FORMAT_RGB)
    var rgb = [UInt8](repeating: 0, count: w * h * 3)
    let ok = rgb.withUnsafeMutableBytes { raw in
        png_image_finish_read(&image, nil, raw.baseAddress, Int32(w * 3), nil)
    }
    let why = message(of: image)
    png_image_free(&image)
    if ok == 0 { throw PNGError(path: path, reason: why.isEmpty ? "cannot decode" : why) }
    let buffer = PixelBuffer(width: w, height: h, format: format)
    rgb.withUnsafeBufferPointer { px in
        var i = 0
        for y in 0..<h {
            for x in 0..<w {
                let v = 0xFF00_0000 | UInt32(px[i]) << 16 | UInt32(px[i + 1]) << 8 | UInt32(px[i + 2])
                if format == .xrgb8888 { buffer.row32(y)[x] = v } else { buffer.row16(y)[x] = rgb565(xrgb: v) }
                i += 3
            }
        }
    }
    return buffer
}
