import Geometry
import Gestures

/// When a visitor was last active (a touch, a clear tilt, a finger held down), which the
/// idle reset and the attract loop count from; and the fingers held still so long that they
/// are stuck (a fault, a leaning object), dropped until they lift.
struct ActivityClock {
    /// A tilt change counts as a visitor from this much (g): about 3.5°, well above a
    /// filtered accelerometer's noise.
    static let tiltActivity = 0.06

    var lastActivity: Microseconds
    /// A finger held unmoved (within `stillAllowance`) this long is stuck, not a visitor
    /// (`[touch] stuck_seconds`); nil: never.
    let stuckAfter: Microseconds?
    /// How far a finger may wander and still be held still (px): 2 mm on the glass.
    let stillAllowance: Double
    /// Touches down now (by slot), since when each has been held still and where: a visitor
    /// holding a ball out is still playing.
    private var heldSince: [Int: (time: Microseconds, at: Vec2)] = [:]
    /// Fingers held still past `stuckAfter`: dropped (cancelled where they went) and ignored
    /// until they lift.
    private var stuckSlots: Set<Int> = []
    /// Gravity when the visitor last tilted clearly; noise around it is no activity.
    private(set) var tiltReference: Vec2?

    init(lastActivity: Microseconds, tiltReference: Vec2? = nil, stuckAfter: Microseconds?, millimetresPerPixel: Double?) {
        self.lastActivity = lastActivity
        self.tiltReference = tiltReference
        self.stuckAfter = stuckAfter
        stillAllowance = 2 / (millimetresPerPixel ?? 0.19)
    }

    /// The last moment a visitor was active: a touch, a clear tilt, or `now` while a finger
    /// is held (until it is stuck).
    func latest(at now: Microseconds) -> Microseconds {
        var latest = lastActivity
        for held in heldSince.values { latest = max(latest, stuckAfter.map { min(now, held.time + $0) } ?? now) }
        return latest
    }

    var nothingHeld: Bool { heldSince.isEmpty }

    /// Fingers dropped as stuck that have not lifted yet.
    var stuckTouches: Int { stuckSlots.count }

    /// When the finger held still longest becomes stuck; nil: none held, or never.
    var nextStuckDeadline: Microseconds? {
        guard let after = stuckAfter, let still = heldSince.values.map({ $0.time }).min() else { return nil }
        return still + after
    }

    /// A frame of touches: activity, and which fingers are held. Returns the frame without
    /// the events of stuck fingers (no one's until they lift); nil when nothing is left.
    mutating func follow(_ input: TouchFrame) -> TouchFrame? {
        var frame = input
        if !stuckSlots.isEmpty {
            frame.events = []
            for e in input.events {
                guard stuckSlots.contains(e.slot) else { frame.events.append(e); continue }
                if e.phase == .up || e.phase == .cancel { stuckSlots.remove(e.slot) }
            }
            if frame.events.isEmpty { return nil }
        }
        lastActivity = max(lastActivity, frame.time)
        for e in frame.events {
            switch e.phase {
            case .down: if heldSince[e.slot] == nil { heldSince[e.slot] = (e.time, e.position) }
            case .up, .cancel: heldSince[e.slot] = nil
            case .move:
                if let held = heldSince[e.slot], e.position.distance(to: held.at) > stillAllowance { heldSince[e.slot] = (e.time, e.position) }
            }
        }
        return frame
    }

    /// Fingers held still past `stuckAfter` by `time` become stuck: their cancels, where each
    /// went (in slot order), for the screen to end them; empty when none.
    mutating func dropStuck(at time: Microseconds) -> [TouchEvent] {
        guard let after = stuckAfter else { return [] }
        let stuck = heldSince.filter { time - $0.value.time >= after }.sorted { $0.key < $1.key }
        guard !stuck.isEmpty else { return [] }
        // Held still counted as play until now; idle is measured from here.
        lastActivity = max(lastActivity, time)
        var cancels: [TouchEvent] = []
        for (slot, held) in stuck {
            heldSince[slot] = nil
            stuckSlots.insert(slot)
            cancels.append(TouchEvent(slot: slot, phase: .cancel, position: held.at, time: time))
        }
        return cancels
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
    mutating func releaseAll() {
        heldSince.removeAll()
        stuckSlots.removeAll()
    }
}
