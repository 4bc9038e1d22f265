/// Why an opening-hours text was refused, in the technician's words.
public struct OpeningHoursError: Error, Sendable { public let message: String }

/// When a stand is open: weekly hours ("Mon-Fri 09:00-18:00"), minus closed dates. No
/// weekly hours means open at every hour (of every day that is not a closed date).
public struct OpeningHours: Equatable, Sendable {
    /// One weekly opening: these weekdays (0 = Monday), from `start` to `end` minutes of the
    /// day; an end before the start runs past midnight into the next day.
    public struct Weekly: Equatable, Sendable {
        public var days: Set<Int>
        public var start: Int
        public var end: Int
    }
    public var weekly: [Weekly]
    /// Days (since 1970-01-01) the stand stays closed all day.
    public var closedDays: Set<Int>

    public init(weekly: [Weekly] = [], closedDays: Set<Int> = []) { self.weekly = weekly; self.closedDays = closedDays }

    public var isAlwaysOpen: Bool { weekly.isEmpty && closedDays.isEmpty }

    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// "Mon-Fri 09:00-18:00", "Sat,Sun 10:00-17:00", "Daily 10:00-16:00", "Fri 20:00-01:00".
    public static func weekly(_ text: String) throws(OpeningHoursError) -> Weekly {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { throw OpeningHoursError(message: "'\(text)' is not like \"Mon-Fri 09:00-18:00\"") }
        var days = Set<Int>()
        for item in parts[0].split(separator: ",") {
            if item == "Daily" { days.formUnion(0...6); continue }
            let range = item.split(separator: "-", omittingEmptySubsequences: false)
            guard range.count == 1 || range.count == 2,
                  let a = dayNames.firstIndex(of: String(range[0])), let b = dayNames.firstIndex(of: String(range[range.count - 1])) else {
                throw OpeningHoursError(message: "'\(item)' in '\(text)': days are Mon, Tue, Wed, Thu, Fri, Sat, Sun (or Daily), as Mon-Fri or Sat,Sun")
            }
            var d = a
            while true { days.insert(d); if d == b { break }; d = (d + 1) % 7 }
        }
        let times = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let start = minutes(String(times[0])), let end = minutes(String(times[1])) else {
            throw OpeningHoursError(message: "'\(parts[1])' in '\(text)': hours are like 09:00-18:00 (24-hour clock)")
        }
        guard start != end else { throw OpeningHoursError(message: "'\(text)' opens and closes at the same minute") }
        return Weekly(days: days, start: start, end: end)
    }

    /// "09:30" → 570; "24:00" → 1440 (the end of the day).
    static func minutes(_ text: String) -> Int? {
        let p = text.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 2, p[0].count == 2, p[1].count == 2, p.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(p[0]), let m = Int(p[1]), (0...59).contains(m), (0...24).contains(h), h < 24 || m == 0 else { return nil }
        return h * 60 + m
    }

    public func isOpen(at t: CivilTime) -> Bool {
        if isAlwaysOpen { return true }
        if closedDays.contains(t.day) { return false }
        if weekly.isEmpty { return true }
        let minute = t.minuteOfDay
        for w in weekly {
            if w.start < w.end {
                if w.days.contains(t.weekday) && minute >= w.start && minute < w.end { return true }
            } else {
                // Past midnight: the evening of an opening day, or the small hours after it.
                if w.days.contains(t.weekday) && minute >= w.start { return true }
                if w.days.contains((t.weekday + 6) % 7) && minute < w.end && !closedDays.contains(t.day - 1) { return true }
            }
        }
        return false
    }

    /// The next moment after `t` when open or closed changes, within 15 days; nil when it
    /// never changes (always open, or never open). Only midnight and the hours' own starts
    /// and ends can be such a moment, so only those are looked at.
    public func nextChange(after t: CivilTime) -> CivilTime? {
        let now = isOpen(at: t)
        var minutes = Set<Int>([0])
        for w in weekly { minutes.insert(w.start % 1440); minutes.insert(w.end % 1440) }
        let boundaries = minutes.sorted()
        let limit = t.adding(seconds: 15 * 86_400)
        for day in t.day...(t.day + 15) {
            for minute in boundaries {
                let probe = CivilTime(day: day, second: minute * 60)
                if probe <= t { continue }
                if probe > limit { return nil }
                if isOpen(at: probe) != now { return probe }
            }
        }
        return nil
    }
}
