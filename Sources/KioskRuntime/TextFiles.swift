#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The largest file each kind of text may be: far above any real one, far below what
/// would exhaust a stand's memory.
public enum TextFileLimit {
    /// A configuration file (the default one is about 5 kB).
    public static let configuration = 1 << 20
    /// A trace: `--record` rolls at this size at most (16 MB by default), so every recorded
    /// trace replays; replay reads it a chunk at a time (TraceFileStream).
    public static let trace = 1024 << 20
}

/// Reads a whole text file of at most `limit` bytes; throws the reason (missing, permission,
/// not a regular file, too large, not UTF-8). Never blocks: a FIFO or a device is refused
/// before anything is read from it.
public func readTextFile(_ path: String, limit: Int = TextFileLimit.configuration) throws(TextFileError) -> String {
    let (fd, size) = try openRegularFile(path, limit: limit)
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
        if n < 0 {
            if errno == EINTR { continue }
            throw TextFileError(reason: String(cString: strerror(errno)))
        }
        if n == 0 { break }   // shorter than it was a moment ago
        filled += n
    }
    bytes.removeSubrange(filled...)
    guard let text = String(validating: bytes, as: UTF8.self) else {
        let (line, column, byte) = firstInvalidUTF8(bytes)
        throw TextFileError(reason: "not UTF-8 text: line \(line), column \(column) has the byte 0x\(String(byte, radix: 16, uppercase: true))")
    }
    return text
}

/// Where the first character that is not valid UTF-8 starts: its line, its column (characters
/// from the line's start, counting from 1) and its first byte, so a technician finds it.
func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8) {
    var line = 1, column = 1, i = 0
    while i < bytes.count {
        let b = bytes[i]
        let length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
        guard length > 0, i + length <= bytes.count,
              String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil else {
            return (line, column, b)
        }
        if b == 0x0A { line += 1; column = 1 } else { column += 1 }
        i += length
    }
    return (line, column, 0)
}

/// Opens a regular file of at most `limit` bytes for reading; returns the descriptor (the
/// caller closes it) and the size. A FIFO or a device is refused before anything is read.
public func openRegularFile(_ path: String, limit: Int) throws(TextFileError) -> (fd: Int32, size: Int) {
    let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    guard fd >= 0 else { throw TextFileError(reason: String(cString: strerror(errno))) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw TextFileError(reason: reason)
    }
    let kind = FileKind(mode: info.st_mode)
    guard kind == .regular else {
        close(fd)
        throw TextFileError(reason: "is \(kind), not a regular file")
    }
    guard info.st_size <= limit else {
        close(fd)
        throw TextFileError(reason: "is \(megabytes(Int(info.st_size))), more than the \(megabytes(limit)) allowed")
    }
    return (fd, Int(info.st_size))
}

private func megabytes(_ bytes: Int) -> String {
    bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
}

public struct TextFileError: Error, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Checkpoint names become file names: keep them inside the output folder.
public func safeFileName(_ name: String) -> String {
    let cleaned = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    return cleaned.isEmpty || cleaned.hasPrefix(".") ? "_" + cleaned : cleaned
}

/// Whether `path` is a folder (following links).
public func isFolder(_ path: String) -> Bool {
    var info = stat()
    guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return false }
    // As in readTextFile: the S_IF* constants' type differs between Glibc modules.
    return UInt32(truncatingIfNeeded: info.st_mode) & UInt32(truncatingIfNeeded: S_IFMT) == UInt32(truncatingIfNeeded: S_IFDIR)
}

public func makeDirectories(_ path: String) throws(TextFileError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part + "/"
        if PathBytes.withCString(prefix, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw TextFileError(reason: "cannot create \(prefix): \(String(cString: strerror(errno)))")
        }
    }
}

public func writeTextFile(_ path: String, _ text: String) throws(TextFileError) {
    guard let f = PathBytes.withCString(path, { fopen($0, "wb") }) else { throw TextFileError(reason: "\(path): \(String(cString: strerror(errno)))") }
    defer { fclose(f) }
    let bytes = Array(text.utf8)
    if fwrite(bytes, 1, bytes.count, f) != bytes.count { throw TextFileError(reason: "\(path): write failed") }
}
