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
public func readTextFile(_ path: String, limit: Int = TextFileLimit.configuration,
                         system: any SystemCalls = LinuxSystem.shared) throws(TextFileError) -> String {
    let (fd, size) = try openRegularFile(path, limit: limit, system: system)
    defer { system.close(fd) }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < bytes.count {
        let read: Result<Int, SystemError> = bytes.withUnsafeMutableBytes { b in
            Result { () throws(SystemError) -> Int in try system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: b[filled...])) }
        }
        let n: Int
        do { n = try read.get() } catch { throw TextFileError(reason: error.reason) }
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
public func openRegularFile(_ path: String, limit: Int,
                            system: any SystemCalls = LinuxSystem.shared) throws(TextFileError) -> (fd: Int32, size: Int) {
    let fd: Int32
    do { fd = try system.open(path, flags: O_RDONLY | O_NONBLOCK) } catch { throw TextFileError(reason: error.reason) }
    let kind: FileKind, size: Int64
    do { (kind, size) = try system.kindAndSize(of: fd, named: path) } catch {
        system.close(fd)
        throw TextFileError(reason: error.reason)
    }
    guard kind == .regular else {
        system.close(fd)
        throw TextFileError(reason: "is \(kind), not a regular file")
    }
    guard size <= Int64(limit) else {
        system.close(fd)
        throw TextFileError(reason: "is \(megabytes(Int(size))), more than the \(megabytes(limit)) allowed")
    }
    return (fd, Int(size))
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
public func isFolder(_ path: String) -> Bool { FileKind.of(path) == .directory }

public func makeDirectories(_ path: String, system: any SystemCalls = LinuxSystem.shared) throws(TextFileError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part + "/"
        do { try system.makeDirectory(prefix, mode: 0o755) } catch {
            throw TextFileError(reason: "cannot create \(prefix): \(error.reason)")
        }
    }
}

/// Writes `text` as the whole content of `path` (created or truncated).
public func writeTextFile(_ path: String, _ text: String, system: any SystemCalls = LinuxSystem.shared) throws(TextFileError) {
    do throws(SystemError) {
        let fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { system.close(fd) }
        try writeAll(Array(text.utf8), to: fd, named: path, system: system)
    } catch {
        throw TextFileError(reason: "\(path): \(error.reason)")
    }
}
