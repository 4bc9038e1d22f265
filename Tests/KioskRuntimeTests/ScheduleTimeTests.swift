import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import OpeningHours
import Platform
import Raster
import Testing
import Trace

/// Opening and closing happen at their own instants, whatever the frame cadence: a stand
/// woken by a touch before opening time, showing an exhibit while frames flow, opens at
/// 09:00:00 sharp (the exhibits start fresh, the attract loop counts from then), whether the
/// replay is looked at never, every 10 ms or every 7 ms; a stand showing an exhibit closes
/// at 18:00:00 sharp, not at the frame after it.
@Suite struct ScheduleTimeTests {
    /// 09:00:00 (or 18:00:00) is this far into the replay: not on a frame of a 60 Hz panel,
    /// nor on a look.
    static let change: Microseconds = 3_004_321

    /// Newton's cradle showing; after opening, the launcher and its attract loop.
    static func settings() -> KioskApp.Settings {
        var s = KioskApp.Settings.replay(exhibit: "newtons-cradle", width: 480, height: 800, seed: 3)
        s.idleTimeout = 30_000_000
        s.attractAfter = 1_500_000
        return s
    }

    /// Open 09:00–18:00 daily, `change` into the replay being 09:00 (`beforeOpening`) or
    /// 18:00; a touch while closed wakes the stand for five minutes.
    static func schedule(beforeOpening: Bool) throws -> StandSchedule {
        var hours = OpeningHours()
        hours.weekly = [try OpeningHours.weekly("Daily 09:00-18:00")]
        let start = try #require(CivilTime(iso: beforeOpening ? "2026-11-23T08:59:57" : "2026-11-23T17:59:57"))
        let wall = StandWallClock.starting(at: start, origin: change - 3_000_000, zone: .utc)
        return StandSchedule(hours: hours, wakeFor: 300_000_000, wallClock: wall)
    }

    /// The cradle's demo up to its ball's release (at 2.2 s): it swings across the change,
    /// frames flowing. `wakingFirst`: a touch at 0.1 s wakes the closed stand, and the demo
    /// comes 0.3 s later.
    static func touches(wakingFirst: Bool) throws -> [TraceRecord] {
        let demo = try TraceReader.records(in: NewtonsCradle.demoTrace)
        var records = demo.prefix { $0.microseconds <= 2_200_000 }.map { r in
            TraceRecord(microseconds: r.microseconds + (wakingFirst ? 300_000 : 0), r.payload)
        }
        #expect(records.count == 6)
        if wakingFirst {
            records.insert(contentsOf: [TraceRecord(microseconds: 100_000, .touch(phase: .down, id: 0, x: 240, y: 700)),
                                        TraceRecord(microseconds: 160_000, .touch(phase: .up, id: 0, x: 240, y: 700))], at: 0)
        }
        return records
    }

    /// The replay's state at `end`, with a look every `every` (none: nil); the states at
    /// extra checkpoints in `looks`.
    static func replayed(_ records: [TraceRecord], end: Microseconds, every: Microseconds?, beforeOpening: Bool = true,
                         looks: [Microseconds] = [], fonts: FontSet) throws -> (state: String, power: [Bool], looked: [String]) {
        var all = records + looks.map { TraceRecord(microseconds: $0, .checkpoint(name: "extra")) }
        if let every {
            for t in stride(from: every, to: end, by: Int(every)) { all.append(TraceRecord(microseconds: t, .checkpoint(name: "look"))) }
        }
        all.append(TraceRecord(microseconds: end, .checkpoint(name: "end")))
        all = all.enumerated().sorted { a, b in
            a.element.microseconds != b.element.microseconds ? a.element.microseconds < b.element.microseconds : a.offset < b.offset
        }.map { $0.element }
        let panel = VirtualPanel(width: 480, height: 800)
        let runner = try ReplayRunner(settings: settings(), display: panel, fonts: fonts, log: Log(minimum: .error),
                                      schedule: try schedule(beforeOpening: beforeOpening))
        var last = ""
        var looked: [String] = []
        runner.run(all) { checkpoint in
            if checkpoint.name == "end" { last = checkpoint.state.serialized() }
            if checkpoint.name == "extra" { looked.append(checkpoint.state.serialized()) }
        }
        return (last, panel.powerChanges, looked)
    }

    @Test func openingAppliesAtItsInstantWhateverTheLooks() throws {
        let fonts = try FontSet()
        let records = try Self.touches(wakingFirst: true)
        // The attract loop starts 1.5 s after opening; its demo then runs a while.
        let end = Self.change + 4_000_000
        let once = try Self.replayed(records, end: end, every: nil, fonts: fonts)
        #expect(once.state.contains("\"attract\":"), "the attract loop started after opening: \(once.state.prefix(200))")
        #expect(once.power == [false, true], "off at the start (closed), woken by the touch")
        for every: Microseconds in [10_000, 7_000] {
            let looked = try Self.replayed(records, end: end, every: every, fonts: fonts)
            #expect(looked.state == once.state, "looked at every \(every) µs")
            #expect(looked.power == once.power)
        }
    }
}

extension ScheduleTimeTests {
    @Test func closingAppliesAtItsInstantNotAtTheNextFrame() throws {
        let fonts = try FontSet()
        // Open, the cradle swinging when 18:00 comes; looked at 1 ms before and after.
        let records = try Self.touches(wakingFirst: false)
        let run = try Self.replayed(records, end: Self.change + 500_000, every: nil, beforeOpening: false,
                                    looks: [Self.change - 1_000, Self.change + 1_000], fonts: fonts)
        #expect(run.looked.count == 2)
        #expect(run.looked.first?.contains("\"display_on\":true") == true, "open at 17:59:59.999")
        #expect(run.looked.last?.contains("\"display_on\":false") == true, "closed at 18:00:00.001")
        #expect(run.power == [false])
    }
}
