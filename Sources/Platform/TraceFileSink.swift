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

    public func write(_ text: String) throws(TraceWriteError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written: Result<Int, SystemError> = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) -> Int in try system.write(fd, from: UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            switch written {
            case .success(let n) where n > 0: offset += n
            case .success: throw .sinkFailed("\(SystemError(errno: EIO, attempt: "write trace \(path)"))")
            case .failure(let e): throw .sinkFailed("\(e)")
            }
        }
    }

    public func startNewSegment() throws(TraceWriteError) {
        system.close(fd)
        fd = -1
        do throws(SystemError) {
            try system.rename(path, to: path + ".1")
            fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        } catch {
            throw .sinkFailed("\(error)")
        }
    }
}
