#if canImport(Glibc)
import Glibc
#endif
import Syscalls
import Testing

/// Paths that are not UTF-8 survive the trip through a Swift String.
@Suite struct PathBytesTests {
    @Test func invalidBytesComeBackAsTheyWere() {
        for bytes: [UInt8] in [Array("/tmp/café".utf8), [0x2F, 0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE, 0x00 + 0x41], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80, 0x80]] {
            let s = PathBytes.string(bytes)
            #expect(PathBytes.bytes(s) == bytes, "\(bytes)")
            let passed = PathBytes.withCString(s) { p in Array(UnsafeBufferPointer(start: p, count: strlen(p))).map { UInt8(bitPattern: $0) } }
            #expect(passed == bytes, "\(bytes)")
        }
        #expect(PathBytes.string(Array("/tmp/café".utf8)) == "/tmp/café")
    }
}
