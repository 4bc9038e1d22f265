/// A moment on the stand's wall clock: local date and time to the second, as the museum
/// reads it (no time zone inside; the system's zone made it, or a replay's start time).
public struct CivilTime: Equatable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (local), and seconds into that day.
    public var day: Int
    public var second: Int

    public init(day: Int, second: Int) {
        self.day = day + second.floorDivided(by: 86_400)
        self.second = second.floorModulo(86_400)
    }

    public init?(year: Int, month: Int, dayOfMonth: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...12).contains(month), (1...CivilTime.daysIn(month: month, year: year)).contains(dayOfMonth),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second), (1...9999).contains(year) else { return nil }
        self.init(day: CivilTime.days(year: year, month: month, day: dayOfMonth), second: hour * 3600 + minute * 60 + second)
    }

    /// "2026-11-23T17:59:00" (seconds optional), or nil.
    public init?(iso text: String) {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = CivilTime.date(String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(clock[0]), let m = Int(clock[1]) else { return nil }
        let s = clock.count == 3 ? Int(clock[2]) ?? -1 : 0
        self.init(year: date.year, month: date.month, dayOfMonth: date.day, hour: h, minute: m, second: s)
    }

    /// "2026-12-25" → its parts, or nil.
    public static func date(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let p = text.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 3, p[0].count == 4, p[1].count == 2, p[2].count == 2,
              p.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]),
              (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y) else { return nil }
        return (y, m, d)
    }

    /// The civil time that reads `seconds` since 1970-01-01T00:00 (a UTC instant plus the
    /// zone's offset, in `LocalTimeZone`).
    public init(secondsSince1970 seconds: Int64) {
        let day = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        self.init(day: Int(day), second: Int(seconds - day * 86_400))
    }

    /// Seconds since 1970-01-01T00:00 on this clock face (no zone: add none, subtract none).
    public var secondsSince1970: Int64 { Int64(day) * 86_400 + Int64(second) }

    public static func < (a: CivilTime, b: CivilTime) -> Bool { (a.day, a.second) < (b.day, b.second) }

    public func adding(seconds: Int) -> CivilTime { CivilTime(day: day, second: second + seconds) }
    public func seconds(since other: CivilTime) -> Int { (day - other.day) * 86_400 + (second - other.second) }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public var weekday: Int { (day + 3).floorModulo(7) }
    public var minuteOfDay: Int { second / 60 }

    public var description: String {
        let (y, m, d) = CivilTime.civil(day)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    }

    static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
    static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: isLeap(y) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
    static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

extension Int {
    func floorDivided(by d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
    func floorModulo(_ d: Int) -> Int { self - floorDivided(by: d) * d }
}
