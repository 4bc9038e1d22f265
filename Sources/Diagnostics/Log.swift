import Geometry
import Synchronization
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
/// Repeated device errors go through `limited`, so a sensor failing 100 times a second
/// costs one line per interval, with a count of what was held back.
public final class Log: Sendable {
    public typealias Sink = @Sendable (LogLevel, String) -> Void

    private struct State {
        var minimum: LogLevel
        var limits: [String: Limit] = [:]
    }
    private struct Limit {
        var lastWritten: Microseconds
        var suppressed: Int
    }
    private let state: Mutex<State>
    private let sink: Sink
    private let clock: (any Clock & Sendable)?

    public init(minimum: LogLevel = .info, clock: (any Clock & Sendable)? = nil, sink: @escaping Sink = Log.standardErrorSink()) {
        state = Mutex(State(minimum: minimum))
        self.sink = sink
        self.clock = clock
    }

    public var minimum: LogLevel {
        get { state.withLock { $0.minimum } }
        set { state.withLock { $0.minimum = newValue } }
    }

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func error(_ message: @autoclosure () -> String) { write(.error, message) }

    private func write(_ level: LogLevel, _ message: () -> String) {
        guard level >= minimum else { return }
        sink(level, message())
    }

    /// Writes at most one line per `interval` for `key` (e.g. "iio:device0 read"); the next
    /// line written says how many were held back meanwhile.
    public func limited(_ level: LogLevel, key: String, interval: Microseconds = 10_000_000, _ message: @autoclosure () -> String) {
        guard level >= minimum else { return }
        let now = clock?.now ?? Log.monotonicNow()
        let held: Int? = state.withLock { s in
            if var limit = s.limits[key] {
                if now - limit.lastWritten < interval {
                    limit.suppressed += 1
                    s.limits[key] = limit
                    return nil
                }
                let count = limit.suppressed
                s.limits[key] = Limit(lastWritten: now, suppressed: 0)
                return count
            }
            s.limits[key] = Limit(lastWritten: now, suppressed: 0)
            return 0
        }
        guard let held else { return }
        sink(level, held > 0 ? "\(message()) (\(held) more like this held back)" : message())
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
        private let lines = Mutex<[String]>([])
        public init() {}
        public var sink: Sink { { [self] level, message in lines.withLock { $0.append("\(level.name): \(message)") } } }
        public var recorded: [String] { lines.withLock { $0 } }
    }

    static func monotonicNow() -> Microseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Microseconds(ts.tv_sec) * 1_000_000 + Microseconds(ts.tv_nsec) / 1000
    }
}
