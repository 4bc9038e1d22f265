import Syscalls
import Trace
#if canImport(Glibc)
import Glibc
#endif

/// Writes a trace to a file for `--record`. When the writer rolls, the full file moves aside
/// to `<path>.1` (replacing an older one) and a fresh file starts, so a kiosk recording for
/// months keeps at most two bounded files: the newest touches are always there.
public final class TraceFileSink: TraceSink {
    public let path: String
    private let system: any SystemCalls
    private var fd: Int32

    public init(path: String, system: any SystemCalls = LinuxSystem.shared) throws(SystemError) {
        self.path = path
        self.system = system
        fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    }
    deinit { system.close(fd) }

    public func write(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = try bytes.withUnsafeMutableBytes { raw throws(SystemError) in
                try system.write(fd, from: UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            if n == 0 { throw SystemError(errno: EIO, attempt: "write trace \(path)") }
            offset += n
        }
    }

    public func startNewSegment() throws {
        system.close(fd)
        fd = -1
        try system.rename(path, to: path + ".1")
        fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    }
}
