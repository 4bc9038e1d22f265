#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The process's arguments without the program name, from /proc/self/cmdline: the same in
/// regular and Embedded Swift (which has no `CommandLine`).
public func processArguments(system: any SystemCalls = LinuxSystem.shared) -> [String] {
    guard let fd = try? system.open("/proc/self/cmdline", flags: O_RDONLY) else { return [] }
    defer { system.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 1 << 20 {
        let n = chunk.withUnsafeMutableBytes { (b) -> Int in (try? system.read(fd, into: b)) ?? 0 }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    // Byte for byte: a path that is not UTF-8 still names its file.
    var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { PathBytes.string($0) }
    if words.last == "" { words.removeLast() }
    return Array(words.dropFirst())
}
