import Geometry

/// UIKit's UIPanGestureRecognizer: between `minimumNumberOfTouches` and
/// `maximumNumberOfTouches` fingers moving together. Began once the centroid has travelled
/// `hysteresis` pixels (more than jitter, less than a deliberate drag); `translation` is
/// measured from where the fingers went down, so an item dragged by it stays under the
/// finger. Fingers joining or leaving do not make the translation jump.
public final class PanGestureRecognizer: GestureRecognizer {
    public var minimumNumberOfTouches = 1
    public var maximumNumberOfTouches = Int.max
    public var hysteresis = 10.0
    public var action: ((PanGestureRecognizer) -> Void)?

    private var base = Vec2.zero
    private var anchor = Vec2.zero
    private var current = Vec2.zero
    private var velocityEstimator = VelocityEstimator()
    private var lastTime: Microseconds = 0

    public init(region: Rect? = nil, name: String = "pan", action: ((PanGestureRecognizer) -> Void)? = nil) {
        self.action = action
        super.init(region: region, name: name)
    }

    override func sendAction() { action?(self) }

    /// Pixels the fingers moved since they went down (or since `setTranslation`).
    public var translation: Vec2 { current }

    /// UIKit's `setTranslation(_:in:)`: exhibits that apply the translation incrementally set
    /// it back to zero after each change.
    public func setTranslation(_ value: Vec2) {
        base = value - (current - base)
        current = value
        velocityEstimator.reset()
        velocityEstimator.add(current, at: lastTime)
    }

    /// Pixels per second, from the last ~100 ms of movement.
    public var velocity: Vec2 { velocityEstimator.velocity(at: lastTime) }

    override func wantsAnotherTouch() -> Bool { !isRecognizing || tracked.count < maximumNumberOfTouches }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        lastTime = max(lastTime, time)
        let before = tracked.filter { !added.contains($0.id) }
        if !before.isEmpty {
            current = base + (centroid(of: before) - anchor)
            // A lift at the last reported position carries no motion: it must not pull the
            // velocity down at 25 Hz, where the lift arrives one poll after the last move.
            if before.contains(where: { previousPositions[$0.id] != $0.position }) {
                velocityEstimator.add(current, at: time)
            }
        }
        let after = tracked.filter { !ended.contains($0.id) }
        if !added.isEmpty || !ended.isEmpty, !after.isEmpty {
            base = current
            anchor = centroid(of: after)
            if before.isEmpty { velocityEstimator.add(current, at: time) }
        }
        rememberPositions()

        if isRecognizing {
            if after.count < minimumNumberOfTouches { return propose(.ended) }
            propose(.changed)
            return
        }
        guard proposals.isEmpty else { return }
        if after.isEmpty { return propose(.failed) }
        if after.count > maximumNumberOfTouches { return propose(.failed) }
        if after.count >= minimumNumberOfTouches, current.length >= hysteresis { propose(.began) }
    }

    private var previousPositions: [TouchID: Vec2] = [:]
    private func rememberPositions() {
        previousPositions.removeAll(keepingCapacity: true)
        for t in tracked { previousPositions[t.id] = t.position }
    }

    override func resetGesture() {
        base = .zero; anchor = .zero; current = .zero
        velocityEstimator.reset()
        previousPositions.removeAll()
    }
}
