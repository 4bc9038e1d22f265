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
    private let system: any SystemCalls

    init(path: String, system: any SystemCalls = LinuxSystem.shared) throws(FontError) {
        self.system = system
        let fd: Int32
        do { fd = try system.open(path, flags: O_RDONLY | O_NONBLOCK) } catch {
            throw FontError(path: path, reason: "no readable file there (\(error.reason); Debian: apt-get install fonts-dejavu-core fonts-noto-core fonts-noto-cjk)")
        }
        defer { system.close(fd) }
        let kind: FileKind, size: Int64
        do { (kind, size) = try system.kindAndSize(of: fd, named: path) } catch {
            throw FontError(path: path, reason: "fstat: \(error.reason)")
        }
        guard kind == .regular else { throw FontError(path: path, reason: "is \(kind), not a regular file") }
        guard size > 0 else { throw FontError(path: path, reason: "is empty") }
        guard size <= Int64(FontFile.largest) else {
            throw FontError(path: path, reason: "is \(size >> 20) MB, more than the \(FontFile.largest >> 20) MB a font may be")
        }
        count = Int(size)
        do { bytes = UnsafePointer(try system.mmap(length: count, protection: PROT_READ, flags: MAP_PRIVATE, fd: fd, offset: 0).assumingMemoryBound(to: UInt8.self)) } catch {
            throw FontError(path: path, reason: "mmap: \(error.reason)")
        }
    }

    func unmap() { system.munmap(UnsafeMutableRawPointer(mutating: bytes), length: count) }
}
