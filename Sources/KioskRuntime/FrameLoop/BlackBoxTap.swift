import Diagnostics
import Exhibits
import Geometry
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// Where the loop's input goes besides the content: the `--record` trace and the black box
/// (the last minutes in RAM, dumped on SIGUSR1, a stall, a lost flip or a fatal error).
/// Either may be off; the tap is there from the start, so that a recording can be asked for
/// before the display is open.
final class BlackBoxTap {
    private let content: any FrameContent
    private let clock: any Clock
    private let log: Log
    private let say: (String) -> Void
    private let system: any SystemCalls
    private(set) var recorder: TraceRecorder?
    private(set) var blackBox: BlackBox?
    private var settings: BlackBoxSettings?
    private var screen: ScreenTransform?
    private var lastRestartPoint: KioskApp.RestartPoint?
    private var askedDumpSkipSaid = false
    /// When the last frame went out while something moved (the next one is due soon).
    private var animatingSince: Microseconds?
    /// The motion pipeline a new black-box segment starts from, and its shake window.
    var motion: MotionSensors?

    init(settings: BlackBoxSettings?, content: any FrameContent, clock: any Clock, log: Log, system: any SystemCalls,
         say: @escaping (String) -> Void) {
        self.settings = settings; self.content = content; self.clock = clock; self.log = log; self.system = system; self.say = say
    }

    /// Records touches and motion samples from `start` on.
    func record(to writer: TraceWriter, startingAt start: Microseconds?) {
        recorder = TraceRecorder(writer: writer, log: log)
        if let start { recorder?.begin(at: start) }
    }

    /// The display is open: the black box starts, sized to its screen.
    func start(screen: ScreenTransform, at time: Microseconds) {
        self.screen = screen
        recorder?.begin(at: time)
        startBlackBox()
    }

    private func startBlackBox() {
        guard var box = settings, let screen else { blackBox = nil; return }
        box.header.width = screen.portraitWidth
        box.header.height = screen.portraitHeight
        box.header.rotation = screen.rotation.rawValue
        blackBox = BlackBox(settings: box)
        lastRestartPoint = nil
        followRestartPoint(exact: true)
    }

    /// A reloaded configuration's black box. When the kiosk started again (`restarted`), what
    /// was kept belongs to the old settings and goes; otherwise it is kept and only the
    /// settings written with the next dump change.
    func update(_ box: BlackBoxSettings?, restarted: Bool) {
        let before = blackBox
        settings = box
        if restarted || box == nil || before == nil || before?.settings.window != box?.window || before?.settings.capacity != box?.capacity {
            startBlackBox()
        } else if let before, var box {
            box.header.width = before.settings.header.width
            box.header.height = before.settings.header.height
            box.header.rotation = before.settings.header.rotation
            before.settings = box
        }
    }

    /// What the loop handled, for `--record` and the black box alike.
    func note(_ payload: TraceRecord.Payload, at time: Microseconds) {
        recorder?.record(payload, at: time)
        blackBox?.record(payload, at: time)
    }

    /// A new restart point of the content starts a black-box segment, when the loop is at a
    /// place a replay can start from exactly (`exact`); the shake window restarts with it.
    func followRestartPoint(exact: Bool) {
        guard let box = blackBox, let point = content.restartPoint, point != lastRestartPoint else { return }
        lastRestartPoint = point
        guard exact else { return }
        box.begin(BlackBoxRing.Start(point: point, motion: motion?.pipeline.snapshot))
        motion?.restartShakeWindow()
    }

    /// The display is off (closed): frames stop, so the gap to the next is no stall.
    func framesPaused() { animatingSince = nil }

    /// A frame that took too long, or came too long after the last while something moved,
    /// writes a dump (at most one per quiet time).
    func watchForStall(frameBegan begin: Microseconds, screen: PixelBuffer) {
        guard let box = blackBox, let limit = box.settings.stall else { return }
        let now = clock.now
        let waited = animatingSince.map { begin - $0 } ?? 0
        let took = now - begin
        animatingSince = content.isAnimating ? now : nil
        guard took > limit || waited > limit else { return }
        guard box.takesUnaskedDump(at: now) else { return }
        log.warning("frame stall: \(fixed1(Double(max(took, waited)) / 1000)) ms \(took > limit ? "drawing a frame" : "between frames")")
        dump(reason: "stall", screen: screen)
    }

    /// A lost flip writes a dump as a stall does (at most one per quiet time).
    func flipLost(screen: PixelBuffer) {
        if blackBox?.takesUnaskedDump(at: clock.now) == true { dump(reason: "lost-flip", screen: screen) }
    }

    /// SIGUSR1's dump, at most one per `askedQuiet`; the ones between are said to be
    /// skipped once per quiet time, so that a flood of signals neither fills the disk nor the
    /// journal.
    func dumpAskedFor(screen: PixelBuffer?) {
        guard let box = blackBox else { return }
        let turn = box.takesAskedDump(at: clock.now)
        if turn.granted {
            askedDumpSkipSaid = false
            dump(reason: "sigusr1", screen: screen)
        } else if !askedDumpSkipSaid {
            askedDumpSkipSaid = true
            say("black box: a dump was written less than \(box.settings.askedQuiet / 1_000_000) s ago; no new one for \(fixed1(Double(turn.wait) / 1_000_000)) s")
        }
    }

    /// Writes the black box's dump now and says where; nil when there is no black box or
    /// writing failed (said too).
    @discardableResult
    func dump(reason: String, screen: PixelBuffer?) -> BlackBoxDump? {
        guard let box = blackBox else { return nil }
        do {
            let dump = try box.dump(reason: reason, now: content.now, state: content.stateText ?? "{}",
                                    screen: screen, system: system)
            say("black box: \(dump.records) records written to \(dump.folder)" + (dump.replaysExactly ? "" : " (partial: it starts mid-visit)"))
            return dump
        } catch {
            log.warning("black box: cannot write to \(box.settings.folder): \(error)")
            return nil
        }
    }

    /// The recording ends with the loop.
    func finish(at time: Microseconds) {
        recorder?.finish(at: time)
    }
}
