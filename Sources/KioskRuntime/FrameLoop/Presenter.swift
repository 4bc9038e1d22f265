import Diagnostics
import Geometry
import Platform
import Raster
import Syscalls

/// Puts the content's frames on the display: asks its pacing whether a frame may go out,
/// presents the damage (whole after the display came back or a flip was lost), takes the
/// flip events on its own reader of the event loop, gives up lost flips, and times each
/// touch from the kernel to the glass.
final class Presenter {
    let display: any Display
    /// The display's pacing and flip completions: only the presenter looks at them.
    private let flips: any FlipQueue
    private let clock: any Clock
    private let log: Log
    private let housekeeping: Housekeeping
    private var health: StandHealth { housekeeping.health }
    /// Frames drawn and handed to the display.
    private(set) var framesPresented = 0
    /// The next frame goes out whole, even if nothing changed.
    private var presentWhole = false
    /// Touch frames handled since the last frame was drawn (their kernel times), and those
    /// drawn into a frame that has not reached the glass yet (with that frame's number).
    private var touchesAwaitingFrame: [Microseconds] = []
    private var touchesAwaitingFlip: [(frame: Int, time: Microseconds)] = []
    /// Lost flips the log has told of, and when it last did (one line a minute at most: a
    /// panel that stays away loses one a second).
    private var flipsLostTold = 0
    private var lostFlipToldAt: Microseconds?

    /// `failed`: the display cannot go on (the loop ends); `flipLost`: a flip was given up on.
    private let failed: (DisplayError) -> Void
    private let flipLost: () -> Void

    /// Takes `display`'s flip events through `loop` from now on.
    init(display: any Display, loop: EventLoop, clock: any Clock, log: Log, housekeeping: Housekeeping,
         failed: @escaping (DisplayError) -> Void, flipLost: @escaping () -> Void) throws(SystemError) {
        self.display = display; flips = display.flips; self.clock = clock; self.log = log; self.housekeeping = housekeeping
        self.failed = failed; self.flipLost = flipLost
        if let fd = flips.flipEventDescriptor {
            // The handler captures this presenter unretained: it lives in `loop`, which the
            // frame loop owns with the presenter (Embedded Swift has no weak references).
            try loop.addReader(fd) { [unowned(unsafe) self] in self.flipEventsReady() }
        }
    }

    /// Whether frames complete asynchronously (a DRM page flip), so that "shown" is the flip
    /// event, not `present` returning.
    var flipsAsynchronously: Bool { flips.flipEventDescriptor != nil }

    /// The display came back on: the next frame goes out whole.
    func presentWholeNext() { presentWhole = true }

    /// The screen went away (unplugged, switched off): counted, and the display is dark
    /// until it comes back (it keeps the frames back itself).
    func screenWent() {
        health.displayOn = false
        health.screenLosses += 1
    }

    /// The screen came back with its mode: the current picture goes out whole.
    func screenCameBack() {
        health.displayOn = display.isPoweredOn
        presentWhole = true
    }

    /// A touch frame at `time` reached the content: it is timed to the glass with the next
    /// frame drawn.
    func touchHandled(at time: Microseconds) {
        if touchesAwaitingFrame.count < 256 { touchesAwaitingFrame.append(time) }
    }

    /// The display's decision for the next frame, and any flip it gave up on to reach it.
    func decision() -> FramePacing.Decision {
        let decision = flips.frameDecision()
        noteLostFlips()
        return decision
    }

    /// What drawing a frame came to.
    enum Drawn {
        case nothingChanged
        case presented
        /// The display failed (said through `failed`): the loop ends.
        case displayFailed
    }

    /// Draws `content` and presents what changed.
    func drawAndPresent(_ content: any FrameContent, began: Microseconds) -> Drawn {
        var damage = content.render()
        if presentWhole {
            presentWhole = false
            if damage.isEmpty { damage = [display.backBuffer.bounds] }
        }
        // Touches that changed nothing on the glass have no photon to wait for.
        guard !damage.isEmpty else { touchesAwaitingFrame.removeAll(keepingCapacity: true); return .nothingChanged }
        let shownBefore = flips.framesShown
        do { try display.present(damage: damage) } catch {
            health.displayOn = false
            failed(error)
            return .displayFailed
        }
        framesPresented += 1
        housekeeping.frameDrawn(took: clock.now - began)
        for t in touchesAwaitingFrame { touchesAwaitingFlip.append((shownBefore + 1, t)) }
        touchesAwaitingFrame.removeAll(keepingCapacity: true)
        // A frame already up when present returns (a virtual panel, the first SetCrtc of
        // legacy modesetting) sends no flip event.
        if flips.framesShown > shownBefore { frameShown() }
        return .presented
    }

    /// Draws now, whatever the pacing says (a replay's checkpoint); nothing while the
    /// display is off. A failure is said; the replay goes on with what the buffer holds.
    func drawNow(_ content: any FrameContent) {
        guard display.isPoweredOn else { return }
        let damage = content.render()
        guard !damage.isEmpty else { return }
        do { try display.present(damage: damage) } catch {
            log.error("\(error)")
            return
        }
        framesPresented += 1
    }

    /// When the loop must wake next for frames: the pacing's moment while something
    /// moves; else the earliest of `deadline` and a still picture's flip timeout.
    func nextWake(animating: Bool, deadline: Microseconds?) -> Microseconds? {
        let decision = decision()
        if animating {
            switch decision {
            case .waitForFlip(let giveUpAt): return giveUpAt
            case .waitUntil(let t): return t
            case .submitNow: return clock.now + FrameLoopSettings.unpacedFrameInterval
            }
        }
        // A still picture's last flip too is given up on if its event never comes.
        if case .waitForFlip(let giveUpAt) = decision { return min(deadline ?? giveUpAt, giveUpAt) }
        return deadline
    }

    private func flipEventsReady() {
        do { _ = try flips.readFlipEvents() } catch {
            failed(error)
            return
        }
        if flips.framesShown > 0 { frameShown() }
    }

    /// Frames reached the glass: the touches drawn into them get their touch-to-photon time.
    private func frameShown() {
        if !touchesAwaitingFlip.isEmpty {
            let shownAt = flips.lastShownAt ?? clock.now
            var waiting = 0
            for entry in touchesAwaitingFlip {
                if entry.frame <= flips.framesShown { health.touchToPhoton.add(shownAt - entry.time) } else {
                    touchesAwaitingFlip[waiting] = entry
                    waiting += 1
                }
            }
            touchesAwaitingFlip.removeLast(touchesAwaitingFlip.count - waiting)
        }
        housekeeping.firstFrame(on: display)
    }

    /// Flips the display gave up on since the last look: said (once a minute at most), counted
    /// in the metrics, written to the black box (as a stall is), and the next frame goes out
    /// whole with the mode set again.
    private func noteLostFlips() {
        let lost = flips.flipsLost
        guard lost > health.flipsLost else { return }
        health.flipsLost = lost
        presentWhole = true
        let now = clock.now
        if let told = lostFlipToldAt, now - told < 60_000_000 { return }
        let seconds = FramePacing.flipTimeout / 1_000_000
        let more = lost - flipsLostTold
        log.warning("display: \(more == 1 ? "a page flip was" : "\(more) page flips were") not completed within \(seconds) s; "
                    + "setting the mode again (\(lost) lost since start)")
        flipsLostTold = lost
        lostFlipToldAt = now
        flipLost()
    }
}
