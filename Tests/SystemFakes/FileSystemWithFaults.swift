#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The real file system below the seam, with every file call recorded ("fsync /tmp/x/m.prom")
/// and any of them made to fail: `fail(.syncFile, errno: EIO)` fails the next fsync,
/// `fail(.write, nth: 3, errno: ENOSPC)` the third write from now.
public final class FileSystemWithFaults: SystemCalls, @unchecked Sendable {
    public enum Call: String, Sendable {
        case open, close, read, write, rename, removeFile, makeDirectory, makeNewDirectory, removeDirectory
        case setMode, syncFile, createUniqueFile
    }

    private let real = LinuxSystem.shared
    /// Every call, in order, as "<call> <path>" (the file's path for calls on a descriptor).
    public private(set) var calls: [String] = []
    private var faults: [(call: Call, countdown: Int, errno: Int32)] = []
    private var pathsByFd: [Int32: String] = [:]

    public init() {}

    /// Makes the `nth` call of `call` from now fail with `errno` (and no effect).
    public func fail(_ call: Call, nth: Int = 1, errno: Int32) { faults.append((call, nth, errno)) }

    /// The calls of one kind, their paths only.
    public func paths(of call: Call) -> [String] {
        calls.filter { $0.hasPrefix(call.rawValue + " ") }.map { String($0.dropFirst(call.rawValue.count + 1)) }
    }

    /// Records the call; throws when a fault was asked for it.
    private func enter(_ call: Call, _ path: String) throws(SystemError) {
        calls.append(call.rawValue + " " + path)
        for i in faults.indices where faults[i].call == call {
            faults[i].countdown -= 1
            if faults[i].countdown == 0 {
                let e = faults[i].errno
                faults.remove(at: i)
                throw SystemError(errno: e, attempt: "\(call.rawValue) \(path)")
            }
            break
        }
    }
    private func name(_ fd: Int32) -> String { pathsByFd[fd] ?? "fd \(fd)" }

    public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        try enter(.open, path)
        let fd = try real.open(path, flags: flags, mode: mode)
        pathsByFd[fd] = path
        return fd
    }
    public func close(_ fd: Int32) {
        try? enter(.close, name(fd))
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
        try? enter(.removeFile, path)
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
        try? enter(.removeDirectory, path)
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
        try real.ioctl(fd, request, arg, what: what)
    }
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        try real.mmap(length: length, protection: protection, flags: flags, fd: fd, offset: offset)
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { real.munmap(address, length: length) }
    public func readSmallFile(_ path: String) throws(SystemError) -> String? { try real.readSmallFile(path) }
    public func writeSmallFile(_ path: String, _ text: String) throws(SystemError) { try real.writeSmallFile(path, text) }
    public func listDirectory(_ path: String) -> [String] { real.listDirectory(path) }
    public func fileExists(_ path: String) -> Bool { real.fileExists(path) }
}
