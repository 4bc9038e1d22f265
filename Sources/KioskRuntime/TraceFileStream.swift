import Syscalls
import Trace

/// A trace file read a chunk at a time as it is played: memory holds one chunk and one
/// line, whatever the file's size. The first problem (a bad line, a read error, a line
/// longer than any a recorder writes) ends the stream and is kept in `failure`; replay
/// checks the whole file with `check` first, so a bad trace writes nothing.
public final class TraceFileStream: TraceRecordSource {
    public let path: String
    /// The header's settings, once the header line has been read.
    public var header: TraceHeader { reader.header }
    public private(set) var failure: TraceError?
    public private(set) var recordsRead = 0
    /// A trace line is about a hundred bytes; a megabyte is no line a recorder wrote.
    public static let longestLine = 1 << 20

    private let fd: Int32
    private let system: any SystemCalls
    private var reader: TraceReader
    private let warn: ((String) -> Void)?
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0, end = 0
    private var atEndOfFile = false
    private var closed = false

    /// Opens `path` (a regular file of at most `limit` bytes; never blocks). Given `warn`, a
    /// last line cut short is left out with a warning (see `TraceReader`).
    public init(path: String, limit: Int = TextFileLimit.trace, warn: ((String) -> Void)? = nil,
                system: any SystemCalls = LinuxSystem.shared) throws(TextFileError) {
        self.path = path
        self.warn = warn
        self.system = system
        fd = try openRegularFile(path, limit: limit, system: system).fd
        reader = TraceReader(source: path)
    }

    deinit { if !closed { system.close(fd) } }

    /// Opens a trace for playing after `check` accepted it: a last line cut short, which the
    /// check reported, is left out again (silently) rather than ending the replay in an error.
    public static func forPlaying(checked path: String, limit: Int = TextFileLimit.trace,
                                  system: any SystemCalls = LinuxSystem.shared) throws(TextFileError) -> TraceFileStream {
        try TraceFileStream(path: path, limit: limit, warn: { _ in }, system: system)
    }

    /// Reads the whole file once: its header and how many records it holds, or the first
    /// problem with its line.
    public static func check(path: String, limit: Int = TextFileLimit.trace, warn: ((String) -> Void)? = nil,
                             system: any SystemCalls = LinuxSystem.shared) throws(TraceError) -> (header: TraceHeader, records: Int) {
        let stream: TraceFileStream
        do { stream = try TraceFileStream(path: path, limit: limit, warn: warn, system: system) } catch {
            throw TraceError(source: path, line: 0, problem: error.reason)
        }
        while stream.nextRecord() != nil {}
        if let failure = stream.failure { throw failure }
        return (stream.header, stream.recordsRead)
    }

    public func nextRecord() -> TraceRecord? {
        while failure == nil {
            guard let (line, unterminated) = nextLine() else { return nil }
            guard let text = String(validating: line, as: UTF8.self) else {
                if unterminated, let warn {
                    // Cut inside a letter of several bytes: torn like any other last line.
                    warn("\(path):\(reader.lineNumber + 1): the last line is cut short (\(line.count) bytes, no newline); replaying up to the line before")
                    return nil
                }
                failure = TraceError(source: path, line: reader.lineNumber + 1, problem: "not UTF-8 text")
                return nil
            }
            do throws(TraceError) {
                if let record = try reader.read(line: Substring(text), unterminatedLast: unterminated, warn: warn) {
                    recordsRead += 1
                    return record
                }
            } catch {
                failure = error
            }
        }
        return nil
    }

    /// The next line's bytes without its "\n", and whether it is the file's last line with
    /// no newline after it; nil at the end or on a failure.
    private func nextLine() -> (ArraySlice<UInt8>, Bool)? {
        var scanned = start
        while true {
            if let newline = chunk[scanned..<end].firstIndex(of: UInt8(ascii: "\n")) {
                let line = chunk[start..<newline]
                start = newline + 1
                return (line, false)
            }
            scanned = end
            if atEndOfFile {
                guard start < end else { finish(); return nil }
                let line = chunk[start..<end]
                start = end
                return (line, true)
            }
            // Keep the unfinished line at the front and fill the rest.
            if start > 0 {
                chunk.replaceSubrange(0..<(end - start), with: chunk[start..<end])
                scanned -= start; end -= start; start = 0
            }
            if end == chunk.count {
                guard chunk.count < Self.longestLine else {
                    failure = TraceError(source: path, line: reader.lineNumber + 1, problem: "a line longer than 1 MB: not a trace")
                    return nil
                }
                chunk.append(contentsOf: [UInt8](repeating: 0, count: min(chunk.count, Self.longestLine - chunk.count)))
            }
            let fd = self.fd, system = self.system, filled = end
            let read: Result<Int, SystemError> = chunk.withUnsafeMutableBytes { b in
                Result { () throws(SystemError) -> Int in try system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: b[filled...])) }
            }
            let n: Int
            do { n = try read.get() } catch {
                failure = TraceError(source: path, line: reader.lineNumber + 1, problem: "read: \(error.reason)")
                return nil
            }
            if n == 0 { atEndOfFile = true } else { end += n }
        }
    }

    private func finish() {
        if !closed { system.close(fd); closed = true }
    }
}
