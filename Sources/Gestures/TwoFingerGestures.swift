import Geometry

/// The pair of fingers a pinch or a rotation follows: the first two touches that went down.
/// With one finger left the gesture holds still (as UIKit's do) and resumes, without a jump,
/// when a second finger lands again; it ends when the last finger lifts. A finger bouncing
/// (lift and land within the debounce) leaves the same pair, so its motion meanwhile counts.
struct FingerPair {
    private(set) var ids: [TouchID] = []

    /// Pair members whose lift was being debounced at the end of the last frame: frozen where
    /// they lifted, so the pair holds still until they land again or are gone.
    var frozen: Set<TouchID> = []

    /// The span (second finger − first) of the tracked pair, if both are still tracked and
    /// neither is frozen.
    func span(in touches: [GestureRecognizer.TrackedTouch]) -> Vec2? {
        guard ids.count == 2, !frozen.contains(ids[0]), !frozen.contains(ids[1]),
              let a = touches.first(where: { $0.id == ids[0] }),
              let b = touches.first(where: { $0.id == ids[1] }) else { return nil }
        return b.position - a.position
    }

    /// Takes the first two of `touches` as the pair if that is a different pair; returns its
    /// span when it changed. Fewer than two keeps the old pair (so it can come back).
    mutating func adopt(_ touches: [GestureRecognizer.TrackedTouch]) -> Vec2? {
        guard touches.count >= 2 else { return nil }
        let next = [touches[0].id, touches[1].id]
        guard next != ids else { return nil }
        ids = next
        return touches[1].position - touches[0].position
    }

    mutating func reset() { ids.removeAll(); frozen.removeAll() }
}

/// UIKit's UIPinchGestureRecognizer: `scale` is the fingers' distance over their distance when
/// they went down (settable to a positive value: exhibits that apply it incrementally set it
/// back to 1);
/// `velocity` in scale factor per second. Began when the distance has changed by `hysteresis`
/// pixels, well above what ±2 px of jitter on both fingers can do.
public final class PinchGestureRecognizer: GestureRecognizer {
    public var hysteresis = 8.0
    public var action: ((PinchGestureRecognizer) -> Void)?

    private var pair = FingerPair()
    /// scale = baseScale × distance / referenceDistance.
    private var referenceDistance = 0.0
    private var baseScale = 1.0
    private var currentScale = 1.0
    private var travelled = 0.0
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
            // Re-based (exhibits set it back to 1 after applying it): the velocity, in scale
            // factor per second, is kept relative to the new base.
            guard currentScale > 0, newValue > 0, newValue.isFinite else { return }
            let factor = newValue / currentScale
            baseScale *= factor
            currentScale = newValue
            velocityEstimator.multiply(by: factor)
        }
    }
    public var velocity: Double { velocityEstimator.velocity(at: lastTime).x }

    override func wantsAnotherTouch() -> Bool { tracked.count < 2 }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        lastTime = max(lastTime, time)
        var moved = false
        if let span = pair.span(in: tracked), referenceDistance > 0 {
            let next = baseScale * span.length / referenceDistance
            if next != currentScale {
                currentScale = next
                moved = true
                velocityEstimator.add(Vec2(currentScale, 0), at: time)
            }
            travelled = max(travelled, abs(span.length - referenceDistance))
        }
        if let span = pair.adopt(geometryTouches(excluding: ended)) {
            referenceDistance = span.length
            baseScale = currentScale
            travelled = 0
            velocityEstimator.add(Vec2(currentScale, 0), at: time)
        }
        pair.frozen = lifting
        let down = tracked.count - ended.count
        if isRecognizing {
            if down == 0 { return propose(.ended) }
            if moved { propose(.changed) }
            return
        }
        guard proposals.isEmpty else { return }
        if down == 0 { return propose(.failed) }
        if travelled >= hysteresis { propose(.began) }
    }

    override func resetGesture() {
        pair.reset()
        referenceDistance = 0
        baseScale = 1; currentScale = 1
        travelled = 0
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

    private var pair = FingerPair()
    private var previousSpan = Vec2.zero
    private var currentRotation = 0.0
    /// Rotation since the current pair was formed (what decides beginning).
    private var pairRotation = 0.0
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
            guard newValue.isFinite else { return }
            velocityEstimator.shift(by: Vec2(newValue - currentRotation, 0))
            currentRotation = newValue
        }
    }
    public var velocity: Double { velocityEstimator.velocity(at: lastTime).x }

    override func wantsAnotherTouch() -> Bool { tracked.count < 2 }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        lastTime = max(lastTime, time)
        var moved = false
        if let span = pair.span(in: tracked), span.lengthSquared > 0, previousSpan.lengthSquared > 0 {
            let delta = atan2d(previousSpan.cross(span), previousSpan.dot(span))
            if delta != 0 {
                currentRotation += delta
                pairRotation += delta
                moved = true
                velocityEstimator.add(Vec2(currentRotation, 0), at: time)
            }
            previousSpan = span
        }
        if let span = pair.adopt(geometryTouches(excluding: ended)) {
            previousSpan = span
            pairRotation = 0
            velocityEstimator.add(Vec2(currentRotation, 0), at: time)
        }
        pair.frozen = lifting
        let down = tracked.count - ended.count
        if isRecognizing {
            if down == 0 { return propose(.ended) }
            if moved { propose(.changed) }
            return
        }
        guard proposals.isEmpty else { return }
        if down == 0 { return propose(.failed) }
        if let span = pair.span(in: tracked), abs(pairRotation) >= minimumAngle, abs(pairRotation) * span.length >= hysteresis {
            propose(.began)
        }
    }

    override func resetGesture() {
        pair.reset()
        previousSpan = .zero
        currentRotation = 0
        pairRotation = 0
        velocityEstimator.reset()
    }
}
