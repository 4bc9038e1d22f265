import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import Platform
import Raster
import Testing
import Trace

/// `replay --demo launcher --config`: the demo taps the tiles of the launcher it is
/// replayed on, so each checkpoint shows the exhibit it is named after.
@Suite struct DemoLauncherTests {
    func checkpoints(order: [ExhibitType], languages: [String]) throws -> [(name: String, exhibit: String)] {
        var settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        settings.order = order
        settings.languages = languages
        let fonts = try FontSet()
        let records = DemoTraces.records(for: nil, settings: settings, fonts: fonts)
        let runner = try ReplayRunner(settings: settings, display: VirtualPanel(width: 480, height: 800), fonts: fonts,
                                      log: Log(minimum: .error))
        var seen: [(String, String)] = []
        runner.run(records) { c in
            if case .string(let exhibit)? = c.state["exhibit"] { seen.append((c.name, exhibit)) }
        }
        return seen
    }

    @Test func aStandsOwnTilesAreTappedInItsOrderAndLanguages() throws {
        let order: [ExhibitType] = ["grid-block", "tilt-box", "circle-draw"]
        let seen = try checkpoints(order: order, languages: ["de", "fr", "en"])
        let opened = seen.filter { $0.name != "00-launcher" && $0.name != "99-launcher" }
        #expect(opened.map { $0.name } == ["1-grid-block", "2-tilt-box", "3-circle-draw"])
        for (name, exhibit) in opened { #expect(name.hasSuffix("-" + exhibit), "checkpoint \(name) shows \(exhibit)") }
        #expect(seen.last?.exhibit == "launcher")
    }

    @Test func theDefaultLauncherStillHasEveryTile() throws {
        let all = ExhibitRegistry.tiles
        let seen = try checkpoints(order: all, languages: ["en"])
        let opened = seen.filter { $0.name != "00-launcher" && $0.name != "99-launcher" }
        #expect(opened.count == all.count)
        for (name, exhibit) in opened { #expect(name.hasSuffix("-" + exhibit), "checkpoint \(name) shows \(exhibit)") }
    }
}
