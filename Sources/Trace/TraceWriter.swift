import Geometry

/// Where a `TraceWriter` puts its lines. The kiosk's `--record` implements it over a file
/// (through the Syscalls seam); tests use `MemoryTraceSink`.
public protocol TraceSink: AnyObject {
    /// Appends text (whole lines, each ending in "\n").
    func write(_ text: String) throws(TraceWriteError)
    /// Closes the current segment and opens a fresh, empty one (the file sink renames the full
    /// file aside, e.g. `trace.jsonl` → `trace.1.jsonl`). Only called for `.roll` bounds.
    func startNewSegment() throws(TraceWriteError)
    /// Makes what was written so far durable (the file sink's fsync); a power cut after it
    /// returns loses none of it.
    func sync() throws(TraceWriteError)
}

public extension TraceSink {
    /// Sinks in memory have nothing to make durable.
    func sync() throws(TraceWriteError) {}
}

/// Keeps every segment in memory.
public final class MemoryTraceSink: TraceSink {
    public private(set) var segments: [String] = [""]
    public init() {}
    public var text: String { segments[segments.count - 1] }
    public func write(_ text: String) throws(TraceWriteError) { segments[segments.count - 1] += text }
    public func startNewSegment() throws(TraceWriteError) { segments.append("") }
}

public enum TraceWriteError: Error, Equatable, CustomStringConvertible {
    case timeGoesBackwards(t: Double, after: Double)
    case negativeTime(Double)
    case nonFiniteNumber(field: String)
    case negativeTouchID(Int)
    case boundTooSmall(bytes: Int, minimum: Int)
    /// The file (or wherever the sink writes) failed: what was attempted and why.
    case sinkFailed(String)

    public var description: String {
        switch self {
        case let .timeGoesBackwards(t, after): return "trace time goes backwards: \(t) ms after \(after) ms"
        case let .negativeTime(t): return "trace time \(t) ms is before the start"
        case let .nonFiniteNumber(field): return "trace field \"\(field)\" is not a finite number"
        case let .negativeTouchID(id): return "touch id \(id) is negative"
        case let .boundTooSmall(bytes, minimum): return "a trace size bound of \(bytes) bytes is too small (at least \(minimum))"
        case let .sinkFailed(why): return why
        }
    }
}

/// Writes a trace: always the header first, then one line per record. Refuses what the reader
/// would refuse (time going backwards, NaN), so that everything written reads back equal.
///
/// A size bound keeps a recording from filling the card: `.stop` writes a closing comment
/// ("# stopped: …") and drops every later record; `.roll` starts a new segment (with its own
/// header; `t` keeps counting from the original start) each time the current one would exceed
/// the bound (a line longer than the bound still goes whole into a segment of its own).
/// Bounds count bytes of UTF-8 including header and newlines; at least `minimumBound`.
public final class TraceWriter {
    public enum Bound: Equatable, Sendable {
        case unbounded
        case stop(atBytes: Int)
        case roll(atBytes: Int)
    }

    public enum Outcome: Equatable, Sendable {
        case written
        /// Written, into a new segment (this is its 0-based index).
        case rolled(segment: Int)
        /// The bound was reached now or earlier: the record was not written.
        case dropped
    }

    public static let header = TraceHeader().line + "\n"
    /// Room kept for the closing comment of a `.stop` bound.
    static let stopNoteReserve = 96
    /// The smallest bound accepted: the header, the closing comment and a few records.
    public static let minimumBound = 512

    public let sink: TraceSink
    public let bound: Bound
    /// The first line of every segment.
    public let headerLine: String
    public private(set) var segmentBytes = 0
    public private(set) var totalBytes = 0
    public private(set) var segment = 0
    public private(set) var isStopped = false
    public private(set) var droppedRecords = 0
    private var lastTime: Double?

    public init(sink: TraceSink, bound: Bound = .unbounded, header: TraceHeader = TraceHeader()) throws(TraceWriteError) {
        let minimum = TraceWriter.minimumBound
        switch bound {
        case .unbounded: break
        case let .stop(limit), let .roll(limit):
            if limit < minimum { throw .boundTooSmall(bytes: limit, minimum: minimum) }
        }
        self.sink = sink
        self.bound = bound
        headerLine = header.line + "\n"
        try emit(headerLine)
        // On the storage at once: a recording cut before its first periodic sync is an empty
        // trace that replays, not an empty file that does not.
        try sink.sync()
    }

    /// The line for a record, without the newline.
    public static func line(for record: TraceRecord) throws(TraceWriteError) -> String {
        func num(_ v: Double, _ field: String) throws(TraceWriteError) -> String {
            guard v.isFinite else { throw .nonFiniteNumber(field: field) }
            return FlatJSONPrinter.number(v)
        }
        guard record.t.isFinite else { throw .nonFiniteNumber(field: "t") }
        guard record.t >= 0 else { throw .negativeTime(record.t) }
        var s = "{\"t\":\(try num(record.t, "t")),\"type\":\"\(record.payload.typeName)\""
        switch record.payload {
        case let .touch(phase, id, x, y):
            guard id >= 0 else { throw .negativeTouchID(id) }
            s += ",\"phase\":\"\(phase.rawValue)\",\"id\":\(id),\"x\":\(try num(x, "x")),\"y\":\(try num(y, "y"))"
        case let .accel(x, y, z), let .gravity(x, y, z):
            s += ",\"x\":\(sensorValue(x)),\"y\":\(sensorValue(y)),\"z\":\(sensorValue(z))"
        case let .pressure(kpa):
            s += ",\"kpa\":\(sensorValue(kpa))"
        case let .checkpoint(name):
            s += ",\"name\":" + FlatJSONPrinter.string(name)
        }
        return s + "}"
    }

    /// What a sensor said, even NaN ("nan", "inf", "-inf"): a replay must drop it as the
    /// stand did.
    static func sensorValue(_ v: Double) -> String {
        if v.isNaN { return "\"nan\"" }
        if v.isInfinite { return v > 0 ? "\"inf\"" : "\"-inf\"" }
        return FlatJSONPrinter.number(v)
    }

    /// A whole trace as text, header included.
    public static func text(for records: [TraceRecord]) throws(TraceWriteError) -> String {
        let sink = MemoryTraceSink()
        let writer = try TraceWriter(sink: sink)
        for r in records { _ = try writer.append(r) }
        return sink.text
    }

    @discardableResult
    public func append(_ record: TraceRecord) throws(TraceWriteError) -> Outcome {
        if let last = lastTime, record.t < last { throw .timeGoesBackwards(t: record.t, after: last) }
        let text = try TraceWriter.line(for: record) + "\n"
        if isStopped { droppedRecords += 1; return .dropped }
        let size = text.utf8.count
        var outcome = Outcome.written
        switch bound {
        case .unbounded:
            break
        case let .stop(limit):
            if segmentBytes + size > limit - TraceWriter.stopNoteReserve {
                isStopped = true
                droppedRecords += 1
                try emit("# stopped: size bound of \(limit) bytes reached at t=\(FlatJSONPrinter.number(record.t)) ms\n")
                return .dropped
            }
        case let .roll(limit):
            if segmentBytes + size > limit && segmentBytes > headerLine.utf8.count {
                try sink.startNewSegment()
                segment += 1
                segmentBytes = 0
                try emit(headerLine)
                try sink.sync()
                outcome = .rolled(segment: segment)
            }
        }
        try emit(text)
        lastTime = record.t
        return outcome
    }

    /// Makes the records written so far durable (a recording synced at a bounded interval).
    public func sync() throws(TraceWriteError) { try sink.sync() }

    /// A `#` comment line (skipped by readers), e.g. what the kiosk was configured with.
    public func comment(_ text: String) throws(TraceWriteError) {
        guard !isStopped else { return }
        let line = "# " + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ") + "\n"
        if case let .stop(limit) = bound, segmentBytes + line.utf8.count > limit - TraceWriter.stopNoteReserve { return }
        try emit(line)
    }

    private func emit(_ text: String) throws(TraceWriteError) {
        try sink.write(text)
        let n = text.utf8.count
        segmentBytes += n
        totalBytes += n
    }
}
