#if canImport(Glibc)
import Glibc
#endif

/// The time zone file the C library reads at the first local-time lookup, checked before
/// that lookup happens. glibc opens it with a blocking fopen: `TZ=:/path/to/a/FIFO` would
/// hang the kiosk at its first wall-clock read (with its signals already blocked), and a
/// device would be read as if it were a zone. Only a regular file (or none: a POSIX rule
/// such as `CET-1CEST,M3.5.0,M10.5.0/3`, or UTC) may reach the C library.
public enum ZoneFileGuard {
    /// glibc's defaults (tzfile.c): the site-wide zone, and the folder of named zones.
    public static let siteDefault = "/etc/localtime"
    public static let defaultFolder = "/usr/share/zoneinfo"
    /// What a refused `TZ` is replaced with: UTC, a rule that names no file anyone but
    /// root can place.
    public static let fallback = "UTC0"

    /// The file glibc tries for `tz` (the value of TZ; nil: unset) with `tzdir` (TZDIR),
    /// as tzset.c and tzfile.c find it; nil when it reads no file ("TZ=:" is UTC).
    public static func file(tz: String?, tzdir: String?) -> String? {
        guard var name = tz else { return siteDefault }
        if name.isEmpty { name = "Universal" }
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return nil }
        if name.hasPrefix("/") { return name }
        let folder = tzdir.flatMap { $0.isEmpty ? nil : $0 } ?? defaultFolder
        return folder + "/" + name
    }

    /// Why the zone `tz` names cannot be read safely, or nil. `kind` tells what is at a path
    /// (following links), nil when nothing is: then glibc reads TZ as a rule, or uses UTC.
    public static func problem(tz: String?, tzdir: String?, kind: (String) -> FileKind? = FileKind.of) -> String? {
        guard let path = file(tz: tz, tzdir: tzdir), let found = kind(path), found != .regular else { return nil }
        let source = tz == nil ? "the system's time zone \(path)" : "TZ=\(tz ?? "") names \(path), which"
        return "\(source) is \(found.description), not a zone file"
    }

    /// Checks this process's TZ before anything reads the local time; when it cannot be read
    /// safely, sets TZ to UTC (and drops TZDIR) and returns the warning to log.
    public static func makeSafe() -> String? {
        let tz = getenv("TZ").map { String(cString: $0) }
        let tzdir = getenv("TZDIR").map { String(cString: $0) }
        guard let problem = problem(tz: tz, tzdir: tzdir) else { return nil }
        setenv("TZ", fallback, 1)
        unsetenv("TZDIR")
        return problem + "; local time is UTC"
    }
}
