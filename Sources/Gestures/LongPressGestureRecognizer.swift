import Geometry

/// UIKit's UILongPressGestureRecognizer: `numberOfTouchesRequired` fingers held for
/// `minimumPressDuration` without travelling more than `allowableMovement`. Continuous: began
/// when the time is up (the environment's deadline, no touch event needed), changed as the
/// fingers move, ended when one lifts. Also the kiosk's stand-in for force touch; with a
/// `minimumPressDuration` of 0 it reports touch down, moves and lift of one finger at once
/// (drawing a circle from its centre outward).
public final class LongPressGestureRecognizer: GestureRecognizer {
    public var minimumPressDuration: Microseconds = 500_000
    public var numberOfTouchesRequired = 1
    public var allowableMovement = 10.0
    public var action: ((LongPressGestureRecognizer) -> Void)?

    /// When the required fingers were all down.
    private var pressStart: Microseconds?

    public init(region: Rect? = nil, name: String = "long-press", action: ((LongPressGestureRecognizer) -> Void)? = nil) {
        self.action = action
        super.init(region: region, name: name)
    }

    override func sendAction() { action?(self) }

    override var deadline: Microseconds? {
        guard state == .possible, proposals.isEmpty, let start = pressStart else { return nil }
        return start + minimumPressDuration
    }

    override func deadlineReached(at time: Microseconds) {
        let held = pressStart != nil && tracked.count == numberOfTouchesRequired
        pressStart = nil
        if held { propose(.began) }
    }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        if isRecognizing {
            if !ended.isEmpty { return propose(.ended) }
            if touchesMovedThisFrame { propose(.changed) }
            return
        }
        guard proposals.isEmpty else { return }
        if tracked.count > numberOfTouchesRequired || !ended.isEmpty { return propose(.failed) }
        for t in tracked where t.position.distance(to: t.start) > allowableMovement {
            return propose(.failed)
        }
        if !added.isEmpty, tracked.count == numberOfTouchesRequired { pressStart = time }
    }

    override func wantsAnotherTouch() -> Bool { !isRecognizing }

    override func resetGesture() { pressStart = nil }
}
