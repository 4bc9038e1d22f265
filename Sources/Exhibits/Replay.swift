import Diagnostics
import Geometry
import Gestures
import Platform
import Raster
import Sensors
import Trace

/// Samples from a trace or a live source turned into what exhibits use: filtered gravity in
/// UIKit units, one call per shake, altitude relative to the first pressure reading.
public struct MotionFeed {
    public private(set) var gravity = Vec2(0, 1)
    public private(set) var altitude: Double? = nil
    private var filter: GravityFilter
    private var shakes: ShakeDetector
    private var altimeter = AltitudeEstimator()

    public init(gravityTimeConstant: Double = 0.1, shakeThreshold: Double = 13) {
        filter = GravityFilter(timeConstant: gravityTimeConstant)
        shakes = ShakeDetector(threshold: shakeThreshold)
    }

    /// Adds one accelerometer sample (m/s², screen frame); true when it completes a shake.
    public mutating func add(acceleration v: Vec3, at time: Microseconds) -> Bool {
        let sample = AccelerationSample(time: time, vector: v)
        gravity = TiltGravity.worldGravity(filter.add(sample))
        return shakes.add(sample) != nil
    }

    public mutating func add(pressure kilopascals: Double, at time: Microseconds) {
        if let a = altimeter.add(PressureSample(time: time, kilopascals: kilopascals)) { altitude = a }
    }
}

/// Plays a trace through the kiosk on a display with a virtual clock from 0: events at their
/// times, frames at 60 per virtual second, and at each checkpoint the frame and the state.
/// The same seed and trace give the same output, byte for byte.
public final class ReplayRunner {
    public struct Checkpoint {
        public var name: String
        public var time: Microseconds
        public var state: JSONValue
        /// The portrait frame as drawn at the checkpoint.
        public var frame: PixelBuffer
    }

    public static let framesPerSecond: Int64 = 60
    public let app: KioskApp
    private let display: any Display
    private let renderer: SceneRenderer
    private var motion = MotionFeed()
    public private(set) var framesRendered = 0

    public init(settings: KioskApp.Settings, display: any Display, fonts: FontSet, log: Log) {
        self.display = display
        app = KioskApp(settings: settings, fonts: fonts, log: log, start: 0)
        renderer = SceneRenderer(canvas: Canvas(buffer: display.backBuffer), fonts: fonts)
    }

    /// Runs the whole trace; `checkpoint` is called at each checkpoint record.
    public func run(_ records: [TraceRecord], checkpoint: (Checkpoint) throws -> Void) throws {
        var frameIndex: Int64 = 0
        func frameTime(_ k: Int64) -> Microseconds { k * 1_000_000 / ReplayRunner.framesPerSecond }
        var i = 0
        let end = records.last?.microseconds ?? 0
        while i < records.count || frameTime(frameIndex) <= end {
            let nextFrame = frameTime(frameIndex)
            if i < records.count, records[i].microseconds <= nextFrame {
                let t = records[i].microseconds
                app.advance(to: t)
                // Touch lines with equal t form one frame, as libinput delivers them.
                var events: [TouchEvent] = []
                while i < records.count, records[i].microseconds == t {
                    switch records[i].payload {
                    case let .touch(phase, id, x, y):
                        events.append(TouchEvent(slot: id, phase: phase, position: Vec2(x, y), time: t))
                    case let .accel(x, y, z):
                        flush(&events, t)
                        if motion.add(acceleration: Vec3(x, y, z), at: t) { app.shake() }
                        app.motion(gravity: motion.gravity, altitude: motion.altitude)
                    case let .pressure(kpa):
                        flush(&events, t)
                        motion.add(pressure: kpa, at: t)
                        app.motion(gravity: motion.gravity, altitude: motion.altitude)
                    case let .checkpoint(name):
                        flush(&events, t)
                        app.advance(to: t)
                        draw()
                        try checkpoint(Checkpoint(name: name, time: t, state: app.state(), frame: display.backBuffer))
                    }
                    i += 1
                }
                flush(&events, t)
            } else {
                app.advance(to: nextFrame)
                draw()
                frameIndex += 1
            }
        }
    }

    private func flush(_ events: inout [TouchEvent], _ t: Microseconds) {
        guard !events.isEmpty else { return }
        app.handle(TouchFrame(time: t, events: events))
        events.removeAll(keepingCapacity: true)
    }

    private func draw() {
        let damage = app.render(with: renderer)
        if !damage.isEmpty {
            try? display.present(damage: damage)
            framesRendered += 1
        }
    }
}

/// Plays an exhibit's built-in demo on a display and hands back its last frame: the
/// previews a developer's machine or CI writes when no display can be driven.
public enum DemoPreview {
    /// Runs `name`'s demo to its end (plus `settle` for things to come to rest) and returns
    /// the frame as it then stands, with the state.
    public static func play(_ name: String, settings base: KioskApp.Settings, display: any Display, fonts: FontSet,
                            log: Log, settle: Microseconds = 1_500_000) throws -> (frame: PixelBuffer, state: JSONValue)? {
        guard let type = ExhibitCatalog.type(named: name) else { return nil }
        var settings = base
        settings.initialExhibit = name
        settings.locked = nil
        settings.idleTimeout = nil
        settings.attractAfter = nil
        // The demo placed on this screen exactly as the attract loop places it.
        var records: [TraceRecord] = []
        for frame in type.demoFrames(width: settings.width, height: settings.height) {
            for e in frame.events {
                records.append(TraceRecord(microseconds: frame.time, .touch(phase: e.phase,
                                                                          id: e.slot, x: e.position.x, y: e.position.y)))
            }
        }
        let end = (records.last?.t ?? 0) + Double(settle) / 1000
        records.append(TraceRecord(t: end, .checkpoint(name: "preview")))
        let runner = ReplayRunner(settings: settings, display: display, fonts: fonts, log: log)
        var result: (PixelBuffer, JSONValue)?
        try runner.run(records) { checkpoint in result = (checkpoint.frame, checkpoint.state) }
        return result
    }
}
