#if canImport(Glibc)
import Glibc
#endif
import Syscalls
import SystemFakes
import Testing

/// `writeFileAtomically`: every file the kiosk replaces (metrics, screenshots, the pid file,
/// black-box files) is the old one or the new one, never half, never someone else's.
@Suite struct FileReplacementTests {
    func contents(_ path: String) -> String? { try? LinuxSystem.shared.readSmallFile(path) }

    @Test func theNewFileIsSyncedBeforeItsRenameAndTheFolderAfter() throws {
        let tree = TempTree()
        let path = tree.path("stand.prom")
        tree.write("stand.prom", "old\n")
        let disk = FileSystemWithFaults()
        try writeFileAtomically(path, "new\n", system: disk)
        #expect(contents(path) == "new\n")
        #expect(LinuxSystem.shared.listDirectory(tree.root) == ["stand.prom"], "no temporary file is left")
        let temporary = try #require(disk.subjects(of: .syncFile).first)
        #expect(temporary.hasPrefix(tree.path(".stand.prom.")) && temporary.utf8.count == path.utf8.count + 8)
        // Data synced, then renamed, then the folder's entry synced.
        let order = disk.calls.filter { $0.hasPrefix("syncFile") || $0.hasPrefix("rename") }
        #expect(order == ["syncFile \(temporary)", "rename \(temporary) \(path)", "syncFile \(tree.root)"], "\(disk.calls)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644, "readable by node_exporter whatever the umask")
    }

    /// Anyone who can write the folder (node_exporter's textfile directory) could plant a
    /// link at the old fixed temporary name and have the kiosk overwrite any file it can write.
    @Test func aSymbolicLinkAtTheTemporaryNameIsNeverFollowed() throws {
        let tree = TempTree()
        tree.write("victim", "precious\n")
        let path = tree.path("stand.prom")
        #expect(symlink(tree.path("victim"), path + ".tmp") == 0)
        try writeFileAtomically(path, "metrics\n", system: LinuxSystem.shared)
        #expect(contents(tree.path("victim")) == "precious\n")
        #expect(contents(path) == "metrics\n")
    }

    @Test func twoWritersOfOnePathNeverShareATemporaryFile() throws {
        let tree = TempTree()
        let path = tree.path("stand.prom")
        let a = try LinuxSystem.shared.createUniqueFile(besides: path)
        let b = try LinuxSystem.shared.createUniqueFile(besides: path)
        defer { close(a.fd); close(b.fd); unlink(a.path); unlink(b.path) }
        #expect(a.path != b.path)
        // A name already taken is never opened again.
        #expect(open(a.path, O_WRONLY | O_CREAT | O_EXCL, 0o600) < 0 && errno == EEXIST)
    }

    /// Each step failing: the error names the file, the old file stays whole, no temporary
    /// file is left behind.
    @Test(arguments: [SystemCallLog.Call.createUniqueFile, .setMode, .write, .syncFile, .rename])
    func aFailureLeavesTheOldFileAndNoTemporary(_ call: SystemCallLog.Call) throws {
        let tree = TempTree()
        let path = tree.path("stand.prom")
        tree.write("stand.prom", "old\n")
        let disk = FileSystemWithFaults()
        disk.fail(call, errno: call == .write ? ENOSPC : EIO)
        var failure: SystemError?
        do { try writeFileAtomically(path, String(repeating: "x", count: 10_000), system: disk) } catch { failure = error }
        let error = try #require(failure, "\(call) failed: the write says so")
        #expect(error.errno == (call == .write ? ENOSPC : EIO))
        #expect(error.description.contains(path), "\(error)")
        #expect(contents(path) == "old\n")
        #expect(LinuxSystem.shared.listDirectory(tree.root) == ["stand.prom"], "\(call): \(LinuxSystem.shared.listDirectory(tree.root))")
    }

    @Test func aFolderThatCannotBeSyncedIsReportedAfterTheRename() throws {
        let tree = TempTree()
        let path = tree.path("stand.prom")
        let disk = FileSystemWithFaults()
        disk.fail(.syncFile, nth: 2, errno: EIO)
        var failure: SystemError?
        do { try writeFileAtomically(path, "new\n", system: disk) } catch { failure = error }
        #expect(failure?.errno == EIO && failure?.description.contains(tree.root) == true)
        #expect(contents(path) == "new\n", "the new file is in place; only its durability is in doubt")
        #expect(LinuxSystem.shared.listDirectory(tree.root) == ["stand.prom"])
    }

    @Test func aFullDiskAfterPartOfTheWriteLeavesNothingHalfWritten() throws {
        let tree = TempTree()
        let path = tree.path("screen.png")
        tree.write("screen.png", "old picture")
        let disk = FileSystemWithFaults()
        // A short write (the seam writes 64 kB at most here) then ENOSPC on the next.
        disk.fail(.write, nth: 2, errno: ENOSPC)
        let big = [UInt8](repeating: 7, count: 1 << 20)
        var failure: SystemError?
        do { try writeFileAtomically(path, bytes: big, system: ShortWrites(disk)) } catch { failure = error }
        #expect(failure?.errno == ENOSPC)
        #expect(contents(path) == "old picture")
        #expect(LinuxSystem.shared.listDirectory(tree.root) == ["screen.png"])
    }
}

/// Writes at most 64 kB per call, as a pipe or a full disk's last blocks do.
private final class ShortWrites: SystemCalls, @unchecked Sendable {
    let base: FileSystemWithFaults
    init(_ base: FileSystemWithFaults) { self.base = base }
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try base.write(fd, from: UnsafeRawBufferPointer(rebasing: buffer.prefix(65_536)))
    }
    func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 { try base.open(path, flags: flags, mode: mode) }
    func close(_ fd: Int32) { base.close(fd) }
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int { try base.read(fd, into: buffer) }
    func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32 { try base.ioctl(fd, request, arg, what: what) }
    func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        try base.mmap(length: length, protection: protection, flags: flags, fd: fd, offset: offset)
    }
    func munmap(_ address: UnsafeMutableRawPointer, length: Int) { base.munmap(address, length: length) }
    func readSmallFile(_ path: String) throws(SystemError) -> String? { try base.readSmallFile(path) }
    func writeSmallFile(_ path: String, _ text: String) throws(SystemError) { try base.writeSmallFile(path, text) }
    func listDirectory(_ path: String) -> [String] { base.listDirectory(path) }
    func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    func rename(_ from: String, to: String) throws(SystemError) { try base.rename(from, to: to) }
    func removeFile(_ path: String) { base.removeFile(path) }
    func syncFile(_ fd: Int32, named name: String) throws(SystemError) { try base.syncFile(fd, named: name) }
    func createUniqueFile(besides path: String) throws(SystemError) -> (fd: Int32, path: String) { try base.createUniqueFile(besides: path) }
    func setMode(_ fd: Int32, _ mode: mode_t) throws(SystemError) { try base.setMode(fd, mode) }
}
