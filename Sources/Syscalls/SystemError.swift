#if canImport(Glibc)
import Glibc
#endif

/// A failed call into the kernel or a C library, with what was being attempted:
/// "DRM_IOCTL_MODE_CREATE_DUMB 480x800: Permission denied".
public struct SystemError: Error, CustomStringConvertible, Equatable, Sendable {
    public var errno: Int32
    public var attempt: String

    public init(errno: Int32, attempt: String) { self.errno = errno; self.attempt = attempt }

    public var reason: String { String(cString: strerror(errno)) }
    public var description: String { "\(attempt): \(reason)" }

    public static func == (a: SystemError, b: SystemError) -> Bool { a.errno == b.errno && a.attempt == b.attempt }
}
