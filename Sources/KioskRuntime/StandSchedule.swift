import Geometry
import OpeningHours
import Syscalls

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
            let seconds = Int64(WallClock.now().rounded(.down)) + (time - monotonicNow()).floorDividedBy1e6
            let p = WallClock.local(seconds)
            return CivilTime(year: p.year, month: p.month, dayOfMonth: p.day, hour: p.hour, minute: p.minute, second: p.second)
                ?? CivilTime(day: 0, second: 0)
        }
    }
}

extension Microseconds {
    /// Whole seconds, rounded towards minus infinity.
    var floorDividedBy1e6: Int64 { self >= 0 ? self / 1_000_000 : -((-self + 999_999) / 1_000_000) }
}
