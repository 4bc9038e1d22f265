import Diagnostics
@testable import Exhibits
import Geometry
import Gestures
import Testing

/// An exhibit that shows in its state what the kiosk hands it: each touch frame before its
/// recognizers (its time, and whether the exhibit's own clock had passed it), and the first
/// number its generator gives.
class RecordingExhibitBase {
    private var now: Microseconds
    private var frames: [(time: Microseconds, phases: [TouchPhase], clockAhead: Bool)] = []
    private let firstDraw: UInt64

    required init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) {
        var random = random
        firstDraw = random.next()
        now = environment.startTime
    }

    func motion(gravity: Vec2, altitude: Double?) {}
    func touches(_ frame: TouchFrame) { frames.append((frame.time, frame.events.map { $0.phase }, now > frame.time)) }
    func advance(to time: Microseconds) { now = max(now, time) }
    var isAnimating: Bool { false }
    func draw(into list: inout [DrawCommand]) -> Color { .white }
    func state() -> ExhibitState {
        ExhibitState(background: .white, extras: [
            ("first_draw", .string(String(firstDraw))),
            ("touches", .array(frames.map { f in
                .object([("t_us", .int(Int(f.time))), ("phases", .string(f.phases.map { $0.rawValue }.joined(separator: ","))),
                         ("clock_ahead", .bool(f.clockAhead))])
            })),
        ])
    }

    static let demo = """
    {"trace":"motionkiosk","version":1}
    {"t":100,"type":"touch","phase":"down","id":0,"x":100,"y":400}
    {"t":300,"type":"touch","phase":"move","id":0,"x":200,"y":400}
    {"t":500,"type":"touch","phase":"up","id":0,"x":200,"y":400}
    """
}

/// Its demo leaves the exhibit's generator to the kiosk, as most do.
final class RecordingExhibit: RecordingExhibitBase, Exhibit {
    static let profile = ExhibitProfile(name: "recording", tileColor: Color(r: 10, g: 20, b: 30), demoTrace: demo)
}

/// Its demo is written for what one seed deals.
final class SeededRecordingExhibit: RecordingExhibitBase, Exhibit {
    static let seed: UInt64 = 42
    static let profile = ExhibitProfile(name: "recording-seeded", tileColor: Color(r: 30, g: 20, b: 10), demoTrace: demo,
                                        demoSeed: seed)
}

/// The attract loop plays a demo as a visitor would: the exhibit gets its touches as live
/// input reaches it, and the exhibit whose demo needs one seed is made from it.
@Suite struct AttractDemoTests {
    static func attract(_ type: ExhibitType, kioskSeed: UInt64 = 1) -> KioskApp {
        var s = KioskApp.Settings()
        s.order = [type]
        s.seed = kioskSeed
        s.attractAfter = 1_000_000
        let app = KioskApp(settings: s, fonts: try! FontSet(), log: Log(minimum: .error), start: 0)
        app.advance(to: 1_000_000)
        return app
    }

    static func touches(_ app: KioskApp) -> [JSONValue] {
        if case .array(let list)? = app.state()["touches"] { return list }
        return []
    }

    static func firstDraw(_ app: KioskApp) -> String? {
        if case .string(let s)? = app.state()["first_draw"] { return s }
        return nil
    }

    @Test func theAttractLoopHandsTheExhibitEachDemoTouchAsLiveInputDoes() {
        let app = Self.attract(RecordingExhibit.exhibitType)
        guard case .attract(let name) = app.screen, name == "recording" else { Issue.record("no attract loop"); return }
        // Frames land between two advances, as a frame loop's wakes fall.
        for t in stride(from: Microseconds(1_050_000), through: 1_700_000, by: 250_000) { app.advance(to: t) }
        let seen = Self.touches(app)
        #expect(seen.count == 3, "\(seen)")
        #expect(seen.map { $0["t_us"] } == [.int(1_100_000), .int(1_300_000), .int(1_500_000)])
        #expect(seen.map { $0["phases"] } == [.string("down"), .string("move"), .string("up")])
        // Each reached the exhibit before its clock had moved past the touch.
        #expect(seen.allSatisfy { $0["clock_ahead"] == .bool(false) })

        // The same touches given live to the open exhibit arrive the same way.
        let live = Self.attract(RecordingExhibit.exhibitType)
        live.open(RecordingExhibit.exhibitType)
        for frame in RecordingExhibit.profile.demoFrames(width: 480, height: 800) {
            var f = frame
            f.time += 1_000_000
            for i in f.events.indices { f.events[i].time = f.time }
            live.advance(to: f.time)
            live.handle(f)
        }
        #expect(Self.touches(live).map { $0["t_us"] } == seen.map { $0["t_us"] })
        #expect(Self.touches(live).map { $0["phases"] } == seen.map { $0["phases"] })
    }

    @Test func aDemoWithASeedIsPlayedOnTheExhibitMadeFromIt() {
        var demo = SeededGenerator(seed: SeededRecordingExhibit.seed)
        let expected = String(demo.next())
        for kioskSeed: UInt64 in [1, 2, 99] {
            #expect(Self.firstDraw(Self.attract(SeededRecordingExhibit.exhibitType, kioskSeed: kioskSeed)) == expected)
        }
        // A demo without one: the exhibit's generator comes from the kiosk's, as before.
        let unseeded = [UInt64(1), 2, 99].map { Self.firstDraw(Self.attract(RecordingExhibit.exhibitType, kioskSeed: $0)) }
        #expect(Set(unseeded).count == 3 && !unseeded.contains(expected))
    }

    @Test func aReplayOfTheDemoMakesTheExhibitAsTheAttractLoopDoes() {
        var demo = SeededGenerator(seed: SeededRecordingExhibit.seed)
        let expected = String(demo.next())
        func opened(_ type: ExhibitType, playsDemo: Bool) -> String? {
            var s = KioskApp.Settings.replay(exhibit: type, width: 480, height: 800, seed: 7)
            s.playsDemo = playsDemo
            return Self.firstDraw(KioskApp(settings: s, fonts: try! FontSet(), log: Log(minimum: .error)))
        }
        #expect(opened(SeededRecordingExhibit.exhibitType, playsDemo: true) == expected)
        // A visitor's visit (or a replay of one) gets a seed from the kiosk: not always the demo's.
        #expect(opened(SeededRecordingExhibit.exhibitType, playsDemo: false) != expected)
        // Without a demo seed, playing the demo changes nothing.
        #expect(opened(RecordingExhibit.exhibitType, playsDemo: true) == opened(RecordingExhibit.exhibitType, playsDemo: false))
        // A visitor opening it from the launcher gets the kiosk's too.
        let app = Self.attract(SeededRecordingExhibit.exhibitType)
        app.open(SeededRecordingExhibit.exhibitType)
        #expect(Self.firstDraw(app) != expected)
    }
}
