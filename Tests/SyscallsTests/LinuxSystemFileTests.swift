#if canImport(Glibc)
import Glibc
#endif
import Syscalls
import SystemFakes
import Testing

/// `LinuxSystem`'s file calls against the real kernel, in a temporary folder: what each
/// returns, what its error names, and the promises the rest of the kiosk relies on (no
/// descriptor leaks into an exec, a missing small file is nil, a lock is per open file).
@Suite struct LinuxSystemFileTests {
    let system = LinuxSystem.shared

    @Test func aFileWrittenAndReadBackThroughTheSeam() throws {
        let tree = TempTree()
        let path = tree.path("note.txt")
        let fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        try writeAll(Array("hello, stand\n".utf8), to: fd, named: path, system: system)
        system.close(fd)
        let input = try system.open(path, flags: O_RDONLY)
        defer { system.close(input) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { try system.read(input, into: $0) }
        #expect(String(decoding: buffer[0..<n], as: UTF8.self) == "hello, stand\n")
        #expect(try buffer.withUnsafeMutableBytes { try system.read(input, into: $0) } == 0, "then the end")
    }

    @Test func everyDescriptorIsClosedOnExec() throws {
        let tree = TempTree()
        tree.write("a", "x")
        let fd = try system.open(tree.path("a"), flags: O_RDONLY)
        defer { system.close(fd) }
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "the kiosk starts again by exec: nothing may leak into it")
        let made = try system.createUniqueFile(besides: tree.path("b"))
        defer { system.close(made.fd) }
        #expect(fcntl(made.fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aFailedOpenNamesThePathAndTheReason() {
        let tree = TempTree()
        let path = tree.path("missing/stand.toml")
        #expect(throws: SystemError(errno: ENOENT, attempt: "open \(path)")) { try system.open(path, flags: O_RDONLY) }
        do { _ = try system.open(path, flags: O_RDONLY) } catch {
            #expect(error.description == "open \(path): No such file or directory")
        }
    }

    @Test func readingAtAnOffsetLeavesThePositionAlone() throws {
        let tree = TempTree()
        tree.write("abc", "abcdef")
        let fd = try system.open(tree.path("abc"), flags: O_RDONLY)
        defer { system.close(fd) }
        var one: UInt8 = 0
        let n = try withUnsafeMutableBytes(of: &one) { try system.read(fd, at: 4, into: $0) }
        #expect(n == 1 && one == UInt8(ascii: "e"))
        var first: UInt8 = 0
        _ = try withUnsafeMutableBytes(of: &first) { try system.read(fd, into: $0) }
        #expect(first == UInt8(ascii: "a"))
    }

    @Test func smallFilesAreWholeOrNilWhenMissing() throws {
        let tree = TempTree()
        tree.write("sys/name", "lis3dh\n")
        #expect(try system.readSmallFile(tree.path("sys/name")) == "lis3dh\n")
        #expect(try system.readSmallFile(tree.path("sys/absent")) == nil)
        // A folder opens but cannot be read: an error, not nil, not a hang.
        #expect(throws: SystemError(errno: EISDIR, attempt: "read \(tree.path("sys"))")) { try system.readSmallFile(tree.path("sys")) }
        try system.writeSmallFile(tree.path("sys/name"), "bmp280")
        #expect(try system.readSmallFile(tree.path("sys/name")) == "bmp280\n", "sysfs-like: written over, not truncated")
        #expect(throws: SystemError(errno: ENOENT, attempt: "open \(tree.path("sys/absent")) for writing")) {
            try system.writeSmallFile(tree.path("sys/absent"), "1")
        }
    }

    @Test func foldersListSortedWithoutDotsAndMissingOnesAreEmpty() {
        let tree = TempTree()
        for name in ["i2c-10", "i2c-2", ".hidden", "card0"] { tree.write("dev/" + name, "") }
        #expect(system.listDirectory(tree.path("dev")) == [".hidden", "card0", "i2c-10", "i2c-2"])
        #expect(system.listDirectory(tree.path("nowhere")).isEmpty)
        #expect(system.fileExists(tree.path("dev/card0")) && !system.fileExists(tree.path("dev/card1")))
    }

    @Test func foldersAreMadeRenamedAndRemoved() throws {
        let tree = TempTree()
        let folder = tree.path("dumps")
        try system.makeDirectory(folder, mode: 0o750)
        try system.makeDirectory(folder, mode: 0o750)   // there already: fine
        #expect(throws: SystemError(errno: EEXIST, attempt: "create \(folder)")) { try system.makeNewDirectory(folder, mode: 0o750) }
        tree.write("dumps/a", "1")
        try system.rename(tree.path("dumps/a"), to: tree.path("dumps/b"))
        #expect(system.listDirectory(folder) == ["b"])
        #expect(throws: SystemError(errno: ENOENT, attempt: "rename \(tree.path("dumps/a")) to \(tree.path("dumps/c"))")) {
            try system.rename(tree.path("dumps/a"), to: tree.path("dumps/c"))
        }
        system.removeDirectory(folder)
        #expect(system.fileExists(folder), "a folder with a file in it stays")
        system.removeFile(tree.path("dumps/b"))
        system.removeFile(tree.path("dumps/b"))          // gone already: nothing to say
        system.removeDirectory(folder)
        #expect(!system.fileExists(folder))
    }

    /// fchmod, not the umask, decides (the umask is the process's: not changed here, tests run
    /// side by side).
    @Test func theModeIsSetOnTheOpenFile() throws {
        let tree = TempTree()
        let fd = try system.open(tree.path("m.prom"), flags: O_WRONLY | O_CREAT, mode: 0o600)
        defer { system.close(fd) }
        var info = stat()
        #expect(fstat(fd, &info) == 0 && info.st_mode & 0o777 == 0o600)
        try system.setMode(fd, 0o644)
        #expect(fstat(fd, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(throws: SystemError(errno: EBADF, attempt: "fchmod fd -1")) { try system.setMode(-1, 0o644) }
    }

    @Test func aUniqueFileIsHiddenBesideItsPathPrivateAndNew() throws {
        let tree = TempTree()
        let made = try system.createUniqueFile(besides: tree.path("screen.png"))
        defer { system.close(made.fd); system.removeFile(made.path) }
        #expect(made.path.hasPrefix(tree.path(".screen.png.")) && made.path.utf8.count == tree.path(".screen.png.").utf8.count + 6)
        var info = stat()
        #expect(fstat(made.fd, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(throws: SystemError.self) { try system.createUniqueFile(besides: tree.path("no-folder/screen.png")) }
    }

    @Test func statusSaysWhichFileItIsAndALinkIsNotFollowed() throws {
        let tree = TempTree()
        tree.write("metrics.prom", "a 1\n")
        let path = tree.path("metrics.prom")
        #expect(symlink(path, tree.path("link")) == 0)
        let file = try #require(system.status(of: path))
        #expect(file.kind == .regular && file.size == 4)
        #expect(system.status(of: tree.path("link"))?.kind == .symbolicLink)
        #expect(system.status(of: tree.root)?.kind == .directory)
        #expect(system.status(of: tree.path("none")) == nil)
        let fd = try system.open(path, flags: O_RDONLY)
        defer { system.close(fd) }
        #expect(system.status(of: fd) == file)
        #expect(file.isUnchanged(since: file))
        // Replaced by another file of the same size: not the one written.
        tree.remove("metrics.prom")
        tree.write("metrics.prom", "b 2\n")
        let other = try #require(system.status(of: path))
        #expect(!other.isUnchanged(since: file) || other.inode != file.inode)
    }

    @Test func kindAndSizeOfAnOpenFileAreWhatFstatSays() throws {
        let tree = TempTree()
        tree.write("font.ttf", "12345")
        #expect(mkfifo(tree.path("fifo"), 0o600) == 0)
        func look(_ path: String) throws -> (FileKind, Int64) {
            let fd = try system.open(path, flags: O_RDONLY | O_NONBLOCK)
            defer { system.close(fd) }
            let (kind, size) = try system.kindAndSize(of: fd, named: path)
            return (kind, size)
        }
        #expect(try look(tree.path("font.ttf")) == (.regular, 5))
        #expect(try look(tree.path("fifo")).0 == .fifo, "opened without blocking, told apart before any read")
        #expect(try look("/dev/null").0 == .characterDevice)
        #expect(try look(tree.root).0 == .directory)
        #expect(throws: SystemError(errno: EBADF, attempt: "fstat closed")) { try system.kindAndSize(of: -1, named: "closed") }
    }

    @Test func aLockIsHeldPerOpenFileUntilItIsClosed() throws {
        let tree = TempTree()
        tree.write("card0", "")
        let first = try system.open(tree.path("card0"), flags: O_RDWR)
        let second = try system.open(tree.path("card0"), flags: O_RDWR)
        defer { system.close(second) }
        #expect(system.lockExclusively(first))
        #expect(!system.lockExclusively(second), "another open file: another kiosk")
        system.close(first)
        #expect(system.lockExclusively(second), "the lock goes with the descriptor")
    }

    @Test func aFileIsSyncedAndAPipeThatCannotBeIsNoError() throws {
        let tree = TempTree()
        let fd = try system.open(tree.path("m"), flags: O_WRONLY | O_CREAT, mode: 0o600)
        defer { system.close(fd) }
        try system.syncFile(fd, named: "m")
        try syncFolder(containing: tree.path("m"), system: system)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        try system.syncFile(ends[1], named: "pipe")   // EINVAL: nothing to make durable
        #expect(throws: SystemError(errno: EBADF, attempt: "fsync gone")) { try system.syncFile(-1, named: "gone") }
    }

    @Test func aMappedFileShowsItsBytes() throws {
        let tree = TempTree()
        tree.write("glyphs", "ABCDEFGH")
        let fd = try system.open(tree.path("glyphs"), flags: O_RDONLY)
        defer { system.close(fd) }
        let p = try system.mmap(length: 8, protection: PROT_READ, flags: MAP_PRIVATE, fd: fd, offset: 0)
        #expect(p.load(fromByteOffset: 2, as: UInt8.self) == UInt8(ascii: "C"))
        system.munmap(p, length: 8)
        #expect(throws: SystemError.self) { try system.mmap(length: 8, protection: PROT_READ, flags: MAP_PRIVATE, fd: -1, offset: 0) }
    }
}

/// Waiting, ioctls and errors on pipes and the kernel's own descriptors.
@Suite struct LinuxSystemDescriptorTests {
    let system = LinuxSystem.shared

    func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        for fd in ends { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    @Test func anEmptyPipeTimesOutAndAWrittenOneIsReadable() throws {
        let a = makePipe(), b = makePipe()
        defer { for fd in [a.read, a.write, b.read, b.write] { close(fd) } }
        let start = monotonicMicroseconds()
        #expect(try !system.waitReadable(a.read, microseconds: 20_000))
        #expect(monotonicMicroseconds() - start >= 19_000, "waited, rounded up to poll's milliseconds")
        #expect(try !system.waitReadable(anyOf: [a.read, b.read], microseconds: 1))
        _ = try [UInt8(7)].withUnsafeBytes { try system.write(b.write, from: $0) }
        #expect(try system.waitReadable(anyOf: [a.read, b.read], microseconds: 1_000_000))
        #expect(try system.waitReadable(b.read, microseconds: 0))
        #expect(try !system.waitReadable(anyOf: [], microseconds: 1), "nothing to wait for: just the time")
    }

    @Test func readingAnEmptyNonBlockingPipeSaysEAGAIN() {
        let p = makePipe()
        defer { close(p.read); close(p.write) }
        var byte: UInt8 = 0
        #expect(throws: SystemError(errno: EAGAIN, attempt: "read fd \(p.read)")) {
            try withUnsafeMutableBytes(of: &byte) { try system.read(p.read, into: $0) }
        }
    }

    @Test func writingToAPipeNobodyReadsSaysEPIPE() {
        let p = makePipe()
        close(p.read)
        defer { close(p.write) }
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        #expect(throws: SystemError(errno: EPIPE, attempt: "write fd \(p.write)")) {
            try [UInt8(1)].withUnsafeBytes { try system.write(p.write, from: $0) }
        }
    }

    @Test func aStreamLineGoesOutWholeOrSaysItDidNot() throws {
        let p = makePipe()
        defer { close(p.write) }
        #expect(writeStandardStream(p.write, "motion: accelerometer back\n"))
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = try buffer.withUnsafeMutableBytes { try system.read(p.read, into: $0) }
        #expect(String(decoding: buffer[0..<n], as: UTF8.self) == "motion: accelerometer back\n")
        close(p.read)
        let old = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, old) }
        #expect(!writeStandardStream(p.write, "nobody reads this\n"))
    }

    @Test func anIoctlAnswersThroughItsPointerAndAWrongOneIsNamed() throws {
        let p = makePipe()
        defer { close(p.read); close(p.write) }
        _ = try Array("abc".utf8).withUnsafeBytes { try system.write(p.write, from: $0) }
        var queued: Int32 = 0
        _ = try system.ioctl(p.read, UInt(FIONREAD), &queued, what: "FIONREAD pipe")
        #expect(queued == 3)
        // KDGETMODE on something that is not a console.
        #expect(throws: SystemError(errno: ENOTTY, attempt: "KDGETMODE pipe")) {
            var mode: Int32 = 0
            _ = try system.ioctl(p.read, 0x4B3B, &mode, what: "KDGETMODE pipe")
        }
    }
}

/// epoll and timerfd as the main loop uses them.
@Suite struct LinuxEventsTests {
    @Test func aTimerWakesTheEpollWithItsTokenAndCountsItsExpirations() throws {
        let events = LinuxEvents()
        let epoll = try events.epollCreate()
        let timer = try events.timerCreate()
        defer { close(timer); close(epoll) }
        try events.epollAdd(epoll, fd: timer, token: 42)
        #expect(try events.epollWait(epoll, maxEvents: 4, timeoutMilliseconds: 0).isEmpty)
        try events.timerSet(timer, delay: 2_000, interval: 0)
        #expect(try events.epollWait(epoll, maxEvents: 4, timeoutMilliseconds: 1_000) == [42])
        #expect(events.drainTimer(timer) == 1)
        #expect(events.drainTimer(timer) == 0, "drained")
        try events.timerSet(timer, delay: 1_000, interval: 0)
        try events.timerSet(timer, delay: 0, interval: 0)      // disarmed before it fires
        #expect(try events.epollWait(epoll, maxEvents: 4, timeoutMilliseconds: 5).isEmpty)
        events.epollRemove(epoll, fd: timer)
        #expect(throws: SystemError.self) { try events.epollAdd(epoll, fd: -1, token: 1) }
    }

    @Test func theMonotonicClockNeverGoesBack() {
        let events = LinuxEvents()
        var last = events.monotonicMicroseconds()
        for _ in 0..<1000 {
            let now = events.monotonicMicroseconds()
            #expect(now >= last)
            last = now
        }
        #expect(abs(monotonicMicroseconds() - last) < 1_000_000, "one clock, read two ways")
    }

    @Test func aWallClockStepDescriptorIsQuietWhileNobodySetsTheClock() throws {
        let events = LinuxEvents()
        let fd = try events.wallClockStepDescriptor()
        defer { close(fd) }
        #expect(!events.wallClockStepped(fd))
    }
}

/// What an error says.
@Suite struct SystemErrorTests {
    @Test func theAttemptComesFirstThenTheReason() {
        let e = SystemError(errno: EACCES, attempt: "open /dev/dri/card0")
        #expect(e.description == "open /dev/dri/card0: Permission denied" && e.reason == "Permission denied")
        #expect(e == SystemError(errno: EACCES, attempt: "open /dev/dri/card0"))
        #expect(e != SystemError(errno: EPERM, attempt: "open /dev/dri/card0"))
    }

    @Test func fileKindsAreToldByPathFollowingLinks() throws {
        let tree = TempTree()
        tree.write("zone", "TZif")
        #expect(mkfifo(tree.path("fifo"), 0o600) == 0)
        #expect(symlink(tree.root, tree.path("up")) == 0)
        #expect(FileKind.of(tree.path("zone")) == .regular)
        #expect(FileKind.of(tree.path("fifo")) == .fifo)
        #expect(FileKind.of(tree.path("up")) == .directory)
        #expect(FileKind.of("/dev/null") == .characterDevice)
        #expect(FileKind.of(tree.path("none")) == nil)
        #expect("\(FileKind.fifo)" == "a FIFO" && "\(FileKind.characterDevice)" == "a character device")
        #expect(FileKind(mode: mode_t(S_IFSOCK)) == .socket && FileKind(mode: mode_t(S_IFBLK)) == .blockDevice)
    }
}
