import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import Platform
import Raster
import SystemFakes
import Testing
import Trace

/// A stand whose panel taps by itself: what it records and what its black box dumps replay
/// to the state the stand reached, although the replay starts after the stand had recognised
/// the phantom and knew things the trace does not say.
@Suite struct PhantomTapRecordingTests {
    static let period: Microseconds = 12_864_000

    /// The stand: a phantom on the first tile every 12.864 s from 5 s (the first opens the
    /// tile, the fourth makes it known, the idle reset comes 30 s later); then from 90 s the
    /// panel's phantom has lost its beat by 5 s (a controller reset): the stand passes its
    /// first four taps on as touches (they open the tile again) and knows it again from the
    /// fourth, so the idle reset closes the tile at 158.6 s. A dump at 185 s reaches back one
    /// minute: it starts after the phantom became known again.
    static func standRun(tree: TempTree) throws -> (trace: String, state: String, dump: String, phantoms: Int) {
        let text = """
            [exhibits]
            idle_seconds = 30
            attract_after_seconds = 600
            [blackbox]
            folder = "\(tree.path("blackbox"))"
            minutes = 1
            stall_ms = 0

            """
        let configuration = try KioskConfiguration.parse(text, file: "stand.toml")
        let events = VirtualEvents(start: 61_234_567)
        let clock = MonotonicClock(events: events)
        let stand = try RecordingStand(configuration: configuration, text: text, seed: 11, events: events, clock: clock)
        let (scene, frames, sink) = (stand.scene, stand.frames, stand.sink)
        let start = events.now
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: clock))
        let touchscreen = ScriptedTouchscreen(events: events)
        try frames.attachInput(touchscreen)
        let tile = try #require(firstTileCentre(scene))
        func phantom(at t: Microseconds) {
            touchscreen.touch(.down, tile, at: start + t)
            touchscreen.touch(.up, tile, at: start + t + 1_000)
        }
        for k in 0..<7 { phantom(at: 5_000_000 + Microseconds(k) * period) }
        for k in 0..<8 { phantom(at: 90_000_000 + Microseconds(k) * period) }
        var dump: String?
        let stop = try frames.loop.addTimer {
            dump = frames.dumpBlackBox(reason: "test")?.folder
            frames.loop.stop()
        }
        try stop.arm(after: 185_000_000)
        try frames.run()
        let metrics = frames.metricsText()
        let phantoms = metrics.split(separator: "\n").first { $0.hasPrefix("motionkiosk_touch_phantom_total ") }
            .flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
        return (sink.text, scene.app.state().serialized(), try #require(dump), phantoms)
    }

    @Test func aDumpTakenAfterAPhantomWasKnownAndTheRecordingReplayToTheStandsState() throws {
        let tree = TempTree()
        let stand = try Self.standRun(tree: tree)
        #expect(stand.phantoms == 7, "the 5th to 7th were held back, and the 5th to 8th on the new beat")
        #expect(!stand.state.contains("\"exhibit\":\"\(ExhibitRegistry.tiles[0].name)\""), "once known again, the phantom let the idle reset close it: \(stand.state)")
        #expect(stand.trace.contains("\"phantoms_filtered\":true"))

        // motionkiosk replay DUMP/trace.jsonl --dump DUMP
        var complaints: [String] = []
        var job = ReplayJob(say: { _ in }, complain: { complaints.append($0) })
        job.trace = stand.dump + "/trace.jsonl"
        job.dump = stand.dump
        job.out = tree.path("replayed-dump")
        #expect(try job.run() == 0, "\(complaints)")
        let dumped = try readTextFile(stand.dump + "/trace.jsonl", limit: TextFileLimit.trace)
        #expect(dumped.contains("\"resume_elapsed_us\""), "the dump starts at a restart point after the phantom became known")

        // motionkiosk replay RECORDING: its end is the stand's state.
        try writeTextFile(tree.path("recording.jsonl"), stand.trace)
        var whole = ReplayJob(say: { _ in }, complain: { complaints.append($0) })
        whole.trace = tree.path("recording.jsonl")
        whole.out = tree.path("replayed")
        #expect(try whole.run() == 0, "\(complaints)")
        var end = try readTextFile(tree.path("replayed/end.json"))
        if end.hasSuffix("\n") { end.removeLast() }
        #expect(end == stand.state, "replayed \(end)\nstand \(stand.state)")
    }
}
