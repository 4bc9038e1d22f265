import Testing
#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Sensors
@testable import Exhibits

@Suite struct KioskAppTests {
    func controls(_ r: ReplayResult, _ cp: String) -> [String] {
        guard case .array(let a)? = r.states[cp]?["controls"] else { return [] }
        return a.compactMap { r.string($0["id"]) }
    }
    func control(_ r: ReplayResult, _ cp: String, _ id: String) -> Rect? {
        guard case .array(let a)? = r.states[cp]?["controls"],
              let c = a.first(where: { r.string($0["id"]) == id }),
              let x = r.number(c["x"]), let y = r.number(c["y"]), let w = r.number(c["width"]), let h = r.number(c["height"])
        else { return nil }
        return Rect(center: Vec2(x, y), width: w, height: h)
    }
    func exhibit(_ r: ReplayResult, _ cp: String) -> String? { r.string(r.states[cp]?["exhibit"]) }

    @Test func launcherOffersEveryExhibitAndATapOpensIt() throws {
        var t = TraceBuilder()
        t.checkpoint("launcher", at: 0)
        let first = try replay(t.text, exhibit: "launcher")
        let tiles = controls(first, "launcher")
        #expect(tiles == ExhibitRegistry.tiles.map { "exhibit.\($0.name)" })
        let tile = try #require(control(first, "launcher", "exhibit.grid-block"))
        #expect(tile.height >= 64 && tile.width >= 64)

        t.tap(tile.center, at: 500)
        t.checkpoint("opened", at: 1000)
        let r = try replay(t.text, exhibit: "launcher")
        #expect(exhibit(r, "opened") == "grid-block")
        #expect(controls(r, "opened").first == "home")
    }

    @Test func homeControlReturnsToTheLauncherAndIsBigEnough() throws {
        var t = TraceBuilder()
        t.checkpoint("open", at: 0)
        let home = try #require(control(try replay(t.text, exhibit: "grid-block"), "open", "home"))
        #expect(home.width >= 64 && home.height >= 64)
        t.tap(home.center, at: 300)
        t.checkpoint("home", at: 800)
        let r = try replay(t.text, exhibit: "grid-block")
        #expect(exhibit(r, "home") == "launcher")
        // The exhibit's own tap did not fire on the way: the home control owns its touches.
    }

    @Test func idleReturnsToTheLauncherAfterTheConfiguredTime() throws {
        var t = TraceBuilder()
        t.checkpoint("launcher", at: 0)
        let tile = try #require(control(try replay(t.text, exhibit: "launcher"), "launcher", "exhibit.grid-block"))
        t.tap(tile.center, at: 100)
        t.tap(Vec2(240, 400), at: 1000)               // start the block: the visitor is playing
        t.checkpoint("playing", at: 60_000)
        t.checkpoint("still-open", at: 90_500)        // 89.4 s after the last touch
        t.checkpoint("idle", at: 91_200)              // 90 s after the last touch (+ debounce)
        let r = try replay(t.text, exhibit: "launcher") { $0.attractAfter = nil }
        #expect(exhibit(r, "playing") == "grid-block")
        #expect(exhibit(r, "still-open") == "grid-block")
        #expect(exhibit(r, "idle") == "launcher")
    }

    @Test func aHeldFingerPostponesTheIdleReset() throws {
        // Holding a cradle ball out for 15 s with a 10 s idle time: still playing.
        var t = TraceBuilder()
        t.touch("down", Vec2(240, 600), t: 1_000)
        t.checkpoint("held", at: 14_000)
        t.touch("up", Vec2(240, 600), t: 16_000)
        t.checkpoint("lifted", at: 25_500)
        t.checkpoint("idle", at: 26_500)
        let r = try replay(t.text, exhibit: "launcher") {
            $0.initialExhibit = "newtons-cradle"; $0.idleTimeout = 10_000_000; $0.attractAfter = nil
        }
        #expect(exhibit(r, "held") == "newtons-cradle")
        #expect(exhibit(r, "lifted") == "newtons-cradle")   // 9.5 s after the lift
        #expect(exhibit(r, "idle") == "launcher")           // 10.5 s after the lift
    }

    @Test func aClearTiltPostponesTheIdleResetAndNoiseDoesNot() throws {
        func g(_ degrees: Double, noise: Double = 0) -> Vec3 {
            let a = degrees * Double.pi / 180
            return Vec3(9.80665 * sin(a) + noise, noise, 9.80665 * cos(a))
        }
        // Playing by tilting alone: 10° one way and back every 4 s, until 24 s.
        var tilting = TraceBuilder()
        for step in 0...6 { tilting.hold(accel: g(step % 2 == 0 ? 0 : 10), from: Double(step) * 4_000, to: Double(step) * 4_000 + 3_980) }
        tilting.hold(accel: g(0), from: 28_000, to: 40_000)
        tilting.checkpoint("tilting", at: 30_000)
        tilting.checkpoint("idle", at: 36_000)
        let settings = { (s: inout KioskApp.Settings) in s.initialExhibit = "tilt-box"; s.idleTimeout = 10_000_000; s.attractAfter = nil }
        let r = try replay(tilting.text, exhibit: "launcher", configure: settings)
        #expect(exhibit(r, "tilting") == "tilt-box")   // 6 s after the last tilt
        #expect(exhibit(r, "idle") == "launcher")      // 12 s after it

        // A stand at rest with a noisy sensor (±0.05 m/s², 0.3°): reset on time.
        var resting = TraceBuilder()
        for i in 0..<600 { resting.accel(g(0, noise: i % 2 == 0 ? 0.05 : -0.05).x, g(0, noise: i % 2 == 0 ? 0.05 : -0.05).y, 9.80665, at: Double(i) * 20) }
        resting.checkpoint("quiet", at: 9_000)
        resting.checkpoint("reset", at: 11_000)
        let q = try replay(resting.text, exhibit: "launcher", configure: settings)
        #expect(exhibit(q, "quiet") == "tilt-box")
        #expect(exhibit(q, "reset") == "launcher")
    }

    @Test func configuredIdleTime() throws {
        var t = TraceBuilder()
        t.checkpoint("open", at: 9_000)
        t.checkpoint("reset", at: 11_000)
        let r = try replay(t.text, exhibit: "launcher") {
            $0.initialExhibit = "grid-block"; $0.idleTimeout = 10_000_000; $0.attractAfter = nil
        }
        #expect(exhibit(r, "open") == "grid-block")
        #expect(exhibit(r, "reset") == "launcher")
    }

    @Test func lockedExhibitHasNoHomeAndIdleResetsIt() throws {
        var t = TraceBuilder()
        t.tap(Vec2(240, 400), at: 0)                  // starts the block
        t.tap(Vec2(44, 44), at: 2000)                 // where the home control would be: just a tap
        t.checkpoint("playing", at: 2500)
        t.checkpoint("reset", at: 93_000)
        let r = try replay(t.text, exhibit: "launcher") { $0.locked = "grid-block" }
        #expect(exhibit(r, "playing") == "grid-block")
        #expect(!controls(r, "playing").contains("home"))
        #expect(r.states["playing"]?["running"] == .bool(true))
        #expect(exhibit(r, "reset") == "grid-block")
        #expect(r.states["reset"]?["running"] == .bool(false))
        guard case .object(let block)? = r.states["reset"]?["block"] else { Issue.record("no block"); return }
        #expect(block[0].1 == .int(4) && block[1].1 == .int(9))
    }

    @Test func attractLoopPlaysDemosAndATouchStopsIt() throws {
        var t = TraceBuilder()
        t.checkpoint("quiet", at: 299_000)
        t.checkpoint("attract", at: 301_000)
        t.tap(Vec2(240, 700), at: 302_000)
        t.checkpoint("visitor", at: 302_500)
        let r = try replay(t.text, exhibit: "launcher")
        #expect(exhibit(r, "quiet") == "launcher" && r.states["quiet"]?["attract"] == nil)
        #expect(r.states["attract"]?["attract"] == .string(ExhibitRegistry.tiles[0].name))
        #expect(r.states["visitor"]?["attract"] == nil && exhibit(r, "visitor") == "launcher")
    }

    @Test func everyDemoParsesAndDoesSomething() throws {
        for type in ExhibitRegistry.all {
            let frames = type.demoFrames(width: 480, height: 800)
            #expect(!frames.isEmpty, "\(type.name) demo")
            #expect(frames.first!.events.contains { $0.phase == .down }, "\(type.name)")
        }
    }

    @Test func sameSeedAndTraceGiveIdenticalOutput() throws {
        var t = TraceBuilder()
        t.tap(Vec2(240, 400), at: 100)
        t.swipe(from: Vec2(200, 500), direction: Vec2(1, 0), at: 900)
        t.checkpoint("a", at: 2000)
        let one = try replay(t.text, exhibit: "launcher") { $0.initialExhibit = "grid-block" }
        let two = try replay(t.text, exhibit: "launcher") { $0.initialExhibit = "grid-block" }
        #expect(one.states["a"]!.serialized() == two.states["a"]!.serialized())
        let f1 = one.frames["a"]!, f2 = two.frames["a"]!
        #expect(memcmp(f1.bytes, f2.bytes, f1.strideBytes * f1.height) == 0)
    }
}
