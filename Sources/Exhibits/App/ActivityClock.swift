import Geometry
import Gestures

/// When a visitor was last active (a touch, a clear tilt, a finger held down), which the
/// idle reset and the attract loop count from.
struct ActivityClock {
    /// A tilt change counts as a visitor from this much (g): about 3.5°, well above a
    /// filtered accelerometer's noise.
    static let tiltActivity = 0.06
    /// A touch held longer is a stuck touch (a fault, a leaning object), not a visitor.
    static let longestHeldTouch: Microseconds = 600_000_000

    var lastActivity: Microseconds
    /// Touches down now (by slot) and when each went down: a visitor holding a ball out is
    /// still playing.
    private(set) var heldSince: [Int: Microseconds] = [:]
    /// Gravity when the visitor last tilted clearly; noise around it is no activity.
    private(set) var tiltReference: Vec2?

    init(lastActivity: Microseconds, tiltReference: Vec2? = nil) {
        self.lastActivity = lastActivity
        self.tiltReference = tiltReference
    }

    /// The last moment a visitor was active: a touch, a clear tilt, or `now` while a finger
    /// is held (for at most `longestHeldTouch`).
    func latest(at now: Microseconds) -> Microseconds {
        var latest = lastActivity
        for since in heldSince.values { latest = max(latest, min(now, since + Self.longestHeldTouch)) }
        return latest
    }

    var nothingHeld: Bool { heldSince.isEmpty }

    func stuckTouches(at now: Microseconds) -> Int { heldSince.values.filter { now - $0 >= Self.longestHeldTouch }.count }

    /// A frame of touches: activity, and which fingers are held.
    mutating func follow(_ frame: TouchFrame) {
        lastActivity = max(lastActivity, frame.time)
        for e in frame.events {
            switch e.phase {
            case .down: if heldSince[e.slot] == nil { heldSince[e.slot] = e.time }
            case .up, .cancel: heldSince[e.slot] = nil
            case .move: break
            }
        }
    }

    /// New gravity: activity when it moved clearly from where the visitor last left it.
    mutating func tilt(_ g: Vec2, at now: Microseconds) {
        if let reference = tiltReference, (g - reference).length <= Self.tiltActivity {
            // Noise, or a stand at rest: not a visitor.
        } else {
            if tiltReference != nil { lastActivity = max(lastActivity, now) }
            tiltReference = g
        }
    }

    /// Every finger is gone (the touchscreen went away, the stand opened for the day).
    mutating func releaseAll() { heldSince.removeAll() }
}
