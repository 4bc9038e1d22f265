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

    /// Seconds east of UTC in the system's time zone (TZ, else /etc/localtime) at `seconds`
    /// since 1970: what `localtime_r` adds for that instant, daylight saving time included.
    public static func utcOffset(at seconds: Int64) -> Int {
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// Makes the zone `name` (e.g. "Europe/Berlin", a file under /usr/share/zoneinfo) this
    /// process's local time, as TZ would; nil when done, else what is wrong. glibc falls
    /// back to UTC without a word for a zone it cannot read, so the file is looked at first:
    /// a plain relative name, of a regular file (a FIFO would block the first lookup).
    public static func useTimeZone(named name: String) -> String? {
        let allowed = name.utf8.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D || c == 0x2B || c == 0x2F
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 100, allowed, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else {
            return "expected a zone name such as Europe/Berlin (letters, digits, _ + - and /)"
        }
        let path = zoneDirectory + "/" + name
        var info = stat()
        guard stat(path, &info) == 0 else { return "no such zone: \(path): \(String(cString: strerror(errno)))" }
        // The S_IF* constants import as Int32 or mode_t depending on the Glibc module.
        guard UInt32(truncatingIfNeeded: info.st_mode) & UInt32(truncatingIfNeeded: S_IFMT) == UInt32(truncatingIfNeeded: S_IFREG) else { return "\(path) is not a zone file" }
        guard setenv("TZ", ":" + path, 1) == 0 else { return "setenv TZ: \(String(cString: strerror(errno)))" }
        tzset()
        return nil
    }

    /// Where the system's zone files are (Debian's tzdata).
    public static let zoneDirectory = "/usr/share/zoneinfo"
}
