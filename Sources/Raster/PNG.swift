#if canImport(Glibc)
import Glibc
#endif
import CPNG
import Geometry
import Syscalls

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

/// Writes `buffer` as an 8-bit RGB PNG file (created or truncated): encoded in memory by
/// libpng, written through the seam.
public func writePNG(_ buffer: PixelBuffer, to path: String, system: any SystemCalls = LinuxSystem.shared) throws(PNGError) {
    let png = try encodePNG(buffer, name: path)
    do throws(SystemError) {
        let fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { system.close(fd) }
        try writeAll(png, to: fd, named: path, system: system)
    } catch {
        throw PNGError(path: path, reason: error.reason)
    }
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

/// The largest PNG file read: a 32768×32768 picture compresses far below it.
public let largestPNGFile = 256 << 20

/// A PNG file's bytes, read through the seam: a regular file of at most `largestPNGFile`
/// (a FIFO or a device named as a picture is refused before it is read).
private func pngFileBytes(_ path: String, system: any SystemCalls) throws(PNGError) -> [UInt8] {
    let fd: Int32
    do { fd = try system.open(path, flags: O_RDONLY | O_NONBLOCK) } catch { throw PNGError(path: path, reason: error.reason) }
    defer { system.close(fd) }
    let kind: FileKind, size: Int64
    do { (kind, size) = try system.kindAndSize(of: fd, named: path) } catch { throw PNGError(path: path, reason: error.reason) }
    guard kind == .regular else { throw PNGError(path: path, reason: "is \(kind), not a regular file") }
    guard size <= Int64(largestPNGFile) else { throw PNGError(path: path, reason: "is \(size >> 20) MB, more than \(largestPNGFile >> 20) MB") }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    var filled = 0
    while filled < bytes.count {
        let read: Result<Int, SystemError> = bytes.withUnsafeMutableBytes { b in
            Result { () throws(SystemError) -> Int in try system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: b[filled...])) }
        }
        let n: Int
        do { n = try read.get() } catch { throw PNGError(path: path, reason: error.reason) }
        if n == 0 { break }
        filled += n
    }
    bytes.removeSubrange(filled...)
    return bytes
}

/// Reads a PNG (any colour type; alpha is composited over black by libpng) into a new buffer.
public func readPNG(path: String, format: PixelFormat = .xrgb8888, system: any SystemCalls = LinuxSystem.shared) throws(PNGError) -> PixelBuffer {
    let file = try pngFileBytes(path, system: system)
    // libpng keeps reading the bytes while it decodes: all of it happens while they are lent.
    let decoded: Result<PixelBuffer, PNGError> = file.withUnsafeBytes { raw in
        Result { () throws(PNGError) -> PixelBuffer in try decodePNG(raw, path: path, format: format) }
    }
    return try decoded.get()
}

private func decodePNG(_ file: UnsafeRawBufferPointer, path: String, format: PixelFormat) throws(PNGError) -> PixelBuffer {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_memory(&image, file.baseAddress, file.count) != 0 else {
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
