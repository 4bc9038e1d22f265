import Diagnostics
import Geometry
import Platform
import Sensors
import Syscalls
import Trace

/// Touch and keys to the content: each touch frame at its own time (the content reaches it
/// first, so that a deadline after it cannot fire before it), through the opening-hours
/// gate, into the tap, the health counters and the touch-to-photon timing.
final class InputDelivery {
    private let content: any FrameContent
    private let gate: OpeningHoursGate
    private let tap: BlackBoxTap
    private let motion: MotionDelivery
    private let housekeeping: Housekeeping
    private let log: Log
    private let say: (String) -> Void
    /// The touchscreen (and keyboards) as libinput gives them, once attached.
    private var touch: TouchInput?
    /// Its descriptor became readable since the last wake-up.
    private var ready = false
    /// Phantom taps (Platform/PhantomTapFilter.swift) never reach the content; made anew
    /// for each display, at its pixel pitch (`useDisplay`); nil: touches pass as they come.
    private var phantomTaps: PhantomTapFilter? = PhantomTapFilter()
    /// Touch slots with a finger down.
    private var slotsDown: Set<Int> = []
    private var escapeRefusalSaid = false
    /// Fingers that went down since the start.
    private(set) var touchesSeen = 0

    /// Whether escape leaves; `handled`: a touch frame reached the content at this kernel
    /// time; `displayAsleep`: the display is off; `leave`: ends the loop.
    var escapeLeaves: Bool
    /// Brings the content to a time, the opening hours' changes on the way applied at
    /// their instants (the frame loop's `advanceContent`).
    var advanceContent: (Microseconds) -> Void
    var handled: (Microseconds) -> Void = { _ in }
    var displayAsleep: () -> Bool = { false }
    var leave: () -> Void = {}

    init(content: any FrameContent, gate: OpeningHoursGate, tap: BlackBoxTap, motion: MotionDelivery,
         housekeeping: Housekeeping, escapeLeaves: Bool, log: Log, say: @escaping (String) -> Void) {
        self.content = content; self.gate = gate; self.tap = tap; self.motion = motion
        self.housekeeping = housekeeping; self.escapeLeaves = escapeLeaves; self.log = log; self.say = say
        advanceContent = { time in content.advance(to: time) }
    }

    /// Phantom taps are measured on this display's glass (2 mm at its pixel pitch) from now
    /// on; not at all without `filtersPhantomTaps` (the touches of a stand's recording are
    /// what reached its content: filtering them again can only make them differ).
    func useDisplay(millimetresPerPixel: Double?, filtersPhantomTaps: Bool) {
        phantomTaps = filtersPhantomTaps ? PhantomTapFilter(millimetresPerPixel: millimetresPerPixel) : nil
    }

    /// Takes `source`'s events, put right by `calibration` (`[touch] transform` and
    /// `calibration`) then mapped through `screen`, from now on: its descriptor marks it
    /// ready, and each wake-up dispatches it once (`dispatch`).
    func attach(_ source: any InputEventSource, screen: ScreenTransform, mouseIsFinger: Bool, calibration: TouchCalibration,
                loop: EventLoop) throws(SystemError) {
        let touch = TouchInput(source: source, screen: screen, mouseIsFinger: mouseIsFinger,
                               calibration: calibration) { [unowned(unsafe) self] in self.deliver($0) }
        try loop.addReader(source.fd) { [unowned(unsafe) self] in self.ready = true }
        self.touch = touch
        // The devices already there say so at once.
        touch.dispatch()
    }

    /// What arrived since the last wake-up, once.
    func dispatch() {
        guard ready, let touch else { return }
        ready = false
        touch.dispatch()
    }

    /// One input event, as `TouchInput` translates it (or a replay produces it).
    func deliver(_ event: InputEvent) {
        switch event {
        case .touches(let panelFrame):
            let passed = phantomTaps == nil ? panelFrame : phantomTaps?.filter(panelFrame)
            if let ignored = phantomTaps?.ignored { housekeeping.health.phantomTaps = ignored }
            guard let frame = passed else { return }
            // Input before time: the content reaches the frame's own time, then takes it.
            let at = max(frame.time, content.now)
            advanceContent(at)
            guard gate.admits(frame, at: at, displayAsleep: displayAsleep()) else { return }
            tap.followRestartPoint(exact: true)
            for e in frame.events {
                if e.phase == .down { housekeeping.touchDown(device: e.device, at: e.time); touchesSeen += 1 }
                tap.note(.touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y), at: at)
                switch e.phase {
                case .down: slotsDown.insert(e.slot)
                case .up, .cancel: slotsDown.remove(e.slot)
                case .move: break
                }
            }
            motion.fingersDown = !slotsDown.isEmpty
            content.handle(frame)
            handled(frame.time)
        case .key(let k):
            guard k.pressed, let command = k.command else { return }
            switch command {
            case .leave:
                if escapeLeaves { say("Escape: leaving"); leave() } else if !escapeRefusalSaid {
                    escapeRefusalSaid = true
                    say("Escape pressed: the kiosk goes on (input.escape_leaves)")
                }
            case .tiltLeft: motion.press(.left)
            case .tiltRight: motion.press(.right)
            case .tiltUp: motion.press(.up)
            case .tiltDown: motion.press(.down)
            }
            content.key(command)
        case .deviceAdded(let info):
            housekeeping.health.deviceAdded(info)
            content.inputAdded(info)
        case .permissionDenied(let path):
            log.warning(InputEvent.permissionMessage(path))
        case .deviceRemoved(let id):
            housekeeping.health.deviceRemoved(id)
            slotsDown.removeAll()
            motion.fingersDown = false
            content.deviceRemoved(id, at: content.now)
        }
    }
}
