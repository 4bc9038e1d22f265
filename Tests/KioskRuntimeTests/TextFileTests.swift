#if canImport(Glibc)
import Glibc
#endif
import KioskRuntime
import Testing

/// A configuration or a trace named on the command line may be anything: a device, a FIFO,
/// a directory, a huge file. None may block the kiosk or exhaust its memory.
@Suite struct TextFileTests {
    private func refusal(_ path: String, limit: Int = TextFileLimit.configuration) -> String? {
        do { _ = try readTextFile(path, limit: limit); return nil } catch { return error.reason }
    }

    @Test func devicesDirectoriesAndFIFOsAreRefusedWithoutBlocking() {
        #expect(refusal("/dev/zero") == "is a character device, not a regular file")
        #expect(refusal("/tmp") == "is a directory, not a regular file")
        let fifo = "/tmp/motionkiosk-fifo-\(getpid())"
        mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        // Nobody writes to it: a blocking open or read would hang this test.
        #expect(refusal(fifo) == "is a FIFO, not a regular file")
        #expect(refusal("/nonexistent/config.toml") == "No such file or directory")
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let path = "/tmp/motionkiosk-big-\(getpid()).toml"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(fd >= 0)
        ftruncate(fd, 3 << 20)   // sparse: 3 MB of zeros, no disk used
        close(fd)
        defer { unlink(path) }
        #expect(refusal(path) == "is 3 MB, more than the 1 MB allowed")
        // Under the limit it is read (and then refused as text only for what it holds).
        #expect(refusal(path, limit: 4 << 20) == nil)
    }

    @Test func invalidUTF8IsNamedByLineAndColumn() throws {
        let path = "/tmp/motionkiosk-utf8-\(getpid()).toml"
        defer { unlink(path) }
        let bytes: [UInt8] = Array("[text.fr]\n\"a\" = \"é".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        var reason = ""
        do { _ = try readTextFile(path) } catch { reason = error.reason }
        #expect(reason == "not UTF-8 text: line 2, column 9 has the byte 0xC3")
    }

    @Test func textIsReadWhole() throws {
        let path = "/tmp/motionkiosk-text-\(getpid()).toml"
        let f = fopen(path, "wb"); fputs("[display]\nrotation = 90\n", f); fclose(f)
        defer { unlink(path) }
        #expect(try readTextFile(path) == "[display]\nrotation = 90\n")
    }
}
