#if canImport(Glibc)
import Glibc
#endif
import Syscalls
import Testing

/// The zone file glibc would read, found and checked before the first local-time lookup.
@Suite struct ZoneFileGuardTests {
    @Test func theFileIsFoundAsGlibcFindsIt() {
        #expect(ZoneFileGuard.file(tz: nil, tzdir: nil) == "/etc/localtime")
        #expect(ZoneFileGuard.file(tz: "", tzdir: nil) == "/usr/share/zoneinfo/Universal")
        #expect(ZoneFileGuard.file(tz: ":", tzdir: nil) == nil)
        #expect(ZoneFileGuard.file(tz: "Europe/Berlin", tzdir: nil) == "/usr/share/zoneinfo/Europe/Berlin")
        #expect(ZoneFileGuard.file(tz: ":Europe/Berlin", tzdir: "/opt/zones") == "/opt/zones/Europe/Berlin")
        #expect(ZoneFileGuard.file(tz: ":/tmp/zone", tzdir: "/opt/zones") == "/tmp/zone")
        #expect(ZoneFileGuard.file(tz: "/tmp/zone", tzdir: "") == "/tmp/zone")
    }

    @Test func onlyARegularFileOrNoFileIsAccepted() {
        let kinds: [String: FileKind] = ["/z/fifo": .fifo, "/z/dev": .characterDevice, "/z/dir": .directory, "/z/Berlin": .regular,
                                         "/etc/localtime": .fifo]
        let kind: (String) -> FileKind? = { kinds[$0] }
        #expect(ZoneFileGuard.problem(tz: ":/z/fifo", tzdir: nil, kind: kind) == "TZ=:/z/fifo names /z/fifo, which is a FIFO, not a zone file")
        #expect(ZoneFileGuard.problem(tz: "dev", tzdir: "/z", kind: kind) == "TZ=dev names /z/dev, which is a character device, not a zone file")
        #expect(ZoneFileGuard.problem(tz: "dir", tzdir: "/z", kind: kind) != nil)
        #expect(ZoneFileGuard.problem(tz: "Berlin", tzdir: "/z", kind: kind) == nil)
        // No such file: glibc reads TZ as a rule (CET-1CEST…) or uses UTC.
        #expect(ZoneFileGuard.problem(tz: "CET-1CEST,M3.5.0,M10.5.0/3", tzdir: "/z", kind: kind) == nil)
        #expect(ZoneFileGuard.problem(tz: nil, tzdir: nil, kind: kind) == "the system's time zone /etc/localtime is a FIFO, not a zone file")
    }

    @Test func aRealFIFOIsSeenAsOne() {
        let fifo = "/tmp/motionkiosk-tz-fifo-\(getpid())"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        #expect(FileKind.of(fifo) == .fifo)
        #expect(ZoneFileGuard.problem(tz: ":" + fifo, tzdir: nil) != nil)
        #expect(FileKind.of("/nonexistent/zone") == nil)
    }
}
