import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// A log that says each kind of message at most once per interval, and then how many of
/// that kind it held back: bad samples at 100 Hz must not flood the journal. Keys name the
/// kind ("iio:device0 read"), so one noisy source does not silence another.
public final class RateLimitedLog {
    public typealias Sink = (String) -> Void

    private struct KeyState { var lastSaid: Microseconds; var suppressed: Int }

    private let clock: Clock
    private let interval: Microseconds
    private let sink: Sink
    private var states: [String: KeyState] = [:]

    /// `interval` between two lines of one key; `sink` receives whole lines without "\n".
    public init(clock: Clock, interval: Microseconds = 5_000_000, sink: @escaping Sink = RateLimitedLog.standardError) {
        self.clock = clock; self.interval = interval; self.sink = sink
    }

    /// Lines go to the kiosk's `Log` at `level` (journald priority and level filter included).
    public convenience init(log: Log, level: LogLevel = .warning, clock: Clock, interval: Microseconds = 5_000_000) {
        self.init(clock: clock, interval: interval, sink: { [log] line in log.write(level, line) })
    }

    /// Says `message` now unless `key` spoke within the interval (then counts it).
    /// Returns whether the line went out.
    @discardableResult
    public func log(_ key: String, _ message: @autoclosure () -> String) -> Bool {
        let now = clock.now
        if var state = states[key], now - state.lastSaid < interval {
            state.suppressed += 1
            states[key] = state
            return false
        }
        let held = states[key]?.suppressed ?? 0
        let suffix = held > 0 ? " (\(held) more like this since the last report)" : ""
        states[key] = KeyState(lastSaid: now, suppressed: 0)
        sink(message() + suffix)
        return true
    }

    /// Says `message` unconditionally (state changes such as "sensor went away": they are
    /// rare by nature and each one matters).
    public func always(_ message: String) { sink(message) }

    /// Writes the line to fd 2 (Swift 6 cannot touch C's `stderr`).
    public static func standardError(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(10)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(2, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}
