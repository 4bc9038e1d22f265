import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import Platform
import Raster
import Testing
import Trace

/// A recording carries the stand's `[touch] stuck_seconds`: replayed from its header alone, or
/// with `--config`, a finger held still is dropped when the stand dropped it.
@Suite struct StuckTouchReplayTests {
    static let stand = """
        [exhibits]
        idle_seconds = 30
        attract_after_seconds = 600
        [touch]
        stuck_seconds = 10

        """

    /// A visitor opens the first tile's exhibit, then something leans on the glass from 3 s on: the stand
    /// drops it at 13 s, so nobody is there and the idle reset comes at 43 s.
    static func records(tile: Vec2) -> [TraceRecord] {
        [TraceRecord(t: 1_000, .touch(phase: .down, id: 0, x: tile.x, y: tile.y)),
         TraceRecord(t: 1_080, .touch(phase: .up, id: 0, x: tile.x, y: tile.y)),
         TraceRecord(t: 3_000, .touch(phase: .down, id: 1, x: 240, y: 500)),
         TraceRecord(t: 20_000, .checkpoint(name: "leaning")),
         TraceRecord(t: 50_000, .checkpoint(name: "end"))]
    }

    static func run(_ settings: KioskApp.Settings) throws -> [String: JSONValue] {
        let runner = try ReplayRunner(settings: settings, display: VirtualPanel(width: 480, height: 800), fonts: try FontSet(),
                                      log: Log(minimum: .error))
        guard case .array(let controls)? = runner.app.state()["controls"], case .object(let tile)? = controls.first,
              case .number(let x)? = tile.first(where: { $0.0 == "x" })?.1,
              case .number(let y)? = tile.first(where: { $0.0 == "y" })?.1 else { throw KioskError("no tile") }
        var seen: [String: JSONValue] = [:]
        runner.run(records(tile: Vec2(x, y))) { seen[$0.name] = $0.state }
        return seen
    }

    @Test func aRecordingReplaysWithTheStandsStuckFingerTime() throws {
        let configuration = try KioskConfiguration.parse(Self.stand, file: "stand.toml")
        var live = configuration.kioskSettings
        live.width = 480; live.height = 800; live.seed = 1
        let stand = try Self.run(live)
        #expect(stand["leaning"]?["exhibit"] == .string(ExhibitRegistry.tiles[0].name))
        #expect(stand["end"]?["exhibit"] == .string("launcher"), "the stand dropped the leaning finger and reset")

        // What --record writes, read back: the header alone gives the replay the stand's time.
        var header = TraceHeader(kiosk: live, motion: configuration.motionSensors)
        header.width = 480; header.height = 800
        let sink = MemoryTraceSink()
        _ = try TraceWriter(sink: sink, header: header)
        #expect(sink.text.contains("\"touch_stuck_ms\":10000"), "\(sink.text)")
        let (read, _) = try TraceReader.trace(in: sink.text)
        let replayed = read.replaySettings(exhibit: nil, width: 480, height: 800)
        #expect(replayed.stuckTouchAfter == 10_000_000)
        #expect(try Self.run(replayed)["end"] == stand["end"])

        // `replay --config` takes it from the stand's file, over a header without it.
        var bare = TraceHeader().replaySettings(exhibit: nil, width: 480, height: 800)
        #expect(bare.stuckTouchAfter == 600_000_000)
        configuration.applyStand(to: &bare, exhibit: nil)
        #expect(bare.stuckTouchAfter == 10_000_000)

        // A stand that never drops a finger says 0, and its replay never does either.
        let never = try KioskConfiguration.parse("[touch]\nstuck_seconds = 0\n", file: "never.toml").kioskSettings
        let neverHeader = TraceHeader(kiosk: never, motion: configuration.motionSensors)
        #expect(neverHeader.touchStuckMilliseconds == 0)
        #expect(neverHeader.replaySettings(exhibit: nil, width: 480, height: 800).stuckTouchAfter == nil)
    }

    @Test func aBadStuckTimeNamesTheField() {
        #expect(throws: TraceError(source: "trace", line: 1, problem: "field \"touch_stuck_ms\" must be from 0 to 86400000, not -5")) {
            try TraceReader.trace(in: #"{"trace":"motionkiosk","version":1,"touch_stuck_ms":-5}"#)
        }
    }
}
