import Geometry

/// A problem in a trace: where it is and what is wrong. `description` reads
/// "floor-2026-11-20.jsonl:7: unknown type \"tilt\"".
public struct TraceError: Error, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var problem: String

    public init(source: String, line: Int, problem: String) {
        self.source = source; self.line = line; self.problem = problem
    }
    public var description: String { "\(source):\(line): \(problem)" }
}

/// Reads a trace line by line (so large recordings stream):
/// - an optional header `{"trace":"motionkiosk","version":1}` on the first non-blank,
///   non-comment line (without it the trace is version 1);
/// - then one object per line with `t` (ms since start, fractions allowed, never decreasing)
///   and `type` (touch, accel, pressure, checkpoint) plus that type's fields;
/// - blank lines and lines starting with `#` are skipped.
/// Anything else is a `TraceError` naming the line and the problem. Unknown fields are errors
/// too: a newer writer must bump the version rather than be half-read.
public struct TraceReader {
    public static let supportedVersion = 1

    public let source: String
    public private(set) var lineNumber = 0
    public private(set) var version = TraceReader.supportedVersion
    /// The settings the header named (empty for a trace without one).
    public private(set) var header = TraceHeader()
    private var sawContent = false
    /// Whether the line that failed was no JSON object at all (as a line cut short is).
    private var lineIsNotJSON = false
    private var lastTime: Double?

    public init(source: String = "trace") { self.source = source }

    /// Parses the whole text. Lines end at "\n" or "\r\n".
    public static func records(in text: String, source: String = "trace") throws(TraceError) -> [TraceRecord] {
        try trace(in: text, source: source).records
    }

    /// Parses the whole text: the header's settings and the records. Given `warn`, a last line
    /// that is cut short (no newline after it, and no JSON object: a recording stopped by a full
    /// disk or a power cut) is left out with a warning, so the trace replays up to its last
    /// whole line; without it, such a line is an error like any other.
    public static func trace(in text: String, source: String = "trace",
                             warn: ((String) -> Void)? = nil) throws(TraceError) -> (header: TraceHeader, records: [TraceRecord]) {
        var reader = TraceReader(source: source)
        var records: [TraceRecord] = []
        // "\r\n" is a single Character in Swift, so it is a separator of its own.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        let endsWithNewline = text.last == "\n" || text.last == "\r\n"
        for (index, line) in lines.enumerated() {
            let unterminated = index == lines.count - 1 && !endsWithNewline
            if let record = try reader.read(line: line, unterminatedLast: unterminated, warn: warn) { records.append(record) }
        }
        return (reader.header, records)
    }

    /// `read(line:)` for a reader that knows whether this is the file's last line with no
    /// newline after it: given `warn`, such a line that is no JSON object (cut short by a full
    /// disk or a power cut) is left out with a warning instead of failing the trace.
    public mutating func read(line: Substring, unterminatedLast: Bool, warn: ((String) -> Void)?) throws(TraceError) -> TraceRecord? {
        do throws(TraceError) {
            return try read(line: line)
        } catch {
            guard let warn, unterminatedLast, lineIsNotJSON else { throw error }
            warn("\(source):\(lineNumber): the last line is cut short (\(line.utf8.count) bytes, no newline); replaying up to the line before")
            return nil
        }
    }

    /// Feeds the next line; returns its record, or nil for a header, blank or comment line.
    public mutating func read(line rawLine: Substring) throws(TraceError) -> TraceRecord? {
        lineNumber += 1
        var line = rawLine
        if line.last == "\r" { line = line.dropLast() }
        if lineNumber == 1, line.first == "\u{FEFF}" { line = line.dropFirst() } // byte order mark
        let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
        if trimmed.isEmpty || trimmed.first == "#" { return nil }

        let members: [(key: String, value: FlatJSONValue)]
        do {
            members = try FlatJSONParser.parseObject(line)
        } catch {
            lineIsNotJSON = true
            throw problem(error.message)
        }
        let object = FieldReader(members: members)

        if object.has("trace") {
            guard !sawContent else { throw problem("the header {\"trace\":…} is only allowed on the first line") }
            sawContent = true
            try readHeader(object)
            return nil
        }
        sawContent = true

        guard object.has("type") else { throw problem("missing field \"type\"") }
        let type = try object.string("type", at: self)
        let t = try object.number("t", at: self)
        guard t >= 0 else { throw problem("time \(FlatJSONPrinter.number(t)) ms is before the start of the trace") }
        guard t <= Double(TraceRecord.longestTime / 1000) else {
            throw problem("time \(FlatJSONPrinter.number(t)) ms is later than any trace can run (a hundred years)")
        }
        if let last = lastTime, t < last {
            throw problem("time goes backwards: \(FlatJSONPrinter.number(t)) ms after \(FlatJSONPrinter.number(last)) ms")
        }

        let payload: TraceRecord.Payload
        switch type {
        case "touch":
            try object.allow(["t", "type", "phase", "id", "x", "y"], at: self)
            let phaseName = try object.string("phase", at: self)
            guard let phase = TouchPhase(rawValue: phaseName) else {
                throw problem("unknown touch phase \"\(phaseName)\" (expected down, move, up or cancel)")
            }
            let id = try object.number("id", at: self)
            guard id >= 0, id == id.rounded(), id <= Double(Int32.max) else {
                throw problem("field \"id\" must be a non-negative integer, not \(FlatJSONPrinter.number(id))")
            }
            let x = try object.number("x", at: self), y = try object.number("y", at: self)
            // A touchscreen reports within a few screens of its panel, even uncalibrated.
            for (name, v) in [("x", x), ("y", y)] where !(abs(v) <= TraceRecord.farthestTouch) {
                throw problem("touch \(name) \(FlatJSONPrinter.number(v)) px is beyond any screen (at most ±\(Int(TraceRecord.farthestTouch)))")
            }
            payload = .touch(phase: phase, id: Int(id), x: x, y: y)
        case "accel", "gravity":
            // Samples are recorded before validation: a sensor's NaN or infinity is written
            // as "nan", "inf" or "-inf" so that a replay drops it as the stand did.
            try object.allow(["t", "type", "x", "y", "z"], at: self)
            let x = try object.sample("x", at: self), y = try object.sample("y", at: self), z = try object.sample("z", at: self)
            payload = type == "accel" ? .accel(x: x, y: y, z: z) : .gravity(x: x, y: y, z: z)
        case "pressure":
            try object.allow(["t", "type", "kpa"], at: self)
            payload = .pressure(kpa: try object.sample("kpa", at: self))
        case "checkpoint":
            try object.allow(["t", "type", "name"], at: self)
            payload = .checkpoint(name: try object.string("name", at: self))
        default:
            throw problem("unknown type \"\(type)\" (expected touch, accel, gravity, pressure or checkpoint)")
        }
        lastTime = t
        return TraceRecord(t: t, payload)
    }

    private mutating func readHeader(_ object: FieldReader) throws(TraceError) {
        try object.allow(TraceHeader.keys, at: self)
        let name = try object.string("trace", at: self)
        guard name == "motionkiosk" else { throw problem("not a motionkiosk trace (header says \"\(name)\")") }
        let v = try object.number("version", at: self)
        guard v == Double(TraceReader.supportedVersion) else {
            throw problem("unsupported trace version \(FlatJSONPrinter.number(v)) (this reader knows version \(TraceReader.supportedVersion))")
        }
        version = TraceReader.supportedVersion
        var h = TraceHeader()
        if object.has("exhibit") { h.exhibit = try object.string("exhibit", at: self) }
        if object.has("locked") { h.locked = try object.bool("locked", at: self) }
        if object.has("phantoms_filtered") { h.phantomsFiltered = try object.bool("phantoms_filtered", at: self) }
        if object.has("idle_ms") { h.idleMilliseconds = try object.number("idle_ms", in: 0...31_536_000_000, at: self) }
        if object.has("attract_ms") { h.attractMilliseconds = try object.number("attract_ms", in: 0...31_536_000_000, at: self) }
        if object.has("width") { h.width = try object.integer("width", in: 64...8192, at: self) }
        if object.has("height") { h.height = try object.integer("height", in: 64...8192, at: self) }
        if object.has("rotation") {
            let r = try object.integer("rotation", in: 0...270, at: self)
            guard r % 90 == 0 else { throw problem("field \"rotation\" must be 0, 90, 180 or 270, not \(r)") }
            h.rotation = r
        }
        if object.has("seed") {
            let text = try object.string("seed", at: self)
            guard let seed = UInt64(text) else { throw problem("field \"seed\" must be a whole number from 0 to 2^64-1 in quotes, not \"\(text)\"") }
            h.seed = seed
        }
        if object.has("mount") { h.mount = try object.string("mount", at: self) }
        if object.has("gravity_time_constant_ms") {
            h.gravityTimeConstantMilliseconds = try object.number("gravity_time_constant_ms", in: 0...60_000, at: self)
        }
        if object.has("shake_threshold") { h.shakeThreshold = try object.number("shake_threshold", in: 0...1000, at: self) }
        if object.has("stuck_after_ms") { h.stuckAfterMilliseconds = try object.number("stuck_after_ms", in: 0...86_400_000, at: self) }
        if object.has("touch_stuck_ms") { h.touchStuckMilliseconds = try object.number("touch_stuck_ms", in: 0...86_400_000, at: self) }
        if object.has("resume_elapsed_us") { h.resuming = try readResumePoint(object) }
        header = h
    }

    /// A black-box trace's starting point; every time within a hundred years of the start,
    /// every vector component finite and within what a sensor or the world can hold.
    private func readResumePoint(_ object: FieldReader) throws(TraceError) -> TraceResumePoint {
        // Through Double and Int64: a hundred years in µs is beyond a 32-bit Int (armhf).
        let span = Double(TraceRecord.longestTime)
        func time(_ key: String) throws(TraceError) -> Int64 {
            let n = try object.number(key, in: -span...span, at: self)
            guard n == n.rounded() else { throw problem("field \"\(key)\" must be a whole number, not \(FlatJSONPrinter.number(n))") }
            return Int64(n)
        }
        func component(_ key: String) throws(TraceError) -> Double { try object.number(key, in: -1e6...1e6, at: self) }
        func pair(_ x: String, _ y: String) throws(TraceError) -> Vec2? {
            guard object.has(x) || object.has(y) else { return nil }
            return Vec2(try component(x), try component(y))
        }
        func reading(_ x: String, _ y: String, _ z: String) throws(TraceError) -> TraceResumePoint.Reading? {
            guard object.has(x) || object.has(y) || object.has(z) else { return nil }
            return TraceResumePoint.Reading(try component(x), try component(y), try component(z))
        }
        var r = TraceResumePoint()
        r.elapsed = try time("resume_elapsed_us")
        guard r.elapsed >= 0 else { throw problem("field \"resume_elapsed_us\" must not be negative") }
        if object.has("resume_idle_us") { r.idleFor = try time("resume_idle_us") }
        guard r.idleFor >= 0 else { throw problem("field \"resume_idle_us\" must not be negative") }
        if object.has("resume_attract") { r.attract = try object.string("resume_attract", at: self) }
        r.language = try object.string("resume_language", at: self)
        r.tiltReference = try pair("resume_tilt_x", "resume_tilt_y")
        r.appGravity = try pair("resume_app_gx", "resume_app_gy") ?? Vec2(0, 1)
        r.filteredGravity = try reading("resume_gx", "resume_gy", "resume_gz")
        if object.has("resume_gravity_us") { r.filteredGravityTime = try time("resume_gravity_us") }
        r.repeatedReading = try reading("resume_same_x", "resume_same_y", "resume_same_z")
        if object.has("resume_same_since_us") { r.repeatedSince = try time("resume_same_since_us") }
        if object.has("resume_shake_quiet_us") { r.shakeQuietUntil = try time("resume_shake_quiet_us") }
        return r
    }

    func problem(_ text: String) -> TraceError {
        TraceError(source: source, line: lineNumber, problem: text)
    }
}

/// Typed access to one line's members, with errors worded for the person fixing the file.
private struct FieldReader {
    let members: [(key: String, value: FlatJSONValue)]

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    func value(_ key: String, at reader: TraceReader) throws(TraceError) -> FlatJSONValue {
        guard let member = members.first(where: { $0.key == key }) else {
            throw reader.problem("missing field \"\(key)\"")
        }
        return member.value
    }

    func number(_ key: String, at reader: TraceReader) throws(TraceError) -> Double {
        let v = try value(key, at: reader)
        guard case let .number(n) = v else { throw reader.problem("field \"\(key)\" must be a number, not \(v.kindName)") }
        return n
    }

    func bool(_ key: String, at reader: TraceReader) throws(TraceError) -> Bool {
        let v = try value(key, at: reader)
        guard case let .bool(b) = v else { throw reader.problem("field \"\(key)\" must be true or false, not \(v.kindName)") }
        return b
    }

    func string(_ key: String, at reader: TraceReader) throws(TraceError) -> String {
        let v = try value(key, at: reader)
        guard case let .string(s) = v else { throw reader.problem("field \"\(key)\" must be a string, not \(v.kindName)") }
        return s
    }

    func number(_ key: String, in range: ClosedRange<Double>, at reader: TraceReader) throws(TraceError) -> Double {
        let n = try number(key, at: reader)
        guard range.contains(n) else {
            throw reader.problem("field \"\(key)\" must be from \(FlatJSONPrinter.number(range.lowerBound)) to \(FlatJSONPrinter.number(range.upperBound)), not \(FlatJSONPrinter.number(n))")
        }
        return n
    }

    func integer(_ key: String, in range: ClosedRange<Int>, at reader: TraceReader) throws(TraceError) -> Int {
        let n = try number(key, in: Double(range.lowerBound)...Double(range.upperBound), at: reader)
        guard n == n.rounded() else { throw reader.problem("field \"\(key)\" must be a whole number, not \(FlatJSONPrinter.number(n))") }
        return Int(n)
    }

    /// A sensor component: a number, or "nan", "inf", "-inf" for what a sensor really said.
    func sample(_ key: String, at reader: TraceReader) throws(TraceError) -> Double {
        switch try value(key, at: reader) {
        case .number(let n): return n
        case .string("nan"): return .nan
        case .string("inf"): return .infinity
        case .string("-inf"): return -.infinity
        case let v: throw reader.problem("field \"\(key)\" must be a number (or \"nan\", \"inf\", \"-inf\"), not \(v.kindName)")
        }
    }

    func allow(_ keys: [String], at reader: TraceReader) throws(TraceError) {
        if let extra = members.first(where: { !keys.contains($0.key) }) {
            throw reader.problem("unknown field \"\(extra.key)\"")
        }
    }
}
