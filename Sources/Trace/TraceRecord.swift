// Trace: JSON Lines traces of touches and sensor samples, recorded on the floor and replayed
// by tests and the `replay` command. One object per line; see `TraceReader` for the rules.
import Geometry

/// One line of a trace after the header.
public struct TraceRecord: Equatable, Sendable {
    public enum Payload: Equatable, Sendable {
        /// `id` is the touch slot; x, y in portrait screen pixels.
        case touch(phase: TouchPhase, id: Int, x: Double, y: Double)
        /// m/s², screen-frame axes (x to the right edge, y to the top edge, z out of the glass).
        case accel(x: Double, y: Double, z: Double)
        /// Gravity set directly by a source that measures nothing (arrow keys, fixed down
        /// gravity), screen frame, m/s²: taken without filtering.
        case gravity(x: Double, y: Double, z: Double)
        case pressure(kpa: Double)
        case checkpoint(name: String)

        public var typeName: String {
            switch self {
            case .touch: return "touch"
            case .accel: return "accel"
            case .gravity: return "gravity"
            case .pressure: return "pressure"
            case .checkpoint: return "checkpoint"
            }
        }
    }

    /// Milliseconds since the start of the trace; fractions allowed.
    public var t: Double
    public var payload: Payload

    public init(t: Double, _ payload: Payload) { self.t = t; self.payload = payload }
    public init(microseconds: Microseconds, _ payload: Payload) {
        self.init(t: Double(microseconds) / 1000, payload)
    }

    /// `t` on the app's monotonic microsecond scale (rounded to the nearest µs).
    /// The time in µs, saturated at the longest trace (`TraceRecord.longestTime`): a record
    /// made in code may carry any Double, and none may trap here.
    public var microseconds: Microseconds {
        let us = (t * 1000).rounded()
        guard us.isFinite else { return us > 0 ? TraceRecord.longestTime : 0 }
        return Microseconds(Swift.min(Swift.max(us, 0), Double(TraceRecord.longestTime)))
    }

    /// How far from the screen's origin, in pixels, a recorded touch may lie (far beyond any
    /// screen, far inside what the pixel arithmetic can take).
    public static let farthestTouch = 1_000_000_000.0

    /// The latest time a trace may carry: a hundred years, in µs (far inside Int64).
    public static let longestTime: Microseconds = 100 * 365 * 24 * 3600 * 1_000_000
}

extension TraceRecord {
    /// Records of one frame of touches: consecutive touch lines with equal `t`.
    public struct TouchFrame: Equatable, Sendable {
        public var t: Double
        public var touches: [(phase: TouchPhase, id: Int, x: Double, y: Double)]

        public static func == (a: TouchFrame, b: TouchFrame) -> Bool {
            a.t == b.t && a.touches.count == b.touches.count
                && zip(a.touches, b.touches).allSatisfy { $0.phase == $1.phase && $0.id == $1.id && $0.x == $1.x && $0.y == $1.y }
        }
    }

    /// Groups the touch records into frames: lines with equal `t` form one frame, as the issue
    /// defines it. Other record types are skipped (and do not split a frame).
    public static func touchFrames(_ records: [TraceRecord]) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        for record in records {
            guard case let .touch(phase, id, x, y) = record.payload else { continue }
            if let last = frames.last, last.t == record.t {
                frames[frames.count - 1].touches.append((phase, id, x, y))
            } else {
                frames.append(TouchFrame(t: record.t, touches: [(phase, id, x, y)]))
            }
        }
        return frames
    }
}
