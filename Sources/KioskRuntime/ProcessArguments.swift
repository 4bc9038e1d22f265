#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The process's arguments without the program name, from /proc/self/cmdline: the same in
/// regular and Embedded Swift (which has no `CommandLine`).
public func processArguments() -> [String] {
    let fd = open("/proc/self/cmdline", O_RDONLY)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 1 << 20 {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    // Byte for byte: a path that is not UTF-8 still names its file.
    var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { PathBytes.string($0) }
    if words.last == "" { words.removeLast() }
    return Array(words.dropFirst())
}
