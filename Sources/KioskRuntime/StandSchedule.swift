#if canImport(Glibc)
import Glibc
#endif
import Geometry
import OpeningHours

/// Opening hours as a running stand applies them: which wall-clock moment a monotonic
/// instant is, when the display must be on, and what a touch does while it is closed.
public struct StandSchedule {
    public var hours: OpeningHours
    /// A touch while closed turns the display on for this long after the last touch; nil:
    /// touches while closed do nothing.
    public var wakeFor: Microseconds?
    /// The stand's wall clock at a monotonic instant (the loop's clock).
    public var wallClock: (Microseconds) -> CivilTime

    public init(hours: OpeningHours, wakeFor: Microseconds?, wallClock: @escaping (Microseconds) -> CivilTime) {
        self.hours = hours; self.wakeFor = wakeFor; self.wallClock = wallClock
    }

    public func isOpen(at time: Microseconds) -> Bool { hours.isOpen(at: wallClock(time)) }

    /// The monotonic instant of the next opening or closing after `time`, if any.
    public func nextChange(after time: Microseconds) -> Microseconds? {
        let wall = wallClock(time)
        guard let next = hours.nextChange(after: wall) else { return nil }
        return time + Microseconds(next.seconds(since: wall)) * 1_000_000
    }

    /// A wall clock that starts at `start` when the monotonic clock reads `origin`: replays.
    public static func fixedStart(_ start: CivilTime, origin: Microseconds) -> (Microseconds) -> CivilTime {
        { time in start.adding(seconds: Int((time - origin).floorDividedBy1e6)) }
    }

    /// The system's wall clock in its local time zone (/etc/localtime), read through
    /// `localtime_r` for each moment asked: a change of daylight saving time is followed.
    public static func systemLocalTime(monotonicNow: @escaping () -> Microseconds) -> (Microseconds) -> CivilTime {
        { time in
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            var seconds = time_t(Int(now.tv_sec) + Int((time - monotonicNow()).floorDividedBy1e6))
            var parts = tm()
            localtime_r(&seconds, &parts)
            return CivilTime(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, dayOfMonth: Int(parts.tm_mday),
                             hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: min(59, Int(parts.tm_sec)))
                ?? CivilTime(day: 0, second: 0)
        }
    }
}

extension Microseconds {
    /// Whole seconds, rounded towards minus infinity.
    var floorDividedBy1e6: Int64 { self >= 0 ? self / 1_000_000 : -((-self + 999_999) / 1_000_000) }
}
