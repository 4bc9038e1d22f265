import Syscalls
import Trace
#if canImport(Glibc)
import Glibc
#endif

/// Writes a trace to a file for `--record`. When the writer rolls, the full file moves aside
/// to `<path>.1` (replacing an older one) and a fresh file starts, so a kiosk recording for
/// months keeps at most two bounded files: the newest touches are always there.
///
/// Nothing recorded before is lost: an existing file is never truncated or appended to
/// (the next free name is taken: `floor.jsonl` → `floor-1.jsonl`), a symbolic link is never
/// followed, and as every file is created new (O_EXCL), two kiosks never share one.
public final class TraceFileSink: TraceSink {
    /// The file being written (the asked path, or the next free name after it).
    public let path: String
    /// The path asked for, when it was taken and `path` is another name.
    public let takenPath: String?
    private let system: any SystemCalls
    private var fd: Int32
    /// Written since the last sync; the folder synced since the file was created.
    private var unsynced = false
    private var folderSynced = false
    private static let createFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC

    public init(path: String, system: any SystemCalls = LinuxSystem.shared) throws(SystemError) {
        self.system = system
        var candidate = path
        var attempt = 0
        while true {
            do throws(SystemError) {
                fd = try system.open(candidate, flags: TraceFileSink.createFlags, mode: 0o644)
                // Held while recording, so a tool that copies traces off the stand (flock)
                // can tell a file still being written.
                _ = system.lockExclusively(fd)
                break
            } catch let error where error.errno == EEXIST || error.errno == ELOOP {
                attempt += 1
                guard attempt < 1000 else {
                    throw SystemError(errno: EEXIST, attempt: "record to \(path) (and \(TraceFileSink.name(path, 999)))")
                }
                candidate = TraceFileSink.name(path, attempt)
            }
        }
        self.path = candidate
        takenPath = candidate == path ? nil : path
    }
    deinit { if fd >= 0 { system.close(fd) } }

    /// `floor.jsonl`, 2 → `floor-2.jsonl`; `floor` → `floor-2`.
    static func name(_ path: String, _ n: Int) -> String {
        let slash = path.lastIndex(of: "/")
        let fileStart = slash.map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[fileStart...].lastIndex(of: "."), dot > fileStart {
            return "\(path[..<dot])-\(n)\(path[dot...])"
        }
        return "\(path)-\(n)"
    }

    public func write(_ text: String) throws(TraceWriteError) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written: Result<Int, SystemError> = bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) -> Int in try system.write(fd, from: UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            switch written {
            case .success(let n) where n > 0: offset += n; unsynced = true
            case .success: throw .sinkFailed("\(SystemError(errno: EIO, attempt: "write trace \(path)"))")
            case .failure(let e): throw .sinkFailed("\(path): \(e)")
            }
        }
    }

    /// fsync of what was written since the last one (nothing written: no sync, so a stand
    /// at rest writes nothing); a new file's folder once, so the file itself survives a cut.
    public func sync() throws(TraceWriteError) {
        guard fd >= 0, unsynced else { return }
        do throws(SystemError) {
            try system.syncFile(fd, named: path)
            if !folderSynced { try syncFolder(containing: path, system: system) }
        } catch {
            throw .sinkFailed("\(error)")
        }
        unsynced = false
        folderSynced = true
    }

    public func startNewSegment() throws(TraceWriteError) {
        do throws(SystemError) {
            // The full file is on the storage before it takes the older one's place.
            try system.syncFile(fd, named: path)
            system.close(fd)
            fd = -1
            try system.rename(path, to: path + ".1")
            try syncFolder(containing: path, system: system)
            fd = try system.open(path, flags: TraceFileSink.createFlags, mode: 0o644)
            _ = system.lockExclusively(fd)
            unsynced = false
            folderSynced = false
        } catch {
            throw .sinkFailed("rolling \(path) over to \(path).1: \(error)")
        }
    }
}
