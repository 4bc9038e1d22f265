// Gestures: the touch model and UIKit-style gesture recognizers, independent of libinput.
// Platform turns libinput touch events into `TouchFrame`s (portrait pixels, µs); a
// `GestureEnvironment` routes them to recognizers and arbitrates as UIKit does.
import Geometry

/// An item an exhibit draws and lets people touch (a shape, a circle, the block); the exhibit
/// chooses the numbers and answers hit tests with them.
public typealias ItemID = Int

/// A finger on the glass from down to up, as the environment sees it. Unlike slot numbers
/// (which libinput reuses), a `TouchID` is never reused, and a finger that lifts and lands
/// again within the debounce time keeps its id.
public typealias TouchID = Int

public enum TouchPhase: String, Sendable, CaseIterable {
    case down, move, up, cancel
}

/// One touch event as libinput delivers it (after the `ScreenTransform`).
public struct TouchEvent: Hashable, Sendable {
    /// The device's slot number (libinput `get_seat_slot`/`get_slot`).
    public var slot: Int
    public var phase: TouchPhase
    /// Portrait screen pixels. Ignored for `cancel`; for `up` the last known position.
    public var position: Vec2
    /// Monotonic microseconds.
    public var time: Microseconds
    /// Which touch device: `GestureEnvironment.deviceRemoved(_:at:)` cancels its touches.
    public var device: Int

    public init(slot: Int, phase: TouchPhase, position: Vec2, time: Microseconds, device: Int = 0) {
        self.slot = slot; self.phase = phase; self.position = position; self.time = time; self.device = device
    }
}

/// The events between two libinput `TOUCH_FRAME` events: they happened together.
public struct TouchFrame: Hashable, Sendable {
    public var time: Microseconds
    public var events: [TouchEvent]

    public init(time: Microseconds, events: [TouchEvent]) { self.time = time; self.events = events }
    /// A frame at the latest time of its events.
    public init(_ events: [TouchEvent]) {
        self.init(time: events.map(\.time).max() ?? 0, events: events)
    }
}
