#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The system's files as seen under `root` (a `TempTree`): "/sys/class/rtc" is
/// `<root>/sys/class/rtc`. Reads, listings and existence only; every other call fails
/// with ENOSYS, so a reader that should only look is held to that.
public final class RootedFolders: SystemCalls, @unchecked Sendable {
    public let root: String
    private let real = LinuxSystem.shared
    public init(root: String) { self.root = root }
    private func under(_ path: String) -> String { root + path }
    private func refused(_ what: String) -> SystemError { SystemError(errno: ENOSYS, attempt: what) }

    public func readSmallFile(_ path: String) throws(SystemError) -> String? { try real.readSmallFile(under(path)) }
    public func listDirectory(_ path: String) -> [String] { real.listDirectory(under(path)) }
    public func fileExists(_ path: String) -> Bool { real.fileExists(under(path)) }

    public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 { throw refused("open \(path)") }
    public func close(_ fd: Int32) {}
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int { throw refused("read") }
    public func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int { throw refused("write") }
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32 { throw refused(what) }
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer { throw refused("mmap") }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) {}
    public func writeSmallFile(_ path: String, _ text: String) throws(SystemError) { throw refused("write \(path)") }
}
