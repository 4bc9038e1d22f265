#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole text file; throws a message with the reason (missing, permission).
public func readTextFile(_ path: String) throws(TextFileError) -> String {
    guard let f = fopen(path, "rb") else { throw TextFileError(reason: String(cString: strerror(errno))) }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
        if n < chunk.count {
            if ferror(f) != 0 { throw TextFileError(reason: String(cString: strerror(errno))) }
            break
        }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw TextFileError(reason: "not UTF-8 text") }
    return text
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

public func makeDirectories(_ path: String) throws(TextFileError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part + "/"
        if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
            throw TextFileError(reason: "cannot create \(prefix): \(String(cString: strerror(errno)))")
        }
    }
}

public func writeTextFile(_ path: String, _ text: String) throws(TextFileError) {
    guard let f = fopen(path, "wb") else { throw TextFileError(reason: "\(path): \(String(cString: strerror(errno)))") }
    defer { fclose(f) }
    let bytes = Array(text.utf8)
    if fwrite(bytes, 1, bytes.count, f) != bytes.count { throw TextFileError(reason: "\(path): write failed") }
}
