import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import Platform
import Raster
import Testing
import Trace

/// Time is the content's, not the frame's: a replay ends in the same state whether it is
/// looked at never, every 10 ms, or drawn at 30, 50 or 60 frames a second. Every exhibit's
/// demo is played (whatever exhibits the catalogue holds), and the launcher: a visit to
/// each tile, and an idle stand that resets an open exhibit and starts its attract loop.
@Suite struct ContentTimeTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        /// The launcher with short idle and attract times, left alone after opening an exhibit.
        var idleAndAttract = false
        var description: String { idleAndAttract ? "\(name) (idle, attract)" : name }
        /// nil: the launcher.
        var exhibit: ExhibitType? { ExhibitRegistry.named(name) }
    }

    static let cases: [Case] = [Case(name: "launcher"), Case(name: "launcher", idleAndAttract: true)]
        + ExhibitRegistry.tiles.map { Case(name: $0.name) }

    static let size = (width: 480, height: 800)

    static func settings(_ c: Case) -> KioskApp.Settings {
        var s = KioskApp.Settings.replay(exhibit: c.exhibit, width: size.width, height: size.height, seed: 1)
        if c.idleAndAttract {
            s.idleTimeout = 2_000_000
            s.attractAfter = 4_000_000
        }
        return s
    }

    /// The case's touches (the demo trace without its checkpoints) and when the run ends.
    static func touches(_ c: Case, fonts: FontSet) throws -> (records: [TraceRecord], end: Microseconds) {
        let settings = settings(c)
        let demo = DemoTraces.records(for: c.exhibit, settings: settings, fonts: fonts)
        var records = demo.filter { if case .touch = $0.payload { true } else { false } }
        var end = (demo.map { $0.microseconds }.max() ?? 0) + 1_500_000
        if c.idleAndAttract {
            // Open the first tile, then nobody: the idle reset at +2 s, the attract loop at +6 s.
            let app = KioskApp(settings: settings, fonts: fonts, log: Log(minimum: .error, sink: { _, _ in }))
            guard case .array(let controls)? = app.state()["controls"], let tile = controls.first,
                  case .number(let x)? = tile["x"], case .number(let y)? = tile["y"] else {
                Issue.record("no tile"); return ([], 0)
            }
            let t = end
            records.append(TraceRecord(microseconds: t, .touch(phase: .down, id: 0, x: x, y: y)))
            records.append(TraceRecord(microseconds: t + 60_000, .touch(phase: .up, id: 0, x: x, y: y)))
            end = t + 9_000_000
        }
        return (records, end)
    }

    /// Replays `records` as `motionkiosk replay` does, with a checkpoint at each of
    /// `checkpoints` and at `end`; the state at `end`.
    static func replayed(_ c: Case, _ records: [TraceRecord], end: Microseconds, checkpointEvery: Microseconds?,
                         fonts: FontSet) throws -> String {
        var all = records
        if let every = checkpointEvery {
            for t in stride(from: every, to: end, by: Int(every)) { all.append(TraceRecord(microseconds: t, .checkpoint(name: "look"))) }
        }
        all.append(TraceRecord(microseconds: end, .checkpoint(name: "end")))
        // In time order; touches before a checkpoint at the same moment.
        all = all.enumerated().sorted { a, b in
            a.element.microseconds != b.element.microseconds ? a.element.microseconds < b.element.microseconds : a.offset < b.offset
        }.map { $0.element }
        let runner = try ReplayRunner(settings: settings(c), display: VirtualPanel(width: size.width, height: size.height),
                                      fonts: fonts, log: Log(minimum: .error, sink: { _, _ in }))
        var last = ""
        runner.run(all) { checkpoint in if checkpoint.name == "end" { last = checkpoint.state.serialized() } }
        return last
    }

    /// Drives the app as a panel refreshing at `hertz` would: the touches at their times, and
    /// between them a frame (advance, draw) every 1/`hertz` s; the state at `end`.
    static func drawn(_ c: Case, _ records: [TraceRecord], end: Microseconds, hertz: Int, fonts: FontSet) -> String {
        let app = KioskApp(settings: settings(c), fonts: fonts, log: Log(minimum: .error, sink: { _, _ in }))
        let renderer = SceneRenderer(canvas: Canvas(buffer: PixelBuffer(width: size.width, height: size.height)), fonts: fonts)
        var frames: [TouchFrame] = []
        for r in records {
            guard case let .touch(phase, id, x, y) = r.payload else { continue }
            let event = TouchEvent(slot: id, phase: phase, position: Vec2(x, y), time: r.microseconds)
            if let last = frames.last, last.time == r.microseconds {
                frames[frames.count - 1].events.append(event)
            } else {
                frames.append(TouchFrame(time: r.microseconds, events: [event]))
            }
        }
        var tick = 1
        func frame(at t: Microseconds) {
            app.advance(to: t)
            app.render(with: renderer)
        }
        func time(ofTick k: Int) -> Microseconds { Microseconds(k) * 1_000_000 / Microseconds(hertz) }
        for f in frames {
            while time(ofTick: tick) < f.time { frame(at: time(ofTick: tick)); tick += 1 }
            app.handle(f)
        }
        while time(ofTick: tick) < end { frame(at: time(ofTick: tick)); tick += 1 }
        app.advance(to: end)
        return app.state().serialized()
    }

    @Test(arguments: cases)
    func theFinalStateIsTheSameWhereverTheReplayIsLookedAtOrDrawn(_ c: Case) throws {
        let fonts = try FontSet()
        let (records, end) = try Self.touches(c, fonts: fonts)
        #expect(!records.isEmpty)
        let once = try Self.replayed(c, records, end: end, checkpointEvery: nil, fonts: fonts)
        #expect(once.hasPrefix("{\"exhibit\":"))
        let every10ms = try Self.replayed(c, records, end: end, checkpointEvery: 10_000, fonts: fonts)
        #expect(every10ms == once, "checkpoints every 10 ms")
        for hertz in [30, 50, 60] {
            let drawn = Self.drawn(c, records, end: end, hertz: hertz, fonts: fonts)
            #expect(drawn == once, "drawn at \(hertz) Hz")
        }
        if c.idleAndAttract {
            // The run did reach the attract loop, through an idle reset.
            #expect(once.contains("\"attract\":"))
        }
    }
}
