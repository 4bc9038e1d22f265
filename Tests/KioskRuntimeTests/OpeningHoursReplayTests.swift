import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import OpeningHours
import Platform
import Raster
import Testing
import Trace

/// Opening hours on the virtual clock: a stand open daily 09:00–18:00, replayed from
/// 17:59 on a Monday.
@Suite struct OpeningHoursReplayTests {
    struct Seen { var state: JSONValue; var frames: Int; var wakeups: Int }

    func play(_ records: [TraceRecord], wakeOnTouch: Bool) throws -> (seen: [String: Seen], panel: VirtualPanel) {
        var hours = OpeningHours()
        hours.weekly = [try OpeningHours.weekly("Daily 09:00-18:00")]
        let start = try #require(CivilTime(iso: "2026-11-23T17:59:00"))
        let schedule = StandSchedule(hours: hours, wakeFor: wakeOnTouch ? 300_000_000 : nil,
                                     wallClock: StandWallClock.starting(at: start, origin: 0, zone: .utc))
        let panel = VirtualPanel(width: 480, height: 800)
        var settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        settings.attractAfter = nil
        let runner = try ReplayRunner(settings: settings, display: panel, fonts: try FontSet(), log: Log(minimum: .error),
                                      schedule: schedule)
        var seen: [String: Seen] = [:]
        runner.run(records) { c in seen[c.name] = Seen(state: c.state, frames: runner.framesRendered, wakeups: runner.wakeups) }
        return (seen, panel)
    }

    /// The launcher's first tile, then checkpoints around closing, the night and opening.
    func trace(touchAtNight: Bool) throws -> [TraceRecord] {
        let probe = KioskApp(settings: .replay(exhibit: nil, width: 480, height: 800, seed: 1), fonts: try FontSet(),
                             log: Log(minimum: .error))
        guard case .array(let controls)? = probe.state()["controls"], case .object(let tile)? = controls.first,
              case .number(let x)? = tile.first(where: { $0.0 == "x" })?.1,
              case .number(let y)? = tile.first(where: { $0.0 == "y" })?.1 else { throw KioskError("no tile") }
        var r: [TraceRecord] = [
            TraceRecord(t: 10_000, .touch(phase: .down, id: 0, x: x, y: y)),
            TraceRecord(t: 10_060, .touch(phase: .up, id: 0, x: x, y: y)),
            TraceRecord(t: 30_000, .checkpoint(name: "open")),
            TraceRecord(t: 61_000, .checkpoint(name: "closed")),
            TraceRecord(t: 3_600_000, .checkpoint(name: "night")),
        ]
        if touchAtNight {
            r += [TraceRecord(t: 3_700_000, .touch(phase: .down, id: 0, x: 240, y: 400)),
                  TraceRecord(t: 3_700_060, .touch(phase: .up, id: 0, x: 240, y: 400)),
                  TraceRecord(t: 3_701_000, .checkpoint(name: "touched")),
                  TraceRecord(t: 4_001_000, .checkpoint(name: "asleep-again"))]
        }
        // 09:00 next day is 15 h 1 min after the start.
        r.append(TraceRecord(t: 54_070_000, .checkpoint(name: "morning")))
        return r
    }

    @Test func theDisplayTurnsOffAtClosingAndOnAtOpeningWithNoFramesBetween() throws {
        let (seen, panel) = try play(try trace(touchAtNight: true), wakeOnTouch: false)
        let open = try #require(seen["open"]), closed = try #require(seen["closed"]), night = try #require(seen["night"])
        #expect(open.state["display_on"] == .bool(true))
        #expect(open.state["exhibit"] != .string("launcher"), "a tile was opened")
        #expect(closed.state["display_on"] == .bool(false))
        #expect(night.state["display_on"] == .bool(false))
        // Nothing drawn and nothing woke the loop while closed but the trace's own records.
        #expect(night.frames == closed.frames)
        #expect(night.wakeups - closed.wakeups <= 1, "\(night.wakeups - closed.wakeups) wake-ups in the night")
        // Touches at night do nothing without wake_on_touch.
        #expect(seen["touched"]?.state["display_on"] == .bool(false))
        #expect(seen["touched"]?.frames == closed.frames)
        // Opening: on again, the exhibits start fresh on the launcher.
        let morning = try #require(seen["morning"])
        #expect(morning.state["display_on"] == .bool(true))
        #expect(morning.state["exhibit"] == .string("launcher"))
        #expect(morning.frames > night.frames)
        #expect(panel.powerChanges == [false, true])
    }

    @Test func aTouchWakesAClosedStandForItsMinutesWhenConfigured() throws {
        let (seen, panel) = try play(try trace(touchAtNight: true), wakeOnTouch: true)
        let touched = try #require(seen["touched"]), night = try #require(seen["night"])
        #expect(touched.state["display_on"] == .bool(true))
        #expect(touched.frames > night.frames, "the woken screen shows a frame")
        #expect(seen["asleep-again"]?.state["display_on"] == .bool(false), "5 minutes after the touch it sleeps again")
        #expect(seen["morning"]?.state["display_on"] == .bool(true))
        #expect(panel.powerChanges == [false, true, false, true])
    }
}
