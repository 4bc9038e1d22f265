#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// A font file opened like every other input: without blocking (a FIFO or a device named
/// as a font would hang FreeType's fopen for ever, at start or in a reload), only if it is a
/// regular file, and mapped read-only so that FreeType reads it from memory as it would
/// from its own mapping (pages come in as glyphs need them).
struct FontFile {
    /// The largest font accepted: Noto CJK collections are about 20 MB.
    static let largest = 256 << 20

    let bytes: UnsafePointer<UInt8>
    let count: Int

    init(path: String) throws(FontError) {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw FontError(path: path, reason: "no readable file there (\(reason); Debian: apt-get install fonts-dejavu-core fonts-noto-core fonts-noto-cjk)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FontError(path: path, reason: "fstat: \(String(cString: strerror(errno)))") }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else { throw FontError(path: path, reason: "is \(kind), not a regular file") }
        guard info.st_size > 0 else { throw FontError(path: path, reason: "is empty") }
        guard info.st_size <= FontFile.largest else {
            throw FontError(path: path, reason: "is \(info.st_size >> 20) MB, more than the \(FontFile.largest >> 20) MB a font may be")
        }
        count = Int(info.st_size)
        guard let p = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw FontError(path: path, reason: "mmap: \(String(cString: strerror(errno)))")
        }
        bytes = UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
    }

    func unmap() { munmap(UnsafeMutableRawPointer(mutating: bytes), count) }
}
