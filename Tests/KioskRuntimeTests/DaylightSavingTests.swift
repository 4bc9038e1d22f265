#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import OpeningHours
import Platform
import Raster
import Syscalls
import Testing
import Trace

/// Opening hours across a change of daylight saving time, on the zones' real rules
/// (tzdata): Europe/Berlin's two 2026 transitions (an hour each way) and
/// Australia/Lord_Howe's (half an hour each way).
@Suite struct DaylightSavingTests {
    func hours(_ weekly: [String], closed: [String] = []) throws -> OpeningHours {
        var h = OpeningHours()
        for text in weekly { h.weekly.append(try OpeningHours.weekly(text)) }
        for d in closed { h.closedDays.insert(try #require(CivilTime(iso: d + "T00:00")).day) }
        return h
    }
    func utc(_ iso: String) throws -> Int64 { try #require(CivilTime(iso: iso)).secondsSince1970 }

    // MARK: The zone's clock

    @Test func theZonesRulesAreTheTzdataOnes() throws {
        let berlin = try ZoneFile.zone("Europe/Berlin"), lordHowe = try ZoneFile.zone("Australia/Lord_Howe")
        #expect(berlin.offset(try utc("2026-03-29T00:59:59")) == 3600)
        #expect(berlin.offset(try utc("2026-03-29T01:00:00")) == 7200)
        #expect(berlin.offset(try utc("2026-10-25T00:59:59")) == 7200)
        #expect(berlin.offset(try utc("2026-10-25T01:00:00")) == 3600)
        #expect(lordHowe.offset(try utc("2026-10-03T15:30:00")) == 39_600)
        #expect(lordHowe.offset(try utc("2026-10-03T15:29:59")) == 37_800)
        #expect(berlin.nextTransition(after: try utc("2026-03-20T00:00"), upTo: try utc("2026-04-20T00:00")) == (try utc("2026-03-29T01:00")))
        #expect(lordHowe.nextTransition(after: try utc("2026-04-01T00:00"), upTo: try utc("2026-04-20T00:00")) == (try utc("2026-04-04T15:00")))
    }

    @Test func aLocalTimeIsItsFirstInstantAndASkippedOneTheInstantOfTheSkip() throws {
        let berlin = try ZoneFile.zone("Europe/Berlin"), lordHowe = try ZoneFile.zone("Australia/Lord_Howe")
        func wall(_ s: String) throws -> CivilTime { try #require(CivilTime(iso: s)) }
        #expect(berlin.firstInstant(reading: try wall("2026-03-29T01:30")) == (try utc("2026-03-29T00:30")))
        // 02:30 does not exist that night: the clock jumps from 02:00 to 03:00 at 01:00 UTC.
        #expect(berlin.firstInstant(reading: try wall("2026-03-29T02:30")) == (try utc("2026-03-29T01:00")))
        #expect(berlin.firstInstant(reading: try wall("2026-03-29T03:00")) == (try utc("2026-03-29T01:00")))
        // 02:30 comes twice in October: the first is in summer time.
        #expect(berlin.firstInstant(reading: try wall("2026-10-25T02:30")) == (try utc("2026-10-25T00:30")))
        #expect(berlin.firstInstant(reading: try wall("2026-10-25T03:30")) == (try utc("2026-10-25T02:30")))
        #expect(lordHowe.firstInstant(reading: try wall("2026-10-04T02:15")) == (try utc("2026-10-03T15:30")))
        #expect(lordHowe.firstInstant(reading: try wall("2026-04-05T01:45")) == (try utc("2026-04-04T14:45")))
        #expect(berlin.civil(at: try utc("2026-03-29T01:00")) == (try wall("2026-03-29T03:00")))
    }

    // MARK: The next change, as the journal says it and the timer is armed

    /// The delay to the next change from a monotonic instant, and the wall clock then.
    func next(_ hours: OpeningHours, zone: LocalTimeZone, from start: String) throws -> (seconds: Double, wall: String) {
        let clock = StandWallClock.starting(at: try #require(CivilTime(iso: start)), origin: 5_000_000, zone: zone)
        let schedule = StandSchedule(hours: hours, wakeFor: nil, wallClock: clock)
        let change = try #require(schedule.nextChange(after: 5_000_000))
        return (Double(change - 5_000_000) / 1e6, schedule.wallClock.civil(at: change).description)
    }

    @Test func theNextOpeningIsCountedInRealHoursAcrossBothBerlinTransitions() throws {
        let berlin = try ZoneFile.zone("Europe/Berlin")
        let day = try hours(["Daily 09:00-18:00"])
        // Saturday 18:00 to Sunday 09:00 is 14 h in March and 16 h in October.
        let march = try next(day, zone: berlin, from: "2026-03-28T18:00:00")
        #expect(march.seconds == 14 * 3600 && march.wall == "2026-03-29T09:00:00")
        let october = try next(day, zone: berlin, from: "2026-10-24T18:00:00")
        #expect(october.seconds == 16 * 3600 && october.wall == "2026-10-25T09:00:00")
        // Closing on those Sundays: 9 h as ever, the change is at night.
        #expect(try next(day, zone: berlin, from: "2026-03-29T09:00:00").seconds == 9 * 3600)
        // 03:00–04:00 on the night clocks go forward: open at 03:00 CEST, 30 min after 01:30 CET.
        let night = try hours(["Daily 03:00-04:00"])
        let opening = try next(night, zone: berlin, from: "2026-03-29T01:30:00")
        #expect(opening.seconds == 1800 && opening.wall == "2026-03-29T03:00:00")
        #expect(try next(night, zone: berlin, from: "2026-03-29T03:00:00").seconds == 3600)
    }

    @Test func lordHowesHalfHourShiftsMoveTheNextOpeningByHalfAnHour() throws {
        let lordHowe = try ZoneFile.zone("Australia/Lord_Howe")
        let day = try hours(["Daily 09:00-18:00"])
        #expect(try next(day, zone: lordHowe, from: "2026-10-03T18:00:00").seconds == 14.5 * 3600)
        #expect(try next(day, zone: lordHowe, from: "2026-04-04T18:00:00").seconds == 15.5 * 3600)
        // Hours that start in the skipped half hour open when the clock jumps past it.
        let skipped = try hours(["Daily 02:15-03:00"])
        let opening = try next(skipped, zone: lordHowe, from: "2026-10-04T01:50:00")
        #expect(opening.seconds == 600 && opening.wall == "2026-10-04T02:30:00")
    }

    @Test func closedDatesWithoutHoursCloseThoseDaysOnlyAcrossATransition() throws {
        let berlin = try ZoneFile.zone("Europe/Berlin")
        let h = try hours([], closed: ["2026-03-29"])
        // Saturday 12:00 CET to Sunday midnight is 12 h; closed until Monday 00:00 CEST, 23 h later.
        #expect(try next(h, zone: berlin, from: "2026-03-28T12:00:00").seconds == 12 * 3600)
        #expect(try next(h, zone: berlin, from: "2026-03-29T00:00:00").seconds == 23 * 3600)
    }

    // MARK: Replays: the display on the virtual clock through the zone

    struct Replayed { var on: [String: Bool]; var powerChanges: [Bool] }

    /// Replays checkpoints only (at seconds from the start) on a stand with `weekly` hours.
    func replay(_ weekly: [String], closed: [String] = [], zone: LocalTimeZone, start: String,
                checkpoints: [(String, Double)]) throws -> Replayed {
        let schedule = StandSchedule(hours: try hours(weekly, closed: closed), wakeFor: nil,
                                     wallClock: StandWallClock.starting(at: try #require(CivilTime(iso: start)), origin: 0, zone: zone))
        let panel = VirtualPanel(width: 480, height: 800)
        var settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        settings.attractAfter = nil
        let runner = try ReplayRunner(settings: settings, display: panel, fonts: try FontSet(), log: Log(minimum: .error),
                                      schedule: schedule)
        var on: [String: Bool] = [:]
        runner.run(checkpoints.map { TraceRecord(microseconds: Microseconds($0.1 * 1e6), .checkpoint(name: $0.0)) }) { c in
            on[c.name] = c.state["display_on"] == .bool(true)
        }
        return Replayed(on: on, powerChanges: panel.powerChanges)
    }

    @Test func berlinSpringForwardNightWithHoursFrom3To4TurnsTheDisplayOnAndOff() throws {
        // From 01:30 CET: the clock jumps to 03:00 CEST after 30 min; 04:00 CEST is 1 h later.
        let r = try replay(["Daily 03:00-04:00"], zone: try ZoneFile.zone("Europe/Berlin"), start: "2026-03-29T01:30:00",
                           checkpoints: [("start", 1), ("before-03", 1799), ("after-03", 1801), ("before-04", 5399), ("after-04", 5401)])
        #expect(r.on == ["start": false, "before-03": false, "after-03": true, "before-04": true, "after-04": false])
        #expect(r.powerChanges == [false, true, false])
    }

    // A checkpoint wakes the loop, which looks at the hours again: between the night's
    // transition and the opening these replays have none, so the display must come on by
    // the timer armed before the transition, at the right instant.

    @Test func berlinOpensAt9OnBothTransitionSundays() throws {
        let berlin = try ZoneFile.zone("Europe/Berlin")
        // March: Saturday 17:59 CET, closing after 60 s, opening 14 h later. The clock goes
        // forward 8 h 1 min after the start.
        let march = try replay(["Daily 09:00-18:00"], zone: berlin, start: "2026-03-28T17:59:00",
                               checkpoints: [("open", 30), ("closed", 61), ("night", 8 * 3600), ("after-9", 60 + 14 * 3600 + 1)])
        #expect(march.on == ["open": true, "closed": false, "night": false, "after-9": true])
        #expect(march.powerChanges == [false, true])
        // October: 16 h (15 h, where the old count opened, is 08:00 CET: still closed).
        let october = try replay(["Daily 09:00-18:00"], zone: berlin, start: "2026-10-24T17:59:00",
                                 checkpoints: [("closed", 61), ("an-hour-early", 60 + 15 * 3600 + 1), ("after-9", 60 + 16 * 3600 + 1)])
        #expect(october.on == ["closed": false, "an-hour-early": false, "after-9": true])
        #expect(october.powerChanges == [false, true])
    }

    @Test func theHourThatComesTwiceIsOpenEachTimeItsTimesSay() throws {
        // 02:30–02:45 on 2026-10-25 comes twice in Berlin: at 00:30 and at 01:30 UTC.
        let r = try replay(["Daily 02:30-02:45"], zone: try ZoneFile.zone("Europe/Berlin"), start: "2026-10-25T02:00:00",
                           checkpoints: [("cest", 1801), ("cest-after", 2701), ("cet", 5401), ("cet-after", 6301)])
        #expect(r.on == ["cest": true, "cest-after": false, "cet": true, "cet-after": false])
        #expect(r.powerChanges == [false, true, false, true, false])
    }

    @Test func lordHoweOpensOnTheHalfHourShiftedClock() throws {
        let lordHowe = try ZoneFile.zone("Australia/Lord_Howe")
        let spring = try replay(["Daily 09:00-18:00"], zone: lordHowe, start: "2026-10-03T17:59:00",
                                checkpoints: [("closed", 61), ("after-9", 60 + 14.5 * 3600 + 1)])
        #expect(spring.on == ["closed": false, "after-9": true])
        let autumn = try replay(["Daily 09:00-18:00"], zone: lordHowe, start: "2026-04-04T17:59:00",
                                checkpoints: [("closed", 61), ("half-an-hour-early", 60 + 15 * 3600 + 1), ("after-9", 60 + 15.5 * 3600 + 1)])
        #expect(autumn.on == ["closed": false, "half-an-hour-early": false, "after-9": true])
        // 02:15 does not exist on 2026-10-04: open at the jump (02:00 → 02:30), closed at 03:00.
        let skipped = try replay(["Daily 02:15-03:00"], zone: lordHowe, start: "2026-10-04T01:50:00",
                                 checkpoints: [("before", 599), ("jumped", 601), ("before-3", 2399), ("after-3", 2401)])
        #expect(skipped.on == ["before": false, "jumped": true, "before-3": true, "after-3": false])
    }

    // MARK: Item 5: long closures and clock steps

    @Test func aClosureLongerThanTheLookAheadStillEndsOnTime() throws {
        // Closed from Tuesday 1 to Sunday 20 December: the next opening, Monday 21 at 09:00,
        // is 20 days away, beyond the 15-day look-ahead.
        let closed = (1...20).map { "2026-12-\($0 < 10 ? "0" : "")\($0)" }
        let reopening = 60.0 + 20 * 86_400 + 15 * 3600
        let r = try replay(["Daily 09:00-18:00"], closed: closed, zone: .utc, start: "2026-11-30T17:59:00",
                           checkpoints: [("closed", 61), ("after", reopening + 1)])
        #expect(r.on == ["closed": false, "after": true])
        #expect(r.powerChanges == [false, true])
    }

    @Test func aStepOfTheWallClockIsFollowedAtOnce() throws {
        // Open at 12:00; 10 s later NTP steps the clock 7 h on, to 19:00: closed.
        let events = VirtualEvents()
        let start = try #require(CivilTime(iso: "2026-11-23T12:00:00")).secondsSince1970 * 1_000_000
        let stepAt: Microseconds = 10_000_000
        let wallClock = StandWallClock(realtime: { t in start + t + (t >= stepAt ? 7 * 3_600_000_000 : 0) }, zone: .utc)
        var settings = quietSettings()
        settings.schedule = StandSchedule(hours: try hours(["Daily 09:00-18:00"]), wakeFor: nil, wallClock: wallClock)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: TestPatternScene(say: { _ in }), settings: settings)
        try frames.leaveOnSignals(orAfter: 10.5)
        let panel = VirtualPanel(width: 480, height: 800)
        try frames.start(display: panel)
        events.stepWallClock(at: stepAt)
        try frames.run()
        #expect(panel.powerChanges == [false], "the display went off when the clock was set")
        #expect(events.now == 10_500_000)
    }

    @Test func aWakeUpTimerThatCannotBeArmedIsSaidOnceAMinute() throws {
        let events = VirtualEvents()
        let lines = Locked<[String]>([])
        let log = Log(minimum: .info, sink: { _, line in lines.withLock { $0.append(line) } })
        var settings = quietSettings()
        let wallClock = StandWallClock.starting(at: try #require(CivilTime(iso: "2026-11-23T12:00:00")), origin: 0, zone: .utc)
        settings.schedule = StandSchedule(hours: try hours(["Daily 09:00-18:00"]), wakeFor: nil, wallClock: wallClock)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: log,
                               content: TestPatternScene(say: { _ in }), settings: settings)
        try frames.leaveOnSignals(orAfter: 90)
        try frames.start(display: VirtualPanel(width: 480, height: 800))
        events.timerSetErrno = EINVAL
        // Touches wake the loop 30 times in 90 s: each wake-up arms the timer again.
        let screen = ScriptedTouchscreen(events: events)
        for i in 0..<30 { screen.touch(i % 2 == 0 ? .down : .up, Vec2(100, 100), at: Microseconds(i) * 3_000_000 + 1_000) }
        try frames.attachInput(screen)
        try frames.run()
        let said = lines.withLock { $0 }.filter { $0.contains("wake-up timer") }
        #expect(said.count == 2, "\(said)")
        #expect(said.first?.contains("Invalid argument") == true)
    }
}
