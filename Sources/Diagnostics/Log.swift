import Geometry
#if canImport(Glibc)
import Glibc
#endif

public enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case debug, info, warning, error

    /// syslog priority, which journald reads from a "<N>" line prefix.
    public var syslogPriority: Int {
        switch self {
        case .debug: 7
        case .info: 6
        case .warning: 4
        case .error: 3
        }
    }
    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// The kiosk's log: lines to standard error, which systemd hands to the journal. Under
/// journald each line carries a "<N>" priority prefix; on a terminal it reads "warning: …".
/// Repeated device errors go through a `RateLimitedLog` writing here, so a sensor failing
/// 100 times a second costs one line per interval, with a count of what was held back.
public final class Log: Sendable {
    public typealias Sink = @Sendable (LogLevel, String) -> Void

    private let level: Locked<LogLevel>
    private let sink: Sink

    public init(minimum: LogLevel = .info, sink: @escaping Sink = Log.standardErrorSink()) {
        level = Locked(minimum)
        self.sink = sink
    }

    public var minimum: LogLevel {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { write(.error, message()) }

    public func write(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        sink(level, message())
    }

    /// Standard error, with journald priority prefixes when stderr is the journal.
    public static func standardErrorSink() -> Sink {
        let toJournal = getenv("JOURNAL_STREAM") != nil
        return { level, message in
            var line = toJournal ? "<\(level.syslogPriority)>\(message)\n" : "\(level.name): \(message)\n"
            line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
        }
    }

    /// A sink that keeps lines in memory, for tests.
    public final class Recorder: Sendable {
        private let lines = Locked<[String]>([])
        public init() {}
        public var sink: Sink { { [self] level, message in lines.withLock { $0.append("\(level.name): \(message)") } } }
        public var recorded: [String] { lines.withLock { $0 } }
    }
}
