/// A time zone as its rules give it: the offset from UTC (seconds east) at each instant
/// (seconds since 1970, UTC). A running stand reads its zone through `localtime_r` (the
/// system's zone, or TZ); tests give rules of their own.
///
/// Transitions are found by looking at the offset every six hours and halving to the
/// second, so two transitions less than six hours apart that cancel out would go unseen (no
/// zone has had such a pair).
public struct LocalTimeZone {
    public let offset: (Int64) -> Int

    public init(offset: @escaping (Int64) -> Int) { self.offset = offset }

    /// Coordinated universal time: the offset is always 0.
    public static var utc: LocalTimeZone { LocalTimeZone { _ in 0 } }

    /// The wall clock's reading at `instant`.
    public func civil(at instant: Int64) -> CivilTime {
        CivilTime(secondsSince1970: instant + Int64(offset(instant)))
    }

    static let scanStep: Int64 = 6 * 3600

    /// The first instant after `instant`, and no later than `limit`, at which the offset
    /// changes; nil when it does not change in that time.
    public func nextTransition(after instant: Int64, upTo limit: Int64) -> Int64? {
        var low = instant
        var lowOffset = offset(instant)
        while low < limit {
            let high = min(low + LocalTimeZone.scanStep, limit)
            if offset(high) != lowOffset { return firstInstant(withOffsetOf: high, after: low) }
            low = high
            lowOffset = offset(high)
        }
        return nil
    }

    /// The first instant in (low, high] with high's offset, where low's differs.
    private func firstInstant(withOffsetOf high: Int64, after low: Int64) -> Int64 {
        let target = offset(high)
        var (lo, hi) = (low, high)
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if offset(mid) == target { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// The first instant at which the wall clock reads `wall` or later, seen from the day
    /// around it: a time that exists once is that instant; a repeated time (the hour that
    /// comes twice when clocks go back) is its first occurrence; a time that does not exist
    /// (the hour skipped when clocks go forward) is the instant of the skip, when the clock
    /// jumps past it.
    public func firstInstant(reading wall: CivilTime) -> Int64 {
        let face = wall.secondsSince1970
        // Offsets are within ±26 h of UTC, and no zone changes twice within two days.
        let before = offset(face - 2 * 86_400), after = offset(face + 2 * 86_400)
        var found: Int64?
        for candidate in [face - Int64(before), face - Int64(after)] where offset(candidate) == Int(face - candidate) {
            found = min(found ?? candidate, candidate)
        }
        if let found { return found }
        // In a gap: the clock jumps from before `wall` to after it at the transition.
        let (early, late) = (min(face - Int64(before), face - Int64(after)), max(face - Int64(before), face - Int64(after)))
        return nextTransition(after: early - 1, upTo: late) ?? late
    }
}

extension OpeningHours {
    /// Whether open at `instant` (seconds since 1970) on the wall clock of `zone`.
    public func isOpen(at instant: Int64, in zone: LocalTimeZone) -> Bool { isOpen(at: zone.civil(at: instant)) }

    /// The first instant after `instant` (seconds since 1970) when open or closed changes on
    /// the wall clock of `zone`, within `horizon` seconds; nil when it does not change in
    /// that time. The hours are read on the wall clock as it shows at each instant: a
    /// change at a time that does not exist that day (02:30 on the night clocks go forward)
    /// happens at the instant the clock jumps past it, and the hour that comes twice when
    /// clocks go back is open or closed each time it comes, as its times say.
    public func nextChange(after instant: Int64, in zone: LocalTimeZone, horizon: Int64 = 15 * 86_400) -> Int64? {
        let limit = instant + horizon
        let openNow = isOpen(at: instant, in: zone)
        var t = instant
        while t < limit {
            let offset = Int64(zone.offset(t))
            let transition = zone.nextTransition(after: t, upTo: limit)
            // On this offset, the first civil change after the clock's reading at t.
            if let change = nextChange(after: CivilTime(secondsSince1970: t + offset)) {
                let candidate = change.secondsSince1970 - offset
                if candidate < (transition ?? limit + 1) { return candidate <= limit ? candidate : nil }
            }
            guard let transition else { return nil }
            // The clock jumps at the transition: what it reads then may be open or closed.
            if isOpen(at: transition, in: zone) != openNow { return transition }
            t = transition
        }
        return nil
    }
}
