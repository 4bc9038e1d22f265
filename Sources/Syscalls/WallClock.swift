#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// The system's wall clock, for what people read by it (opening hours, visitor counts by
/// hour, metrics a dashboard compares across stands); behaviour is timed by the monotonic
/// clock.
public enum WallClock {
    /// Seconds since 1970 (CLOCK_REALTIME).
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The local date and time of `seconds` since 1970 in the system's time zone
    /// (/etc/localtime, through localtime_r, so daylight saving time is followed).
    public static func local(_ seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var t = time_t(seconds)
        var parts = tm()
        localtime_r(&t, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
                min(59, Int(parts.tm_sec)))
    }
}
