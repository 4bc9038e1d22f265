#if canImport(Glibc)
import Glibc
#endif
import KioskRuntime
import Testing
import Trace

/// Replay reads a trace a chunk at a time: the records and errors must be exactly those of
/// reading the whole text, across chunk boundaries, whatever the line endings.
@Suite struct TraceFileStreamTests {
    private func write(_ text: String, _ name: String) -> String {
        let path = "/tmp/motionkiosk-stream-\(getpid())-\(name).jsonl"
        let f = fopen(path, "wb")
        _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, f) }
        fclose(f)
        return path
    }

    private func streamed(_ path: String, warn: ((String) -> Void)? = nil) -> (records: [TraceRecord], failure: TraceError?) {
        guard let stream = try? TraceFileStream(path: path, warn: warn) else { return ([], nil) }
        var records: [TraceRecord] = []
        while let r = stream.nextRecord() { records.append(r) }
        return (records, stream.failure)
    }

    @Test func manyChunksGiveTheRecordsOfTheWholeText() throws {
        // ~3 MB: fifty 64 kB chunks, lines cut at every possible place; CRLF on odd lines.
        var text = "{\"trace\":\"motionkiosk\",\"version\":1,\"width\":480,\"height\":800}\n# recorded\n"
        for i in 0..<40_000 {
            let end = i % 2 == 0 ? "\n" : "\r\n"
            text += "{\"t\":\(i),\"type\":\"touch\",\"phase\":\"move\",\"id\":\(i % 5),\"x\":\(i % 480).5,\"y\":\(i % 800)}" + end
        }
        text += "{\"t\":40000,\"type\":\"checkpoint\",\"name\":\"end\"}\n"
        let path = write(text, "many")
        defer { unlink(path) }
        let whole = try TraceReader.trace(in: text, source: path)
        let (records, failure) = streamed(path)
        #expect(failure == nil)
        #expect(records.count == 40_001)
        #expect(records == whole.records)
        let checked = try TraceFileStream.check(path: path)
        #expect(checked.records == 40_001 && checked.header.width == 480)
    }

    @Test func aBadLineDeepInTheFileNamesItsLine() throws {
        var text = ""
        for i in 0..<10_000 { text += "{\"t\":\(i),\"type\":\"checkpoint\",\"name\":\"c\"}\n" }
        text += "{\"t\":10000,\"type\":\"touch\"}\n"
        let path = write(text, "bad")
        defer { unlink(path) }
        #expect(throws: TraceError.self) { try TraceFileStream.check(path: path) }
        #expect(streamed(path).failure?.line == 10_001)
    }

    @Test func aCutLastLineIsLeftOutWithAWarningOnlyWhenAsked() throws {
        let text = "{\"t\":0,\"type\":\"checkpoint\",\"name\":\"a\"}\n{\"t\":5,\"type\":\"tou"
        let path = write(text, "cut")
        defer { unlink(path) }
        var warnings: [String] = []
        let (records, failure) = streamed(path, warn: { warnings.append($0) })
        #expect(records.count == 1 && failure == nil)
        #expect(warnings.count == 1 && warnings[0].contains(":2: the last line is cut short"))
        #expect(streamed(path).failure?.line == 2)
    }

    @Test func aLineLongerThanAnyRecorderWritesEndsTheStream() throws {
        let text = "{\"t\":0,\"type\":\"checkpoint\",\"name\":\"" + String(repeating: "x", count: 2 << 20) + "\"}\n"
        let path = write(text, "long")
        defer { unlink(path) }
        let failure = streamed(path).failure
        #expect(failure?.line == 1)
        #expect(failure?.problem.contains("longer than 1 MB") == true)
    }

    @Test func notUTF8NamesTheLine() throws {
        let path = write("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"a\"}\n", "utf8")
        defer { unlink(path) }
        let f = fopen(path, "ab"); fputs("{\"t\":1,\"type\":\"checkpoint\",\"name\":\"", f); fputc(0xFF, f); fputs("\"}\n", f); fclose(f)
        let failure = streamed(path).failure
        #expect(failure?.line == 2 && failure?.problem == "not UTF-8 text")
    }

    /// A recording cut by a power cut or a full disk: `replay` checks it (one warning), then
    /// plays it to the line before, as the warning says, instead of refusing it.
    @Test func aCutTraceThatTheCheckAcceptsPlaysToTheLineBefore() throws {
        let whole = "{\"t\":0,\"type\":\"checkpoint\",\"name\":\"a\"}\n{\"t\":5,\"type\":\"touch\",\"phase\":\"down\",\"id\":0,\"x\":1,\"y\":2}\n"
        for cut in ["{\"t\":9,\"type\":\"tou", "{\"t\":9,\"type\":\"checkpoint\",\"name\":\"caf\u{E9}\"}"] {
            let path = write(whole + cut, "cut-play")
            defer { unlink(path) }
            // Cut inside the two bytes of "é": no longer UTF-8.
            if cut.contains("caf") { _ = truncate(path, off_t(whole.utf8.count + cut.utf8.count - 3)) }
            var warnings: [String] = []
            let checked = try TraceFileStream.check(path: path, warn: { warnings.append($0) })
            #expect(checked.records == 2 && warnings.count == 1 && warnings.first?.contains(":3: the last line is cut short") == true, "\(warnings)")
            let stream = try TraceFileStream.forPlaying(checked: path)
            var played = 0
            while stream.nextRecord() != nil { played += 1 }
            #expect(played == 2 && stream.failure == nil, "\(String(describing: stream.failure))")
        }
    }

}
