/// A touch as every module sees it: Platform makes these from libinput (after the one
/// `ScreenTransform`), Gestures recognises them, Trace records and replays them.

/// Where a finger is in its life on the glass. The raw values are the trace file's words.
public enum TouchPhase: String, Sendable, CaseIterable {
    case down, move, up, cancel
}

/// One touch event in portrait screen pixels.
public struct TouchEvent: Hashable, Sendable {
    /// The device's slot number (libinput's seat slot); the mouse finger has its own.
    public var slot: Int
    public var phase: TouchPhase
    /// Portrait screen pixels. Ignored for `cancel`; for `up` the last known position.
    public var position: Vec2
    /// Monotonic microseconds (the kernel's event time on a stand, the trace's on replay).
    public var time: Microseconds
    /// Which touch device: unplugging it cancels its touches.
    public var device: Int

    public init(slot: Int, phase: TouchPhase, position: Vec2, time: Microseconds, device: Int = 0) {
        self.slot = slot; self.phase = phase; self.position = position; self.time = time; self.device = device
    }
}

/// The events between two libinput `TOUCH_FRAME` events (or trace lines with equal time):
/// they happened together.
public struct TouchFrame: Hashable, Sendable {
    public var time: Microseconds
    public var events: [TouchEvent]

    public init(time: Microseconds, events: [TouchEvent]) { self.time = time; self.events = events }
    /// A frame at the latest time of its events.
    public init(_ events: [TouchEvent]) {
        var latest: Microseconds = 0
        for e in events where e.time > latest { latest = e.time }
        self.init(time: latest, events: events)
    }
}
