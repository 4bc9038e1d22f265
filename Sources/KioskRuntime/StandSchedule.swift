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
    /// The stand's wall clock, seen from the loop's monotonic clock.
    public var wallClock: StandWallClock
    /// Whether that wall clock can be believed; while not, `clock.whenUnknown` says whether
    /// the stand is open, and the hours wait.
    public var clock: ClockTrust

    /// The loop looks at the hours at least this often, whatever the next change: a closure
    /// longer than the look-ahead still ends, and a zone's rules or a clock that changed
    /// without a step being heard are followed within the hour.
    public static let lookAgainEvery: Microseconds = 3_600_000_000

    public init(hours: OpeningHours, wakeFor: Microseconds?, wallClock: StandWallClock, clock: ClockTrust = .alwaysTrusted()) {
        self.hours = hours; self.wakeFor = wakeFor; self.wallClock = wallClock; self.clock = clock
    }

    public func isOpen(at time: Microseconds) -> Bool {
        guard clock.isTrusted(at: time) else { return clock.whenUnknown == .open }
        return hours.isOpen(at: wallClock.civil(at: time))
    }

    /// The monotonic instant of the next opening or closing after `time`, within the
    /// hours' look-ahead (15 days), if any: found on the wall clock's instants through its
    /// zone, so a day of 23 or 25 hours moves it as it moves the clock.
    public func nextChange(after time: Microseconds) -> Microseconds? {
        // An untrusted clock's next change is not known: the hours wait for a trusted one.
        guard clock.isTrusted(at: time) else { return nil }
        let now = wallClock.realtime(time)
        guard let next = hours.nextChange(after: now.floorDividedBy1e6, in: wallClock.zone) else { return nil }
        return time + (next * 1_000_000 - now)
    }

    /// When the loop must look at the hours again after `time`: the next change, or within
    /// the hour if that is sooner (or there is none in sight).
    public func nextLook(after time: Microseconds) -> Microseconds {
        // A clock not trusted yet is looked at again every minute: it may be set meanwhile.
        let hourly = time + (clock.followsTheSystem && !clock.isTrusted(at: time) ? ClockTrust.lookAgainEvery : StandSchedule.lookAgainEvery)
        guard let change = nextChange(after: time) else { return hourly }
        return min(change, hourly)
    }

    /// A wall clock that reads `start` when the monotonic clock reads `origin`, in UTC
    /// (replays and tests; see `StandWallClock.starting`).
    public static func fixedStart(_ start: CivilTime, origin: Microseconds) -> (Microseconds) -> CivilTime {
        let clock = StandWallClock.starting(at: start, origin: origin, zone: .utc)
        return { clock.civil(at: $0) }
    }

    /// The system's wall clock in its local time zone, read for each moment asked.
    public static func systemLocalTime(monotonicNow: @escaping () -> Microseconds) -> (Microseconds) -> CivilTime {
        let clock = StandWallClock.system(monotonicNow: monotonicNow)
        return { clock.civil(at: $0) }
    }
}

/// The stand's wall clock as the loop sees it: the UTC instant at a monotonic instant, and
/// the zone whose rules turn it into the local time the opening hours are written in.
public struct StandWallClock {
    /// Microseconds since 1970 (UTC) at a monotonic instant.
    public var realtime: (Microseconds) -> Microseconds
    public var zone: LocalTimeZone

    public init(realtime: @escaping (Microseconds) -> Microseconds, zone: LocalTimeZone) {
        self.realtime = realtime; self.zone = zone
    }

    /// The local date and time at a monotonic instant.
    public func civil(at time: Microseconds) -> CivilTime { zone.civil(at: realtime(time).floorDividedBy1e6) }

    /// CLOCK_REALTIME, read at each moment asked (so a clock step is followed), in the
    /// system's time zone (TZ, else /etc/localtime, through `localtime_r`).
    public static func system(monotonicNow: @escaping () -> Microseconds) -> StandWallClock {
        StandWallClock(realtime: { time in
            let wall = WallClock.now()
            let micros = wall.isFinite && abs(wall) < 1e12 ? Microseconds(wall * 1e6) : 0
            return micros + (time - monotonicNow())
        }, zone: .system)
    }

    /// A wall clock that reads `start` in `zone` when the monotonic clock reads `origin`
    /// (a replay's --start-time), then runs as real time does: across a change of daylight
    /// saving time the local reading jumps as a stand's would. A `start` that comes twice
    /// is its first occurrence; one that does not exist that day is the instant the clock
    /// jumps past it.
    public static func starting(at start: CivilTime, origin: Microseconds, zone: LocalTimeZone) -> StandWallClock {
        let instant = zone.firstInstant(reading: start)
        return StandWallClock(realtime: { time in instant * 1_000_000 + (time - origin) }, zone: zone)
    }
}

extension LocalTimeZone {
    /// The system's time zone, as `localtime_r` reads it (TZ, else /etc/localtime).
    public static var system: LocalTimeZone { LocalTimeZone { WallClock.utcOffset(at: $0) } }
}

extension Microseconds {
    /// Whole seconds, rounded towards minus infinity.
    var floorDividedBy1e6: Int64 { self >= 0 ? self / 1_000_000 : -((-self + 999_999) / 1_000_000) }
}
