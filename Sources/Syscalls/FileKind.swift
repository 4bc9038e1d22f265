#if canImport(Glibc)
import Glibc
#endif

/// What a path is, as stat(2) tells (following links).
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, socket, other

    public init(mode: mode_t) {
        // The S_IF* constants import as Int32 or mode_t depending on the Glibc module:
        // compare as plain 32-bit patterns.
        func bits<T: BinaryInteger>(_ v: T) -> UInt32 { UInt32(truncatingIfNeeded: v) }
        switch bits(mode) & bits(S_IFMT) {
        case bits(S_IFREG): self = .regular
        case bits(S_IFDIR): self = .directory
        case bits(S_IFIFO): self = .fifo
        case bits(S_IFCHR): self = .characterDevice
        case bits(S_IFBLK): self = .blockDevice
        case bits(S_IFSOCK): self = .socket
        default: self = .other
        }
    }

    /// What is at `path` (following links); nil when nothing is, or it cannot be looked at.
    public static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a file"
        }
    }
}
