import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import Platform
import Raster
import Testing
import Trace

/// The scripted visit the ARM frame budgets measure (`motionkiosk-bench visit`), replayed as
/// any trace is: each step's checkpoint shows the screen the visit says it reaches.
@Suite struct VisitTraceTests {
    func replay(languages: [String], demoSeconds: Double?) throws -> [(name: String, state: JSONValue)] {
        var settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        settings.languages = languages
        let fonts = try FontSet()
        let records = VisitTrace.records(settings: settings, fonts: fonts, demoSeconds: demoSeconds)
        let runner = try ReplayRunner(settings: settings, display: VirtualPanel(width: 480, height: 800), fonts: fonts,
                                      log: Log(minimum: .error, sink: { _, _ in }))
        var seen: [(String, JSONValue)] = []
        runner.run(records) { c in seen.append((c.name, c.state)) }
        return seen
    }

    func string(_ state: JSONValue?, _ key: String) -> String? {
        if case .string(let s)? = state?[key] { return s }
        return nil
    }

    @Test func theVisitOpensEveryTileSwitchesLanguagesIdlesAndEndsTheAttractLoop() throws {
        let seen = try replay(languages: ["en", "ar", "ja"], demoSeconds: 3)
        func state(_ name: String) -> JSONValue? { seen.first { $0.name == name }?.state }
        // Every tile, opened from the launcher and played.
        for exhibit in ExhibitRegistry.tiles {
            #expect(string(state("open \(exhibit.name)"), "exhibit") == "launcher", "\(exhibit.name) is opened from the launcher")
            #expect(string(state("play \(exhibit.name)"), "exhibit") == exhibit.name, "\(exhibit.name) shows while its demo plays")
            #expect(string(state("home from \(exhibit.name)"), "exhibit") == exhibit.name)
        }
        // Latin, then Arabic, then Japanese (each checkpoint is at the tap that switches).
        #expect(string(state("language ar"), "language") == "en")
        #expect(string(state("language ja"), "language") == "ar")
        let first = ExhibitRegistry.tiles[0].name
        #expect(string(state("open \(first) (ja)"), "language") == "ja")
        #expect(string(state("open \(first) (ja)"), "exhibit") == "launcher")
        // Nobody touches it. The kiosk's own moves are checkpointed at the moment they are due,
        // and a replay's checkpoint shows that moment as it begins: the idle reset's shows the
        // exhibit still open in Japanese, the next one (the attract loop's moment) the launcher
        // back in the first language, the one after the attract loop playing.
        #expect(string(state(VisitTrace.idleResetStep), "exhibit") == first)
        #expect(string(state(VisitTrace.idleResetStep), "language") == "ja")
        #expect(string(state(VisitTrace.attractStep), "exhibit") == "launcher")
        #expect(string(state(VisitTrace.attractStep), "language") == "en")
        #expect(string(state(VisitTrace.attractStep), "attract") == nil)
        // …and a touch ends the attract loop on the launcher.
        #expect(string(state("touch ends attract"), "attract") == first)
        #expect(string(state("end"), "attract") == nil)
        #expect(string(state("end"), "exhibit") == "launcher")
        #expect(seen.last?.name == "end")
    }

    @Test func aDemoCutShortLiftsEveryFinger() throws {
        // tilt-maze's demo is a long drag: cut at one second, its finger is lifted.
        let settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        let fonts = try FontSet()
        let records = VisitTrace.records(settings: settings, fonts: fonts, demoSeconds: 1)
        var down = Set<Int>()
        for r in records {
            guard case .touch(let phase, let id, _, _) = r.payload else { continue }
            switch phase {
            case .down: down.insert(id)
            case .up, .cancel: down.remove(id)
            case .move: #expect(down.contains(id))
            }
        }
        #expect(down.isEmpty)
        let times = records.map { $0.t }
        #expect(times == times.sorted(), "the trace runs forward in time")
    }
}
