#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// The one seam through which Platform and Sensors reach the kernel. Production code uses
/// `LinuxSystem`; tests hand in a fake that implements the same calls (files in a temporary
/// folder, an SMBus register map, …). Calls that fail throw `SystemError` naming the attempt.
///
/// Not for per-pixel or per-sample hot loops: it is an existential by design, crossed once
/// per syscall.
public protocol SystemCalls: AnyObject, Sendable {
    func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32
    func close(_ fd: Int32)
    func lockExclusively(_ fd: Int32) -> Bool
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int
    /// `ioctl(fd, request, arg)` with a pointer argument.
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32
    func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer
    func munmap(_ address: UnsafeMutableRawPointer, length: Int)
    /// The whole content of a small file (sysfs attributes, configs); nil if it does not exist.
    func readSmallFile(_ path: String) throws(SystemError) -> String?
    func writeSmallFile(_ path: String, _ text: String) throws(SystemError)
    func listDirectory(_ path: String) -> [String]
    func fileExists(_ path: String) -> Bool
    /// Waits until `fd` has something to read, at most `microseconds`; false when that time
    /// passed first.
    func waitReadable(_ fd: Int32, microseconds: Int64) throws(SystemError) -> Bool
    /// The same for several descriptors: true when one of them has something to read.
    func waitReadable(anyOf fds: [Int32], microseconds: Int64) throws(SystemError) -> Bool

    // Files the kiosk writes (metrics, black box, screenshots, statistics). Each has a
    // default below that calls the real kernel, so fakes without files need not write them;
    // a fake that wants to see or fail them implements them.
    func rename(_ from: String, to: String) throws(SystemError)
    func removeFile(_ path: String)
    func makeDirectory(_ path: String, mode: mode_t) throws(SystemError)
    func makeNewDirectory(_ path: String, mode: mode_t) throws(SystemError)
    func removeDirectory(_ path: String)
    func setMode(_ fd: Int32, _ mode: mode_t) throws(SystemError)
    /// fsync: the file's data (or a folder's entries) is on the storage when it returns.
    func syncFile(_ fd: Int32, named name: String) throws(SystemError)
    /// A new file beside `path` (its folder, a hidden name after it and a random tail) created
    /// with O_CREAT|O_EXCL, so that nothing there before, a symbolic link least of all, is
    /// opened; returns it open for writing with its name.
    func createUniqueFile(besides path: String) throws(SystemError) -> (fd: Int32, path: String)
    /// What `path` itself is (a symbolic link is not followed); nil if nothing is there.
    func status(of path: String) -> FileStatus?
    /// The same of an open file.
    func status(of fd: Int32) -> FileStatus?
    /// pread: bytes at `offset` of an open file, without moving its position.
    func read(_ fd: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int
    /// What an open file is (fstat: a FIFO, a device, a regular file) and its size, so that a
    /// reader refuses what it must not read before reading; `name` is for the error.
    func kindAndSize(of fd: Int32, named name: String) throws(SystemError) -> (kind: FileKind, size: Int64)
    /// What the processor has beyond its architecture's baseline, as the kernel tells the
    /// process (getauxval(AT_HWCAP): on 32-bit ARM, bit 12 is NEON).
    func hardwareCapabilities() -> UInt64
}

/// What a file is, as stat says: which file (device and inode), its kind, size and last
/// change, so that a file replaced by someone else is told from the one written.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case regular, directory, symbolicLink, other }
    public var device: UInt64
    public var inode: UInt64
    public var kind: Kind
    public var size: Int64
    /// st_mtim, nanoseconds since 1970.
    public var modified: Int64

    public init(device: UInt64, inode: UInt64, kind: Kind, size: Int64, modified: Int64 = 0) {
        self.device = device; self.inode = inode; self.kind = kind; self.size = size; self.modified = modified
    }

    init(_ info: stat) {
        // The S_IF* constants import as Int32 or mode_t depending on the Glibc module:
        // compare as plain 32-bit patterns.
        func bits<T: BinaryInteger>(_ v: T) -> UInt32 { UInt32(truncatingIfNeeded: v) }
        let type = bits(info.st_mode) & bits(S_IFMT)
        kind = type == bits(S_IFREG) ? .regular : type == bits(S_IFDIR) ? .directory : type == bits(S_IFLNK) ? .symbolicLink : .other
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }

    /// The same file as written, unchanged since: not merely the same name, nor a new file
    /// that was given the freed inode number.
    public func isUnchanged(since written: FileStatus) -> Bool {
        device == written.device && inode == written.inode && kind == written.kind && size == written.size && modified == written.modified
    }
}

public extension SystemCalls {
    func open(_ path: String, flags: Int32) throws(SystemError) -> Int32 { try open(path, flags: flags, mode: 0) }

    /// A default so that fakes that do not care get the real processor's.
    func hardwareCapabilities() -> UInt64 { UInt64(motionkiosk_hwcap()) }

    /// Takes the open file's advisory lock without waiting (flock): false only when another
    /// process holds it. Other failures (a file system without locks) do not stop the kiosk.
    /// A default so that fakes without locks need not write one.
    func lockExclusively(_ fd: Int32) -> Bool { true }

    /// Readable at once: a default for fakes whose reads never block (they answer or fail).
    func waitReadable(_ fd: Int32, microseconds: Int64) throws(SystemError) -> Bool { true }
    func waitReadable(anyOf fds: [Int32], microseconds: Int64) throws(SystemError) -> Bool { !fds.isEmpty }

    /// Sets an open file's permission bits, whatever the process's umask took away (a file
    /// another service reads).
    func setMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) {
        if fchmod(fd, mode) != 0 { throw SystemError(errno: errno, attempt: "fchmod fd \(fd)") }
    }

    /// Moves a file (replacing `to`).
    func rename(_ from: String, to: String) throws(SystemError) {
        if PathBytes.withCString(from, { f in PathBytes.withCString(to) { Glibc.rename(f, $0) } }) != 0 { throw SystemError(errno: errno, attempt: "rename \(from) to \(to)") }
    }

    /// Creates a folder; one that exists already is fine.
    func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        if PathBytes.withCString(path, { mkdir($0, mode) }) != 0 && errno != EEXIST { throw SystemError(errno: errno, attempt: "create \(path)") }
    }

    /// Creates a folder that was not there: anything already at `path` (a symbolic link
    /// someone put there) is an error, EEXIST.
    func makeNewDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        if PathBytes.withCString(path, { mkdir($0, mode) }) != 0 { throw SystemError(errno: errno, attempt: "create \(path)") }
    }

    /// Removes a file, if it is there (nothing to say if not: the caller tidies up).
    func removeFile(_ path: String) { _ = PathBytes.withCString(path) { unlink($0) } }

    /// Removes an empty folder, if it is there.
    func removeDirectory(_ path: String) { _ = PathBytes.withCString(path) { rmdir($0) } }

    func syncFile(_ fd: Int32, named name: String) throws(SystemError) {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            // A folder on a file system that cannot sync folders (some FUSE, 9p) says EINVAL:
            // its entries are as durable as that file system makes them.
            if errno == EINVAL { return }
            throw SystemError(errno: errno, attempt: "fsync \(name)")
        }
    }

    func createUniqueFile(besides path: String) throws(SystemError) -> (fd: Int32, path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // mkstemp: O_CREAT|O_EXCL (a symbolic link there is EEXIST, never followed), mode 0600.
        var template = PathBytes.bytes(folder + "." + name + ".XXXXXX").map { CChar(bitPattern: $0) } + [0]
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 { throw SystemError(errno: errno, attempt: "create a temporary file beside \(path)") }
        // The kiosk starts again by exec: no descriptor may leak into it.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let created = PathBytes.string(template.dropLast().map { UInt8(bitPattern: $0) })
        return (fd, created)
    }

    func status(of path: String) -> FileStatus? {
        var info = stat()
        return PathBytes.withCString(path) { lstat($0, &info) } == 0 ? FileStatus(info) : nil
    }

    func status(of fd: Int32) -> FileStatus? {
        var info = stat()
        return fstat(fd, &info) == 0 ? FileStatus(info) : nil
    }

    func kindAndSize(of fd: Int32, named name: String) throws(SystemError) -> (kind: FileKind, size: Int64) {
        var info = stat()
        if fstat(fd, &info) != 0 { throw SystemError(errno: errno, attempt: "fstat \(name)") }
        return (FileKind(mode: info.st_mode), Int64(info.st_size))
    }

    func read(_ fd: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError(errno: errno, attempt: "read fd \(fd) at \(offset)")
        }
    }
}

/// The real kernel.
public final class LinuxSystem: SystemCalls {
    public static let shared = LinuxSystem()
    public init() {}

    public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        let fd = PathBytes.withCString(path) { Glibc.open($0, flags | O_CLOEXEC, mode) }
        if fd < 0 { throw SystemError(errno: Glibc.errno, attempt: "open \(path)") }
        return fd
    }
    public func close(_ fd: Int32) { _ = Glibc.close(fd) }
    public func lockExclusively(_ fd: Int32) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Glibc.errno == EINTR { continue }
            return Glibc.errno != EWOULDBLOCK
        }
        return true
    }

    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if Glibc.errno == EINTR { continue }
            throw SystemError(errno: Glibc.errno, attempt: "read fd \(fd)")
        }
    }
    public func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = Glibc.write(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if Glibc.errno == EINTR { continue }
            throw SystemError(errno: Glibc.errno, attempt: "write fd \(fd)")
        }
    }
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32 {
        while true {
            let r = motionkiosk_ioctl(fd, request, arg)
            if r >= 0 { return r }
            if Glibc.errno == EINTR { continue }
            throw SystemError(errno: Glibc.errno, attempt: what)
        }
    }
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        guard let p = Glibc.mmap(nil, length, protection, flags, fd, off_t(offset)), p != MAP_FAILED else {
            throw SystemError(errno: Glibc.errno, attempt: "mmap \(length) bytes of fd \(fd)")
        }
        return p
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { _ = Glibc.munmap(address, length) }
    public func waitReadable(_ fd: Int32, microseconds: Int64) throws(SystemError) -> Bool {
        try waitReadable(anyOf: [fd], microseconds: microseconds)
    }
    public func waitReadable(anyOf fds: [Int32], microseconds: Int64) throws(SystemError) -> Bool {
        // Whole milliseconds, rounded up (poll's unit), and never more than a day at a time.
        let milliseconds = Int32(min(max(0, microseconds) / 1000 + (microseconds % 1000 > 0 ? 1 : 0), 86_400_000))
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let r = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if r >= 0 { return r > 0 }
            if Glibc.errno == EINTR { continue }
            throw SystemError(errno: Glibc.errno, attempt: "poll fds " + fds.map { String($0) }.joined(separator: " "))
        }
    }

    /// From now on the C library serves allocations of `bytes` or more by mmap, and freeing
    /// one unmaps it (glibc would raise that threshold after the first such free).
    public func serveAllocationsByMmap(from bytes: Int32) { _ = motionkiosk_set_mmap_threshold(bytes) }

    public func readSmallFile(_ path: String) throws(SystemError) -> String? {
        let fd = PathBytes.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if Glibc.errno == ENOENT { return nil }
            throw SystemError(errno: Glibc.errno, attempt: "open \(path)")
        }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                throw SystemError(errno: Glibc.errno, attempt: "read \(path)")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    public func writeSmallFile(_ path: String, _ text: String) throws(SystemError) {
        let fd = PathBytes.withCString(path) { Glibc.open($0, O_WRONLY | O_CLOEXEC) }
        if fd < 0 { throw SystemError(errno: Glibc.errno, attempt: "open \(path) for writing") }
        defer { Glibc.close(fd) }
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if n < 0 { throw SystemError(errno: Glibc.errno, attempt: "write '\(text)' to \(path)") }
    }
    public func listDirectory(_ path: String) -> [String] {
        guard let dir = PathBytes.withCString(path, { opendir($0) }) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
    public func fileExists(_ path: String) -> Bool { PathBytes.withCString(path) { access($0, F_OK) } == 0 }
}

/// CLOCK_MONOTONIC in microseconds. Free of state, so a reader thread may call it too; the
/// loop's `Clock` reads the same clock through the event seam.
public func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// CLOCK_BOOTTIME in microseconds: time since boot, suspend included, the clock /proc counts
/// a process's start time on.
public func bootTimeMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_BOOTTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// Whether this process has group `name` among its groups; nil when no such group exists.
/// Tells "add the user to the group" apart from "something else (a device policy) denies".
public func processIsInGroup(_ name: String) -> Bool? {
    guard let entry = getgrnam(name) else { return nil }
    let gid = entry.pointee.gr_gid
    if getegid() == gid { return true }
    let count = getgroups(0, nil)
    guard count > 0 else { return false }
    var groups = [gid_t](repeating: 0, count: Int(count))
    let n = getgroups(count, &groups)
    return n > 0 && groups.prefix(Int(n)).contains(gid)
}
