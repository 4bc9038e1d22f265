#if canImport(Glibc)
import Glibc
#endif

/// Replaces the file at `path` with `bytes` so that a reader, and the file after a power cut
/// at any instant, sees the old file or the new one, never a half: a new temporary file
/// beside it (a unique name created with O_EXCL, so no symbolic link or file planted there
/// is followed and two writers never share one), every byte written, fsync, rename over
/// `path`, fsync of the folder. On any failure the temporary file is removed and the error
/// names the path. `mode` is set whatever the process's umask (node_exporter, the
/// screenshot command and the pid file's readers are other users).
///
/// Returns what was put there, so that the writer can later tell its own file from one
/// someone else put at that name.
@discardableResult
public func writeFileAtomically(_ path: String, bytes: [UInt8], mode: mode_t = 0o644,
                                system: any SystemCalls) throws(SystemError) -> FileStatus? {
    let (fd, temporary) = try system.createUniqueFile(besides: path)
    var written: FileStatus?
    do throws(SystemError) {
        try system.setMode(fd, mode)
        try writeAll(bytes, to: fd, named: temporary, system: system)
        try system.syncFile(fd, named: temporary)
        written = system.status(of: fd)
    } catch {
        system.close(fd)
        system.removeFile(temporary)
        throw SystemError(errno: error.errno, attempt: "\(error.attempt), replacing \(path)")
    }
    system.close(fd)
    do throws(SystemError) { try system.rename(temporary, to: path) } catch {
        system.removeFile(temporary)
        throw error
    }
    try syncFolder(containing: path, system: system)
    return written
}

/// The same for text.
@discardableResult
public func writeFileAtomically(_ path: String, _ text: String, mode: mode_t = 0o644,
                                system: any SystemCalls) throws(SystemError) -> FileStatus? {
    try writeFileAtomically(path, bytes: Array(text.utf8), mode: mode, system: system)
}

/// fsync of the folder that holds `path`: a rename, creation or removal in it is on the
/// storage when this returns.
public func syncFolder(containing path: String, system: any SystemCalls) throws(SystemError) {
    let folder: String
    if let slash = path.lastIndex(of: "/") {
        folder = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
        folder = "."
    }
    try syncFolder(folder, system: system)
}

/// fsync of a folder itself.
public func syncFolder(_ folder: String, system: any SystemCalls) throws(SystemError) {
    let fd = try system.open(folder, flags: O_RDONLY | O_DIRECTORY)
    defer { system.close(fd) }
    try system.syncFile(fd, named: folder)
}

/// Writes every byte to `fd` (a write may take fewer); `name` is for the error.
public func writeAll(_ bytes: [UInt8], to fd: Int32, named name: String, system: any SystemCalls) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
        let written: Result<Int, SystemError> = bytes.withUnsafeBytes { b in
            Result { () throws(SystemError) -> Int in try system.write(fd, from: UnsafeRawBufferPointer(rebasing: b[offset...])) }
        }
        let n: Int
        do throws(SystemError) { n = try written.get() } catch {
            throw SystemError(errno: error.errno, attempt: "write \(name)")
        }
        if n <= 0 { throw SystemError(errno: EIO, attempt: "write \(name)") }
        offset += n
    }
}
