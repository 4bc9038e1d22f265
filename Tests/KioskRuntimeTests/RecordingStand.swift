import Exhibits
import KioskConfig
import KioskRuntime
import Platform
import Raster
import SystemFakes
import Trace

/// A stand as `run --record` sets it up, for the tests that record one and replay what it
/// wrote: the scene and frame loop from a parsed config (its black box on, the wall clock
/// fixed), recording a 480×800 portrait trace into memory. Not started: a test adds its
/// timers and signals first.
struct RecordingStand {
    let scene: KioskScene
    let frames: FrameLoop
    let sink = MemoryTraceSink()

    init(configuration: KioskConfiguration, text: String, seed: UInt64, blackBoxFolder: String? = nil,
         events: VirtualEvents, clock: MonotonicClock) throws {
        var settings = configuration.kioskSettings
        settings.seed = seed
        scene = KioskScene(settings: settings, fonts: try FontSet(), log: quietLog())
        var loopSettings = quietSettings()
        guard var box = configuration.blackBoxSettings(kiosk: settings, text: text) else { throw NoBlackBox() }
        if let blackBoxFolder { box.folder = blackBoxFolder }
        box.wallClock = { 1_790_000_000 }
        loopSettings.blackBox = box
        frames = FrameLoop(loop: try EventLoop(events: events), clock: clock, log: quietLog(), content: scene, settings: loopSettings)
        var header = TraceHeader(kiosk: settings, motion: configuration.motionSensors)
        header.width = 480; header.height = 800; header.rotation = 0
        frames.record(to: try TraceWriter(sink: sink, header: header))
    }

    /// The config turned the black box off.
    struct NoBlackBox: Error {}
}
