import Geometry
import Testing
@testable import Trace

@Suite("Trace reading")
struct TraceReadingTests {
    @Test("the issue's examples read as written")
    func issueExamples() throws {
        let text = """
        {"trace":"motionkiosk","version":1}
        {"t":0,"type":"touch","phase":"down","id":0,"x":240,"y":400}
        {"t":10,"type":"accel","x":0,"y":9.81,"z":0}
        {"t":10,"type":"pressure","kpa":101.325}
        {"t":5000,"type":"checkpoint","name":"after-spawn"}
        """
        let records = try TraceReader.records(in: text)
        #expect(records == [
            TraceRecord(t: 0, .touch(phase: .down, id: 0, x: 240, y: 400)),
            TraceRecord(t: 10, .accel(x: 0, y: 9.81, z: 0)),
            TraceRecord(t: 10, .pressure(kpa: 101.325)),
            TraceRecord(t: 5000, .checkpoint(name: "after-spawn")),
        ])
    }

    @Test("a last line cut short by a full disk is left out with a warning; elsewhere it is an error")
    func tornLastLine() throws {
        let whole = "{\"t\":10,\"type\":\"touch\",\"phase\":\"down\",\"id\":0,\"x\":1,\"y\":2}\n"
            + "{\"t\":20,\"type\":\"touch\",\"phase\":\"up\",\"id\":0,\"x\":1,\"y\":2}\n"
        let torn = whole + "{\"t\":30,\"type\":\"touch\",\"pha"
        var warnings: [String] = []
        let read = try TraceReader.trace(in: torn, source: "floor.jsonl", warn: { warnings.append($0) })
        #expect(read.records.count == 2)
        #expect(warnings.count == 1 && warnings.first?.hasPrefix("floor.jsonl:3: the last line is cut short") == true)
        // The same broken line anywhere else, or with its newline, is a broken trace; and a
        // reader that asked for no warnings gets the error.
        #expect(throws: TraceError.self) { try TraceReader.trace(in: torn + "\n", source: "floor.jsonl", warn: { _ in }) }
        #expect(throws: TraceError.self) {
            try TraceReader.trace(in: "{\"t\":30,\"type\":\"touch\",\"pha\n" + whole, source: "floor.jsonl", warn: { _ in })
        }
        #expect(throws: TraceError.self) { try TraceReader.trace(in: torn, source: "floor.jsonl") }
        // A whole line with a wrong value is no torn line.
        #expect(throws: TraceError.self) {
            try TraceReader.trace(in: whole + "{\"t\":30,\"type\":\"tilt\"}", source: "floor.jsonl", warn: { _ in })
        }
        // A whole last line without a newline is simply the last record.
        #expect(try TraceReader.trace(in: String(whole.dropLast()), source: "x").records.count == 2)
    }

    @Test("without a header the trace is version 1; blank lines, comments, CRLF and spaces are fine")
    func lenientWhitespace() throws {
        var reader = TraceReader()
        let lines = ["", "# recorded on the floor", "   ", "\t# indented comment",
                     " { \"t\" : 1.5 , \"type\":\"touch\",\"phase\":\"move\",\"id\":3,\"x\":-0.25,\"y\":1e2 }\r"]
        var records: [TraceRecord] = []
        for line in lines { if let r = try reader.read(line: Substring(line)) { records.append(r) } }
        #expect(reader.version == 1)
        #expect(records == [TraceRecord(t: 1.5, .touch(phase: .move, id: 3, x: -0.25, y: 100))])
        #expect(reader.lineNumber == 5)
    }

    @Test("equal times are one frame; other types do not split it")
    func frames() throws {
        let text = """
        {"t":0,"type":"touch","phase":"down","id":0,"x":1,"y":2}
        {"t":0,"type":"accel","x":0,"y":9.81,"z":0}
        {"t":0,"type":"touch","phase":"down","id":1,"x":3,"y":4}
        {"t":8.5,"type":"touch","phase":"move","id":0,"x":5,"y":6}
        """
        let frames = TraceRecord.touchFrames(try TraceReader.records(in: text))
        #expect(frames.count == 2)
        #expect(frames[0].t == 0 && frames[0].touches.map(\.id) == [0, 1])
        #expect(frames[1].t == 8.5 && frames[1].touches[0].x == 5)
    }

    @Test("fractions of milliseconds map to microseconds")
    func microseconds() {
        #expect(TraceRecord(t: 12.345, .pressure(kpa: 1)).microseconds == 12_345)
        #expect(TraceRecord(microseconds: 40_001, .pressure(kpa: 1)).t == 40.001)
    }

    /// Every problem the reader names, with the line it names.
    static let badLines: [(text: String, line: Int, problem: String)] = [
        ("{\"t\":0,\"type\":\"touch\"", 1, "bad JSON at column 22: line ends inside the object"),
        ("{\"t\":0 \"type\":\"touch\"}", 1, "bad JSON at column 8: expected ',' or '}'"),
        ("[1,2]", 1, "bad JSON at column 1: a trace line must be a JSON object"),
        ("{\"t\":01,\"type\":\"touch\"}", 1, "bad JSON at column 7: leading zeros are not allowed in numbers"),
        ("{\"t\":1e999,\"type\":\"touch\"}", 1, "bad JSON at column 6: number 1e999 is out of range"),
        ("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"a\\qb\"}", 1, "bad JSON at column 38: unknown escape \\q"),
        ("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"\\ud800\"}", 1, "bad JSON at column 36: unpaired surrogate in a \\u escape"),
        ("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"\\ud83e\\u0041\"}", 1, "bad JSON at column 36: unpaired surrogate in a \\u escape"),
        ("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"\\u12G4\"}", 1, "bad JSON at column 40: bad hex digit in a \\u escape"),
        ("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"tab\there\"}", 1, "bad JSON at column 39: control character inside a string"),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":{\"a\":1}}", 1, "bad JSON at column 31: nested objects and arrays are not part of the trace format"),
        ("{\"t\":0,\"t\":1,\"type\":\"touch\"}", 1, "bad JSON at column 8: duplicate key \"t\""),
        ("{\"t\":0,\"type\":\"touch\"} x", 1, "bad JSON at column 24: unexpected text after the object"),
        ("{\"t\":nul,\"type\":\"touch\"}", 1, "bad JSON at column 9: expected null"),
        ("\n\n{\"t\":0,\"type\":\"tilt\",\"x\":1}", 3, "unknown type \"tilt\" (expected touch, accel, gravity, pressure or checkpoint)"),
        ("{\"t\":0,\"phase\":\"down\"}", 1, "missing field \"type\""),
        ("{\"type\":\"pressure\",\"kpa\":100}", 1, "missing field \"t\""),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":\"down\",\"id\":0,\"x\":1}", 1, "missing field \"y\""),
        ("{\"t\":0,\"type\":\"accel\",\"x\":0,\"y\":0}", 1, "missing field \"z\""),
        ("{\"t\":0,\"type\":\"pressure\"}", 1, "missing field \"kpa\""),
        ("{\"t\":0,\"type\":\"checkpoint\"}", 1, "missing field \"name\""),
        ("{\"t\":\"0\",\"type\":\"pressure\",\"kpa\":1}", 1, "field \"t\" must be a number, not a string"),
        ("{\"t\":0,\"type\":\"checkpoint\",\"name\":null}", 1, "field \"name\" must be a string, not null"),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":\"hover\",\"id\":0,\"x\":1,\"y\":1}", 1, "unknown touch phase \"hover\" (expected down, move, up or cancel)"),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":\"down\",\"id\":1.5,\"x\":1,\"y\":1}", 1, "field \"id\" must be a non-negative integer, not 1.5"),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":\"down\",\"id\":-1,\"x\":1,\"y\":1}", 1, "field \"id\" must be a non-negative integer, not -1"),
        ("{\"t\":0,\"type\":\"pressure\",\"kpa\":1,\"unit\":\"kPa\"}", 1, "unknown field \"unit\""),
        ("{\"t\":-1,\"type\":\"pressure\",\"kpa\":1}", 1, "time -1 ms is before the start of the trace"),
        ("{\"t\":10,\"type\":\"pressure\",\"kpa\":1}\n# fine\n{\"t\":9.5,\"type\":\"pressure\",\"kpa\":1}", 3, "time goes backwards: 9.5 ms after 10 ms"),
        ("{\"trace\":\"motionkiosk\",\"version\":2}", 1, "unsupported trace version 2 (this reader knows version 1)"),
        ("{\"trace\":\"other\",\"version\":1}", 1, "not a motionkiosk trace (header says \"other\")"),
        ("{\"t\":0,\"type\":\"pressure\",\"kpa\":1}\n{\"trace\":\"motionkiosk\",\"version\":1}", 2, "the header {\"trace\":…} is only allowed on the first line"),
        ("{\"trace\":\"motionkiosk\"}", 1, "missing field \"version\""),
        ("{\"t\":9.3e15,\"type\":\"pressure\",\"kpa\":1}", 1, "time 9.3e+15 ms is later than any trace can run (a hundred years)"),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":\"down\",\"id\":0,\"x\":9.3e18,\"y\":1}", 1, "touch x 9.3e+18 px is beyond any screen (at most ±1000000000)"),
        ("{\"t\":0,\"type\":\"touch\",\"phase\":\"down\",\"id\":0,\"x\":1,\"y\":-1e300}", 1, "touch y -1e+300 px is beyond any screen (at most ±1000000000)"),
    ]

    @Test("every error names its line and problem", arguments: 0..<TraceReadingTests.badLines.count)
    func namedError(index: Int) {
        let (text, line, problem) = TraceReadingTests.badLines[index]
        #expect(throws: TraceError(source: "bad.jsonl", line: line, problem: problem)) {
            _ = try TraceReader.records(in: text, source: "bad.jsonl")
        }
    }

    @Test("a record's time in µs saturates instead of trapping")
    func microsecondsSaturate() {
        #expect(TraceRecord(t: 1.5, .checkpoint(name: "a")).microseconds == 1500)
        #expect(TraceRecord(t: 9.3e15, .checkpoint(name: "a")).microseconds == TraceRecord.longestTime)
        #expect(TraceRecord(t: .infinity, .checkpoint(name: "a")).microseconds == TraceRecord.longestTime)
        #expect(TraceRecord(t: -5, .checkpoint(name: "a")).microseconds == 0)
        #expect(TraceRecord(t: .nan, .checkpoint(name: "a")).microseconds == 0)
    }

    @Test("an error's description is file:line: problem")
    func errorDescription() {
        #expect(TraceError(source: "floor.jsonl", line: 7, problem: "unknown type \"tilt\"").description == "floor.jsonl:7: unknown type \"tilt\"")
    }
}

@Suite("Trace writing")
struct TraceWritingTests {
    static let sample: [TraceRecord] = [
        TraceRecord(t: 0, .touch(phase: .down, id: 0, x: 240, y: 400)),
        TraceRecord(t: 0, .touch(phase: .down, id: 1, x: 0.1, y: -3.75)),
        TraceRecord(t: 8.333333333333334, .touch(phase: .move, id: 1, x: 1e-7, y: 123456789.125)),
        TraceRecord(t: 10, .accel(x: -0.0, y: 9.81, z: 0.30000000000000004)),
        TraceRecord(t: 10, .pressure(kpa: 101.325)),
        TraceRecord(t: 12.5, .touch(phase: .up, id: 0, x: .leastNonzeroMagnitude, y: 999_999_999.75)),
        // Samples are kept as the sensor gave them (the pipeline judges them), extremes too.
        TraceRecord(t: 12.5, .accel(x: 1.7976931348623157e308, y: -.leastNonzeroMagnitude, z: 0)),
        TraceRecord(t: 13, .touch(phase: .cancel, id: 1, x: 0, y: 0)),
        TraceRecord(t: 5000, .checkpoint(name: "after-spawn \"quoted\" \\ back\nnew line\ttab \u{1} é 🧊")),
        TraceRecord(t: 3e12, .checkpoint(name: "")),
    ]

    @Test("write → read gives back equal records, every number bit for bit")
    func roundTrip() throws {
        let text = try TraceWriter.text(for: TraceWritingTests.sample)
        #expect(text.hasPrefix("{\"trace\":\"motionkiosk\",\"version\":1}\n"))
        let read = try TraceReader.records(in: text)
        #expect(read == TraceWritingTests.sample)
        for (a, b) in zip(read, TraceWritingTests.sample) { #expect(a.t.bitPattern == b.t.bitPattern) }
    }

    @Test("random records round-trip", arguments: [UInt64(1), 2, 3])
    func randomRoundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var t = 0.0
        var records: [TraceRecord] = []
        for _ in 0..<500 {
            t += (random.unit() * 50).rounded() / 8 + random.unit() * 1e-3
            let a = (random.unit() - 0.5) * 2000, b = (random.unit() - 0.5) * 1e-3, c = random.unit() * 1e9
            switch random.next() % 4 {
            case 0: records.append(TraceRecord(t: t, .touch(phase: TouchPhase.allCases[Int(random.next() % 4)], id: Int(random.next() % 10), x: a, y: c)))
            case 1: records.append(TraceRecord(t: t, .accel(x: a, y: b, z: c)))
            case 2: records.append(TraceRecord(t: t, .pressure(kpa: c)))
            default: records.append(TraceRecord(t: t, .checkpoint(name: "cp \(random.next())")))
            }
        }
        #expect(try TraceReader.records(in: try TraceWriter.text(for: records)) == records)
    }

    @Test("integral numbers print without a fraction, as in the issue")
    func integralNumbers() throws {
        #expect(try TraceWriter.line(for: TraceRecord(t: 0, .touch(phase: .down, id: 0, x: 240, y: 400)))
                == "{\"t\":0,\"type\":\"touch\",\"phase\":\"down\",\"id\":0,\"x\":240,\"y\":400}")
        #expect(try TraceWriter.line(for: TraceRecord(t: 10, .accel(x: 0, y: 9.81, z: 0)))
                == "{\"t\":10,\"type\":\"accel\",\"x\":0,\"y\":9.81,\"z\":0}")
    }

    @Test("the writer refuses what the reader would refuse")
    func refusals() throws {
        let writer = try TraceWriter(sink: MemoryTraceSink())
        try writer.append(TraceRecord(t: 10, .pressure(kpa: 1)))
        #expect(throws: TraceWriteError.timeGoesBackwards(t: 5, after: 10)) { try writer.append(TraceRecord(t: 5, .pressure(kpa: 1))) }
        #expect(throws: TraceWriteError.nonFiniteNumber(field: "x")) { try writer.append(TraceRecord(t: 11, .touch(phase: .move, id: 0, x: .nan, y: 0))) }
        #expect(throws: TraceWriteError.nonFiniteNumber(field: "t")) { try writer.append(TraceRecord(t: .infinity, .pressure(kpa: 1))) }
        #expect(throws: TraceWriteError.negativeTime(-1)) { try TraceWriter.line(for: TraceRecord(t: -1, .pressure(kpa: 1))) }
        #expect(throws: TraceWriteError.negativeTouchID(-2)) { try TraceWriter.line(for: TraceRecord(t: 1, .touch(phase: .down, id: -2, x: 0, y: 0))) }
    }

    @Test("what a sensor said is written as it was, NaN and infinity included, and reads back the same")
    func sensorGarbageRoundTrips() throws {
        let records = [TraceRecord(t: 1, .accel(x: .nan, y: .infinity, z: -.infinity)), TraceRecord(t: 2, .accel(x: 1e300, y: 0, z: 9.8)),
                       TraceRecord(t: 3, .gravity(x: 0, y: 9.80665, z: 0)), TraceRecord(t: 4, .pressure(kpa: .nan))]
        let text = try TraceWriter.text(for: records)
        #expect(text.contains(#""x":"nan","y":"inf","z":"-inf""#))
        let back = try TraceReader.records(in: text)
        #expect(back.count == 4)
        guard case let .accel(x, y, z) = back[0].payload else { Issue.record("not accel"); return }
        #expect(x.isNaN && y == .infinity && z == -.infinity)
        #expect(back[1] == records[1] && back[2] == records[2])
        guard case let .pressure(kpa) = back[3].payload else { Issue.record("not pressure"); return }
        #expect(kpa.isNaN)
    }

    @Test("the header carries the stand's settings and reads back; bad values name the field")
    func headerSettings() throws {
        var h = TraceHeader()
        h.exhibit = "tilt-box"; h.width = 720; h.height = 1280; h.rotation = 90; h.seed = UInt64.max
        h.mount = "0, 1, 0; -1, 0, 0; 0, 0, 1"; h.gravityTimeConstantMilliseconds = 250; h.shakeThreshold = 11.5; h.stuckAfterMilliseconds = 0
        h.touchStuckMilliseconds = 90_000; h.phantomsFiltered = true
        let sink = MemoryTraceSink()
        let writer = try TraceWriter(sink: sink, header: h)
        try writer.append(TraceRecord(t: 5, .checkpoint(name: "a")))
        let (header, records) = try TraceReader.trace(in: sink.text)
        #expect(header == h && records.count == 1)
        #expect(throws: TraceError(source: "trace", line: 1, problem: "field \"rotation\" must be 0, 90, 180 or 270, not 45")) {
            try TraceReader.trace(in: #"{"trace":"motionkiosk","version":1,"rotation":45}"#)
        }
        #expect(throws: TraceError(source: "trace", line: 1, problem: "field \"width\" must be from 64 to 8192, not 1e+300")) {
            try TraceReader.trace(in: #"{"trace":"motionkiosk","version":1,"width":1e300}"#)
        }
    }

    @Test("a bound too small for the header and the closing note is refused")
    func tinyBound() {
        #expect(throws: TraceWriteError.boundTooSmall(bytes: 100, minimum: TraceWriter.minimumBound)) {
            _ = try TraceWriter(sink: MemoryTraceSink(), bound: .stop(atBytes: 100))
        }
        #expect(throws: TraceWriteError.boundTooSmall(bytes: 0, minimum: TraceWriter.minimumBound)) {
            _ = try TraceWriter(sink: MemoryTraceSink(), bound: .roll(atBytes: 0))
        }
    }

    @Test("a record longer than a roll bound goes whole into a segment of its own")
    func hugeRecordRolls() throws {
        let sink = MemoryTraceSink()
        let writer = try TraceWriter(sink: sink, bound: .roll(atBytes: 600))
        try writer.append(TraceRecord(t: 0, .pressure(kpa: 1)))
        let long = TraceRecord(t: 1, .checkpoint(name: String(repeating: "x", count: 800)))
        #expect(try writer.append(long) == .rolled(segment: 1))
        #expect(try writer.append(TraceRecord(t: 2, .pressure(kpa: 1))) == .rolled(segment: 2))
        #expect(try TraceReader.records(in: sink.segments[1]) == [long])
    }

    @Test("an empty recording is just the header, and reads as no records")
    func emptyTrace() throws {
        let sink = MemoryTraceSink()
        _ = try TraceWriter(sink: sink)
        #expect(sink.text == TraceWriter.header)
        #expect(try TraceReader.records(in: sink.text).isEmpty)
    }

    @Test("comments are written as # lines and skipped on reading")
    func comments() throws {
        let sink = MemoryTraceSink()
        let writer = try TraceWriter(sink: sink)
        try writer.comment("seed 42\npanel 800x480 rotated 90")
        try writer.append(TraceRecord(t: 1, .pressure(kpa: 100)))
        #expect(sink.text.contains("# seed 42 panel 800x480 rotated 90\n"))
        #expect(try TraceReader.records(in: sink.text) == [TraceRecord(t: 1, .pressure(kpa: 100))])
    }

    func pressures(_ n: Int) -> [TraceRecord] { (0..<n).map { TraceRecord(t: Double($0), .pressure(kpa: 101.325)) } }

    @Test("a stop bound stops, says so in the file, and never exceeds the bound")
    func stopBound() throws {
        let sink = MemoryTraceSink()
        let writer = try TraceWriter(sink: sink, bound: .stop(atBytes: 1000))
        var outcomes: [TraceWriter.Outcome] = []
        for r in pressures(100) { outcomes.append(try writer.append(r)) }
        let written = outcomes.firstIndex(of: .dropped)!
        #expect(written > 10)
        #expect(outcomes[written...].allSatisfy { $0 == .dropped })
        #expect(writer.isStopped && writer.droppedRecords == 100 - written)
        #expect(sink.text.utf8.count <= 1000)
        #expect(sink.text.hasSuffix("# stopped: size bound of 1000 bytes reached at t=\(written) ms\n"))
        #expect(try TraceReader.records(in: sink.text) == Array(pressures(100).prefix(written)))
        #expect(sink.segments.count == 1)
    }

    @Test("a roll bound starts new segments, each a whole trace within the bound")
    func rollBound() throws {
        let sink = MemoryTraceSink()
        let writer = try TraceWriter(sink: sink, bound: .roll(atBytes: 600))
        var rolls: [Int] = []
        for r in pressures(100) {
            if case let .rolled(segment) = try writer.append(r) { rolls.append(segment) }
        }
        #expect(rolls == Array(1..<sink.segments.count))
        #expect(sink.segments.count > 3)
        var all: [TraceRecord] = []
        for segment in sink.segments {
            #expect(segment.hasPrefix(TraceWriter.header))
            #expect(segment.utf8.count <= 600)
            all += try TraceReader.records(in: segment)
        }
        #expect(all == pressures(100))
        #expect(writer.totalBytes == sink.segments.map(\.utf8.count).reduce(0, +))
    }
}

@Suite("Trace text")
struct TraceTextTests {
    @Test("CRLF line ends and a byte order mark are read; line numbers still count every line")
    func crlf() throws {
        let text = "\u{FEFF}{\"trace\":\"motionkiosk\",\"version\":1}\r\n\r\n{\"t\":1,\"type\":\"pressure\",\"kpa\":99}\r\n{\"t\":0,\"type\":\"pressure\",\"kpa\":99}\r\n"
        #expect(throws: TraceError(source: "crlf.jsonl", line: 4, problem: "time goes backwards: 0 ms after 1 ms")) {
            _ = try TraceReader.records(in: text, source: "crlf.jsonl")
        }
        let good = "{\"t\":1,\"type\":\"pressure\",\"kpa\":99}\r\n{\"t\":2,\"type\":\"checkpoint\",\"name\":\"a\"}"
        #expect(try TraceReader.records(in: good).count == 2)
    }

    @Test("escapes decode, including surrogate pairs")
    func escapes() throws {
        let line = "{\"t\":0,\"type\":\"checkpoint\",\"name\":\"\\u00e9\\ud83e\\uddca\\/\\b\\f\\n\\r\\t\\\"\\\\\"}"
        #expect(try TraceReader.records(in: line) == [TraceRecord(t: 0, .checkpoint(name: "é🧊/\u{8}\u{C}\n\r\t\"\\"))])
    }
}
