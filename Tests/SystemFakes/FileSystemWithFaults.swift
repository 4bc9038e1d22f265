#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The real file system below the seam, every call recorded in its `SystemCallLog` ("syncFile
/// /tmp/x/m.prom": the file's path for calls on a descriptor) and any of them made to fail:
/// `fail(.syncFile, errno: EIO)` fails the next fsync, `fail(.write, nth: 3, errno: ENOSPC)`
/// the third write from now.
public final class FileSystemWithFaults: SystemCalls, RecordingFake, @unchecked Sendable {
    public let log = SystemCallLog()
    private let real = LinuxSystem.shared
    private var pathsByFd: [Int32: String] = [:]

    public init() {}

    private func enter(_ call: SystemCallLog.Call, _ subject: String) throws(SystemError) { try log.enter(call, subject) }
    private func name(_ fd: Int32) -> String { pathsByFd[fd] ?? "fd \(fd)" }

    public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        try enter(.open, path)
        let fd = try real.open(path, flags: flags, mode: mode)
        pathsByFd[fd] = path
        return fd
    }
    public func close(_ fd: Int32) {
        log.record(.close, name(fd))
        pathsByFd[fd] = nil
        real.close(fd)
    }
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try enter(.read, name(fd))
        return try real.read(fd, into: buffer)
    }
    public func read(_ fd: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try enter(.read, name(fd))
        return try real.read(fd, at: offset, into: buffer)
    }
    public func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try enter(.write, name(fd))
        return try real.write(fd, from: buffer)
    }
    public func rename(_ from: String, to: String) throws(SystemError) {
        try enter(.rename, from + " " + to)
        try real.rename(from, to: to)
    }
    public func removeFile(_ path: String) {
        log.record(.removeFile, path)
        real.removeFile(path)
    }
    public func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        try enter(.makeDirectory, path)
        try real.makeDirectory(path, mode: mode)
    }
    public func makeNewDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        try enter(.makeNewDirectory, path)
        try real.makeNewDirectory(path, mode: mode)
    }
    public func removeDirectory(_ path: String) {
        log.record(.removeDirectory, path)
        real.removeDirectory(path)
    }
    public func setMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        try enter(.setMode, name(fd))
        try real.setMode(fd, mode)
    }
    public func syncFile(_ fd: Int32, named name: String) throws(SystemError) {
        try enter(.syncFile, self.name(fd))
        try real.syncFile(fd, named: name)
    }
    public func createUniqueFile(besides path: String) throws(SystemError) -> (fd: Int32, path: String) {
        try enter(.createUniqueFile, path)
        let created = try real.createUniqueFile(besides: path)
        pathsByFd[created.fd] = created.path
        return created
    }

    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32 {
        try log.enter(.ioctl, name(fd) + " " + what, attempt: what)
        return try real.ioctl(fd, request, arg, what: what)
    }
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        try enter(.mmap, name(fd))
        return try real.mmap(length: length, protection: protection, flags: flags, fd: fd, offset: offset)
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { log.record(.munmap); real.munmap(address, length: length) }
    public func readSmallFile(_ path: String) throws(SystemError) -> String? {
        try log.enter(.readSmallFile, path, attempt: "read \(path)")
        return try real.readSmallFile(path)
    }
    public func writeSmallFile(_ path: String, _ text: String) throws(SystemError) {
        try log.enter(.writeSmallFile, path, attempt: "write '\(text)' to \(path)")
        try real.writeSmallFile(path, text)
    }
    public func listDirectory(_ path: String) -> [String] { log.record(.listDirectory, path); return real.listDirectory(path) }
    public func fileExists(_ path: String) -> Bool { real.fileExists(path) }
    public func waitReadable(_ fd: Int32, microseconds: Int64) throws(SystemError) -> Bool {
        try enter(.waitReadable, name(fd))
        return try real.waitReadable(fd, microseconds: microseconds)
    }
    public func lockExclusively(_ fd: Int32) -> Bool {
        do throws(SystemError) { try enter(.lock, name(fd)) } catch { return false }
        return real.lockExclusively(fd)
    }
    public func status(of path: String) -> FileStatus? { real.status(of: path) }
    public func status(of fd: Int32) -> FileStatus? { real.status(of: fd) }
    public func kindAndSize(of fd: Int32, named name: String) throws(SystemError) -> (kind: FileKind, size: Int64) {
        try log.enter(.status, self.name(fd), attempt: "fstat \(name)")
        return try real.kindAndSize(of: fd, named: name)
    }
}
