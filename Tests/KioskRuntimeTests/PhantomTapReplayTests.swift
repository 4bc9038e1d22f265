import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import OpeningHours
import Platform
import Raster
import Testing
import Trace

/// The 10-inch Touch Display 2's phantom: a zero-length tap at one spot every 12.864 s,
/// played through the whole kiosk on the virtual clock.
@Suite struct PhantomTapReplayTests {
    static let period = 12_864.0   // ms

    /// The launcher's first tile: the phantom lands on it.
    func tileCentre() throws -> Vec2 {
        let probe = KioskApp(settings: .replay(exhibit: nil, width: 480, height: 800, seed: 1), fonts: try FontSet(),
                             log: Log(minimum: .error))
        guard case .array(let controls)? = probe.state()["controls"], case .object(let tile)? = controls.first,
              case .number(let x)? = tile.first(where: { $0.0 == "x" })?.1,
              case .number(let y)? = tile.first(where: { $0.0 == "y" })?.1 else { throw KioskError("no tile") }
        return Vec2(x, y)
    }

    func phantoms(at p: Vec2, from start: Double, until end: Double) -> [TraceRecord] {
        var r: [TraceRecord] = []
        var t = start
        while t < end {
            r.append(TraceRecord(t: t, .touch(phase: .down, id: 0, x: p.x, y: p.y)))
            r.append(TraceRecord(t: t + 1, .touch(phase: .up, id: 0, x: p.x, y: p.y)))
            t += Self.period
        }
        return r
    }

    func sorted(_ records: [TraceRecord]) -> [TraceRecord] {
        records.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map { $0.element }
    }

    @Test func phantomTapsForTenMinutesLetTheIdleResetAndTheAttractLoopComeOnTime() throws {
        let tile = try tileCentre()
        // Phantoms from 5 s to 10 min; the first four pass (the first opens the tile), after
        // the third repeat (43.6 s) none does: idle resets at 133.6 s, the demos start 300 s later.
        var records = phantoms(at: tile, from: 5_000, until: 600_000)
        for (name, t) in [("before-reset", 133_000.0), ("after-reset", 134_500.0), ("launcher", 300_000.0),
                          ("before-attract", 433_000.0), ("attract", 434_500.0), ("ten-minutes", 600_500.0),
                          ("woken", 611_000.0), ("opened", 614_000.0)] {
            records.append(TraceRecord(t: t, .checkpoint(name: name)))
        }
        // A visitor, off the phantom's beat, at the same spot: the first tap stops the demo,
        // the second opens the tile.
        records += [TraceRecord(t: 610_000, .touch(phase: .down, id: 1, x: tile.x, y: tile.y)),
                    TraceRecord(t: 610_080, .touch(phase: .up, id: 1, x: tile.x, y: tile.y)),
                    TraceRecord(t: 612_000, .touch(phase: .down, id: 1, x: tile.x, y: tile.y)),
                    TraceRecord(t: 612_080, .touch(phase: .up, id: 1, x: tile.x, y: tile.y))]
        let panel = VirtualPanel(width: 480, height: 800)
        let runner = try ReplayRunner(settings: .replay(exhibit: nil, width: 480, height: 800, seed: 1), display: panel,
                                      fonts: try FontSet(), log: Log(minimum: .error))
        var seen: [String: JSONValue] = [:]
        runner.run(sorted(records)) { c in seen[c.name] = c.state }
        #expect(seen["before-reset"]?["exhibit"] != .string("launcher"), "the first phantom opened the tile")
        #expect(seen["after-reset"]?["exhibit"] == .string("launcher"))
        #expect(seen["launcher"]?["exhibit"] == .string("launcher"), "no phantom opens the tile again")
        #expect(seen["before-attract"]?["attract"] == nil)
        #expect(seen["attract"]?["attract"] != nil)
        #expect(seen["ten-minutes"]?["attract"] != nil)
        #expect(seen["woken"]?["attract"] == nil)
        #expect(seen["opened"]?["exhibit"] != .string("launcher"), "a real tap at the phantom's spot opens the tile")
        // 47 phantoms up to 10 min, the first four passed.
        let metrics = runner.health.metrics(now: 0, visitors: runner.app.visitorCounts, accelerometer: nil)
        #expect(metrics.contains("motionkiosk_touch_phantom_total 43\n"), "\(metrics)")
        #expect(runner.app.visitorCounts.idleResets == 1)
    }

    @Test func aClosedStandWithWakeOnTouchStaysDark() throws {
        var hours = OpeningHours()
        hours.weekly = [try OpeningHours.weekly("Daily 09:00-18:00")]
        let start = try #require(CivilTime(iso: "2026-11-23T17:59:00"))
        let schedule = StandSchedule(hours: hours, wakeFor: 300_000_000,
                                     wallClock: StandWallClock.starting(at: start, origin: 0, zone: .utc))
        let panel = VirtualPanel(width: 480, height: 800)
        var settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        settings.attractAfter = nil
        let runner = try ReplayRunner(settings: settings, display: panel, fonts: try FontSet(), log: Log(minimum: .error),
                                      schedule: schedule)
        // Recognised while open (by 39.6 s); closing at 60 s; the phantom goes on all night.
        var records = phantoms(at: Vec2(240, 700), from: 1_000, until: 3_600_000)
        records += [TraceRecord(t: 61_000, .checkpoint(name: "closed")), TraceRecord(t: 3_600_000, .checkpoint(name: "night"))]
        var seen: [String: JSONValue] = [:]
        runner.run(sorted(records)) { c in seen[c.name] = c.state }
        #expect(seen["closed"]?["display_on"] == .bool(false))
        #expect(seen["night"]?["display_on"] == .bool(false))
        #expect(panel.powerChanges == [false], "\(panel.powerChanges)")
    }
}
