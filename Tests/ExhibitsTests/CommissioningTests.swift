import Testing
import Geometry
import Sensors
import Diagnostics
import Gestures
@testable import Exhibits

@Suite struct CommissioningTests {
    @Test func fingerLabelsNeverTrapOnADriversNonsense() {
        #expect(Commissioning.pixel(239.6) == "240" && Commissioning.pixel(-3.2) == "-3")
        for v in [9.3e18, -9.3e18, 1e300, .infinity, .nan] { #expect(Commissioning.pixel(v) == "?") }
    }

    @Test func longPressInTheLauncherCornerOpensIt() throws {
        var t = TraceBuilder()
        t.touch("down", Vec2(30, 30), t: 1000)
        t.checkpoint("holding", at: 3500)
        t.checkpoint("opened", at: 4100)
        t.touch("up", Vec2(30, 30), t: 4200)
        let r = try replay(t.text, exhibit: "launcher")
        #expect(r.string(r.states["holding"]?["exhibit"]) == "launcher")
        #expect(r.string(r.states["opened"]?["exhibit"]) == "commissioning")
        // A short tap there does nothing.
        var quick = TraceBuilder()
        quick.tap(Vec2(30, 30), at: 1000)
        quick.checkpoint("after", at: 5000)
        #expect(r.string(try replay(quick.text, exhibit: "launcher").states["after"]?["exhibit"]) == "launcher")
    }

    @Test func itsCalibrateButtonOpensTheCalibrationScreen() throws {
        // The installer's way: the corner press to the commissioning screen, then the button.
        var t = TraceBuilder()
        t.touch("down", Vec2(30, 30), t: 1000)
        t.touch("up", Vec2(30, 30), t: 4200)
        t.checkpoint("commissioning", at: 4500)
        let button = Vec2(240, Commissioning.barTop(height: 800, scale: 1) - 36)
        t.tap(button, at: 5000)
        t.checkpoint("calibrating", at: 6000)
        let r = try replay(t.text, exhibit: "launcher")
        #expect(r.string(r.states["commissioning"]?["exhibit"]) == "commissioning")
        guard case .array(let controls)? = r.states["commissioning"]?["controls"] else { Issue.record("no controls"); return }
        #expect(controls.contains { r.string($0["id"]) == "calibrate" })
        #expect(r.string(r.states["calibrating"]?["exhibit"]) == "calibration")
        // Outside an app (a preview) there is nowhere to go: no button.
        let alone = Commissioning(environment: ExhibitEnvironment(width: 480, height: 800, fonts: try FontSet(), log: Log(minimum: .error)),
                                  gestures: GestureEnvironment(), random: SeededGenerator(seed: 1))
        #expect(alone.calibrateButton == nil)
    }

    /// The devices as they are when the screen opens: the clock's line changes when NTP
    /// sets the clock after the stand started.
    @Test func itListsTheDevicesAsTheyAreWhenItOpens() throws {
        var settings = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 1)
        settings.devices = ["clock: untrusted, no network time"]
        let app = KioskApp(settings: settings, fonts: try FontSet(), log: Log(minimum: .error))
        app.devices = ["clock: trusted, systemd-timesyncd synchronised it"]
        app.open(try #require(ExhibitRegistry.named("commissioning")))
        let state = app.state().serialized()
        #expect(state.contains("clock: trusted, systemd-timesyncd synchronised it") && !state.contains("untrusted"), "\(state)")
    }

    @Test func dotUnderEveryFingerAndTheEdgeThatIsDown() throws {
        var t = TraceBuilder()
        t.touch("down", id: 0, Vec2(60, 140), t: 100)
        t.touch("down", id: 1, Vec2(440, 760), t: 100)
        t.hold(accel: Vec3(-9.81, 0, 0), from: 0, to: 1000)   // right edge down
        t.checkpoint("two-fingers", at: 1000)
        t.touch("up", id: 0, Vec2(60, 140), t: 1100)
        t.checkpoint("one-finger", at: 1200)
        let r = try replay(t.text, exhibit: "commissioning")
        guard case .array(let two)? = r.states["two-fingers"]?["fingers"], case .array(let one)? = r.states["one-finger"]?["fingers"] else {
            Issue.record("no fingers"); return
        }
        #expect(two.count == 2 && one.count == 1)
        #expect(r.number(two[1]["x"]) == 440 && r.number(two[1]["y"]) == 760)
        #expect(r.string(r.states["two-fingers"]?["downEdge"]) == "right")
        // The finger's ring is drawn where the finger is.
        let frame = r.frames["two-fingers"]!
        let ring = frame.row32(760)[440 + 30] & 0xFFFFFF
        #expect(ring != 0x101418)
        // Corner targets sit 40 px in from each corner.
        guard case .array(let controls)? = r.states["two-fingers"]?["controls"] else { Issue.record("no targets"); return }
        #expect(controls.filter { r.string($0["id"])?.hasPrefix("target.") == true }.compactMap { r.number($0["x"]) }.sorted() == [40, 40, 440, 440])
    }

    @Test func lockedFromConfigurationHasNoHome() throws {
        var t = TraceBuilder()
        t.checkpoint("start", at: 0)
        let r = try replay(t.text, exhibit: "launcher") { $0.locked = "commissioning" }
        #expect(r.string(r.states["start"]?["exhibit"]) == "commissioning")
        guard case .array(let controls)? = r.states["start"]?["controls"] else { Issue.record("no controls"); return }
        #expect(!controls.contains { r.string($0["id"]) == "home" })
    }
}
