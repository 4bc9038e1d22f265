import Gestures
import Platform

// Platform and Gestures are siblings (neither imports the other): the app joins them here.
extension TouchFrame {
    /// One libinput touch frame, already in portrait pixels, as the gesture layer takes it.
    init(_ touches: [TouchChange]) {
        self.init(touches.map { t in
            let phase: Gestures.TouchPhase
            switch t.phase {
            case .down: phase = .down
            case .motion: phase = .move
            case .up: phase = .up
            case .cancel: phase = .cancel
            }
            return Gestures.TouchEvent(slot: t.id, phase: phase, position: t.point, time: t.time, device: t.device)
        })
    }
}
