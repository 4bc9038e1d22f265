import Diagnostics
import Exhibits
import Geometry
import OpeningHours
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// Plays a trace through the same `FrameLoop` the stand runs, on a virtual clock from 0:
/// touches are delivered at their times, motion samples go through the same
/// `MotionPipeline` with the trace's settings, frames come at 60 per virtual second while
/// something moves and not at all at rest (a long idle gap costs nothing), and at each
/// checkpoint the frame and the state are handed out. The same seed and trace give the
/// same output, byte for byte.
public final class ReplayRunner {
    public struct Checkpoint {
        public var name: String
        public var time: Microseconds
        public var state: JSONValue
        /// The portrait frame as drawn at the checkpoint.
        public var frame: PixelBuffer
    }

    public let app: KioskApp
    public let display: any Display
    private let events = VirtualEvents()
    private let loop: EventLoop
    private let frames: FrameLoop
    private var motion: MotionPipeline
    /// With opening hours, the state says whether their clock was trusted (`"clock"`).
    private let clock: ClockTrust?
    public var framesRendered: Int { frames.framesPresented }
    /// Times the loop woke so far (a trace record, a timer, a frame).
    public var wakeups: Int { loop.wakeups }
    /// What the stand's metrics file would say.
    public var health: StandHealth { frames.health }

    /// `display` should let every frame out at once (a `VirtualPanel` without a clock): the
    /// runner paces frames on its virtual clock.
    /// `schedule`: opening hours on the virtual clock (its wall clock counts from the start).
    /// `resuming`: a black-box trace's starting point (the kiosk and the motion pipeline
    /// start where the stand was; `settings.seed` should be the trace's).
    /// `phantomsFiltered`: the touches already passed a stand's phantom-tap filter (the
    /// header says so): they reach the kiosk as they are.
    public init(settings: KioskApp.Settings, display: any Display, fonts: FontSet, log: Log,
                motion: MotionSettings = MotionSettings(), schedule: StandSchedule? = nil,
                resuming: TraceResumePoint? = nil, phantomsFiltered: Bool = false) throws(SystemError) {
        self.display = display
        clock = schedule?.clock
        var settings = settings
        if let resuming {
            settings.resuming = resuming.kioskResumption
            self.motion = MotionPipeline(settings: motion, resuming: resuming.motionSnapshot)
        } else {
            self.motion = MotionPipeline(settings: motion)
        }
        loop = try EventLoop(events: events)
        let scene = KioskScene(settings: settings, fonts: fonts, log: log)
        var quiet = FrameLoopSettings()
        quiet.say = { _ in }
        quiet.schedule = schedule
        quiet.filtersPhantomTaps = !phantomsFiltered
        frames = FrameLoop(loop: loop, clock: MonotonicClock(events: events), log: log, content: scene, settings: quiet)
        try frames.start(display: display)
        app = scene.app
        // The stand's sample that reached the restart point gave the kiosk this gravity next.
        if let resuming, resuming.filteredGravity != nil, self.motion.worldGravity != resuming.appGravity {
            scene.motion(gravity: self.motion.worldGravity, altitude: nil)
        }
    }

    /// The app's state, and with opening hours whether their clock is trusted.
    private func state(at time: Microseconds) -> JSONValue {
        let state = app.state()
        guard let clock, case .object(var fields) = state else { return state }
        fields.append(("clock", .string(clock.isTrusted(at: time) ? "trusted" : "untrusted")))
        return .object(fields)
    }

    /// Runs the whole trace; `checkpoint` is called at each checkpoint record. Errors thrown
    /// by `checkpoint` end the replay and are rethrown.
    public func run<E: Error>(_ records: [TraceRecord], checkpoint: (Checkpoint) throws(E) -> Void) throws(E) {
        try run(source: TraceRecordList(records), checkpoint: checkpoint)
    }

    /// Runs records as `source` hands them out: a trace file is played while it is read,
    /// holding one record ahead.
    public func run<Source: TraceRecordSource, E: Error>(source: Source, checkpoint: (Checkpoint) throws(E) -> Void) throws(E) {
        var source = source
        var upcoming = source.nextRecord()
        var failure: E?
        let feed = events.makeDescriptor()
        withoutActuallyEscaping(checkpoint) { checkpoint in
            let token = try? loop.addReader(feed) { [unowned(unsafe) self] in
                self.events.consumed(feed)
                let now = self.events.now
                var touches: [TouchEvent] = []
                var touchTime: Microseconds = 0
                func flush() {
                    guard !touches.isEmpty else { return }
                    self.frames.deliver(.touches(TouchFrame(time: touchTime, events: touches)))
                    touches.removeAll()
                }
                while let record = upcoming, record.microseconds <= now {
                    let t = record.microseconds
                    switch record.payload {
                    case let .touch(phase, id, x, y):
                        // Touch lines with equal t form one frame, as libinput delivers them.
                        if touchTime != t { flush() }
                        touchTime = t
                        touches.append(TouchEvent(slot: id, phase: phase, position: Vec2(x, y), time: t, device: 0))
                    case let .accel(x, y, z), let .gravity(x, y, z):
                        flush()
                        var direct = false
                        if case .gravity = record.payload { direct = true }
                        let sample = AccelerationSample(time: t, vector: Vec3(x, y, z))
                        let outcome = self.motion.add(sample, direct: direct)
                        self.frames.applyMotion(MotionReading(sample: sample, outcome: outcome, worldGravity: self.motion.worldGravity),
                                                altitude: self.motion.altitude, at: t)
                    case let .pressure(kpa):
                        flush()
                        self.frames.advanceContent(to: t)
                        if self.motion.add(pressure: PressureSample(time: t, kilopascals: kpa)) {
                            self.frames.content.motion(gravity: self.motion.worldGravity, altitude: self.motion.altitude)
                        }
                    case let .checkpoint(name):
                        flush()
                        self.frames.advanceContent(to: t)
                        self.frames.drawNow()
                        do throws(E) { try checkpoint(Checkpoint(name: name, time: t, state: self.state(at: t), frame: self.display.backBuffer)) } catch {
                            failure = error
                            self.loop.stop()
                            return
                        }
                    }
                    upcoming = source.nextRecord()
                }
                flush()
                if let record = upcoming {
                    self.events.makeReadable(feed, at: record.microseconds)
                } else {
                    self.loop.stop()
                }
            }
            // The handler holds `checkpoint`: it must be gone when this closure returns.
            defer { if let token { loop.removeReader(token) } }
            guard let first = upcoming else { return }
            events.makeReadable(feed, at: first.microseconds)
            try? loop.run()
        }
        if let failure { throw failure }
    }
}

/// Plays an exhibit's built-in demo on a display and hands back its last frame: the
/// previews a developer's machine or CI writes when no display can be driven.
public enum DemoPreview {
    /// Runs `type`'s demo to its end (plus `settle` for things to come to rest) and returns
    /// the frame as it then stands, with the state.
    public static func play(_ type: ExhibitType, settings base: KioskApp.Settings, display: any Display, fonts: FontSet,
                            log: Log, settle: Microseconds = 1_500_000) throws(SystemError) -> (frame: PixelBuffer, state: JSONValue)? {
        var settings = base
        settings.initialExhibit = type
        settings.locked = nil
        settings.idleTimeout = nil
        settings.attractAfter = nil
        // The demo placed on this screen exactly as the attract loop places it.
        var records: [TraceRecord] = []
        for frame in type.demoFrames(width: settings.width, height: settings.height) {
            for e in frame.events {
                records.append(TraceRecord(microseconds: frame.time, .touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y)))
            }
        }
        let end = (records.last?.t ?? 0) + Double(settle) / 1000
        records.append(TraceRecord(t: end, .checkpoint(name: "preview")))
        let runner = try ReplayRunner(settings: settings, display: display, fonts: fonts, log: log)
        var result: (PixelBuffer, JSONValue)?
        runner.run(records) { checkpoint in result = (checkpoint.frame, checkpoint.state) }
        return result
    }
}
