import Geometry

/// The pair of fingers a pinch or a rotation follows: the first two touches that went down.
/// With one finger left the gesture holds still (as UIKit's do) and resumes, without a jump,
/// when a second finger lands again; it ends when the last finger lifts.
struct FingerPair {
    /// Vector from the first to the second finger, or nil with fewer than two.
    static func span(_ touches: [GestureRecognizer.TrackedTouch], excluding: [TouchID] = []) -> Vec2? {
        let fingers = touches.filter { !excluding.contains($0.id) }
        guard fingers.count >= 2 else { return nil }
        return fingers[1].position - fingers[0].position
    }
}

/// UIKit's UIPinchGestureRecognizer: `scale` is the fingers' distance over their distance when
/// they went down (settable: exhibits that apply it incrementally set it back to 1);
/// `velocity` in scale factor per second. Began when the distance has changed by `hysteresis`
/// pixels, well above what ±2 px of jitter on both fingers can do.
public final class PinchGestureRecognizer: GestureRecognizer {
    public var hysteresis = 8.0
    public var action: ((PinchGestureRecognizer) -> Void)?

    private var referenceDistance: Double?
    private var baseScale = 1.0
    private var currentScale = 1.0
    private var startDistance: Double?
    private var velocityEstimator = VelocityEstimator()
    private var lastTime: Microseconds = 0

    public init(region: Rect? = nil, name: String = "pinch", action: ((PinchGestureRecognizer) -> Void)? = nil) {
        self.action = action
        super.init(region: region, name: name)
    }

    override func sendAction() { action?(self) }

    public var scale: Double {
        get { currentScale }
        set {
            if currentScale > 0 { baseScale = newValue / currentScale * baseScale }
            currentScale = newValue
            velocityEstimator.reset()
            velocityEstimator.add(Vec2(currentScale, 0), at: lastTime)
        }
    }
    public var velocity: Double { velocityEstimator.velocity(at: lastTime).x }

    override func wantsAnotherTouch() -> Bool { tracked.count < 2 }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        lastTime = max(lastTime, time)
        if let span = FingerPair.span(tracked, excluding: added), let reference = referenceDistance, reference > 0 {
            let distance = span.length
            let next = baseScale * distance / reference
            if next != currentScale { currentScale = next; velocityEstimator.add(Vec2(currentScale, 0), at: time) }
        }
        if !added.isEmpty || !ended.isEmpty {
            // Re-anchor on the new pair so the scale carries on from its current value.
            if let span = FingerPair.span(tracked, excluding: ended), span.length > 0 {
                referenceDistance = span.length
                baseScale = currentScale
                if startDistance == nil { startDistance = span.length }
                velocityEstimator.add(Vec2(currentScale, 0), at: time)
            } else {
                referenceDistance = nil
            }
        }
        let remaining = tracked.count - ended.count
        if isRecognizing {
            if remaining == 0 { return propose(.ended) }
            if !ended.isEmpty || !added.isEmpty || referenceDistance == nil { return }
            return propose(.changed)
        }
        guard proposals.isEmpty else { return }
        if remaining == 0 { return propose(.failed) }
        if let span = FingerPair.span(tracked, excluding: ended), let start = startDistance, referenceDistance != nil,
           abs(span.length - start) >= hysteresis {
            propose(.began)
        }
    }

    override func resetGesture() {
        referenceDistance = nil; startDistance = nil
        baseScale = 1; currentScale = 1
        velocityEstimator.reset()
    }
}

/// UIKit's UIRotationGestureRecognizer: `rotation` in radians, clockwise positive on screen,
/// accumulated frame by frame so it goes past ±π; `velocity` in radians per second. Began when
/// the fingers have turned by `minimumAngle` and their relative sideways travel
/// (angle × distance) exceeds `hysteresis` pixels, so jitter on close fingers does not start it.
public final class RotationGestureRecognizer: GestureRecognizer {
    public var minimumAngle = 0.1
    public var hysteresis = 12.0
    public var action: ((RotationGestureRecognizer) -> Void)?

    private var previousSpan: Vec2?
    private var currentRotation = 0.0
    private var velocityEstimator = VelocityEstimator()
    private var lastTime: Microseconds = 0

    public init(region: Rect? = nil, name: String = "rotation", action: ((RotationGestureRecognizer) -> Void)? = nil) {
        self.action = action
        super.init(region: region, name: name)
    }

    override func sendAction() { action?(self) }

    public var rotation: Double {
        get { currentRotation }
        set {
            currentRotation = newValue
            velocityEstimator.reset()
            velocityEstimator.add(Vec2(currentRotation, 0), at: lastTime)
        }
    }
    public var velocity: Double { velocityEstimator.velocity(at: lastTime).x }

    override func wantsAnotherTouch() -> Bool { tracked.count < 2 }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        lastTime = max(lastTime, time)
        if let span = FingerPair.span(tracked, excluding: added), let previous = previousSpan,
           span.lengthSquared > 0, previous.lengthSquared > 0 {
            let delta = atan2d(previous.cross(span), previous.dot(span))
            if delta != 0 { currentRotation += delta; velocityEstimator.add(Vec2(currentRotation, 0), at: time) }
        }
        previousSpan = FingerPair.span(tracked, excluding: ended)
        if (!added.isEmpty || !ended.isEmpty), previousSpan != nil { velocityEstimator.add(Vec2(currentRotation, 0), at: time) }
        let remaining = tracked.count - ended.count
        if isRecognizing {
            if remaining == 0 { return propose(.ended) }
            if !ended.isEmpty || !added.isEmpty || previousSpan == nil { return }
            return propose(.changed)
        }
        guard proposals.isEmpty else { return }
        if remaining == 0 { return propose(.failed) }
        if let span = previousSpan, abs(currentRotation) >= minimumAngle, abs(currentRotation) * span.length >= hysteresis {
            propose(.began)
        }
    }

    override func resetGesture() {
        previousSpan = nil
        currentRotation = 0
        velocityEstimator.reset()
    }
}
