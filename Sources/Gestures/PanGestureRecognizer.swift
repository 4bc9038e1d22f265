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

    /// translation = base + centroid(anchor touches) - anchor. The anchor set changes when
    /// fingers join or leave; a finger that bounces (lift and land within the debounce) is the
    /// same set, so what it moved meanwhile counts.
    private var base = Vec2.zero
    private var anchor = Vec2.zero
    private var anchorIDs: [TouchID] = []
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
    /// it back to zero after each change. The velocity is kept (so it can fling the item at
    /// the end of such a drag).
    public func setTranslation(_ value: Vec2) {
        velocityEstimator.shift(by: value - current)
        base = value - (current - base)
        current = value
    }

    /// Pixels per second, from the last ~100 ms of movement.
    public var velocity: Vec2 { velocityEstimator.velocity(at: lastTime) }

    override func wantsAnotherTouch() -> Bool { !isRecognizing || tracked.count < maximumNumberOfTouches }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        lastTime = max(lastTime, time)
        let anchored = tracked.filter { anchorIDs.contains($0.id) }
        var moved = false
        if !anchorIDs.isEmpty, anchored.count == anchorIDs.count {
            let next = base + (centroid(of: anchored) - anchor)
            // A lift at the last reported position carries no motion: it must not pull the
            // velocity down at 25 Hz, where the lift arrives one poll after the last move.
            if next != current {
                current = next
                moved = true
                velocityEstimator.add(current, at: time)
            }
        }
        let effective = geometryTouches(excluding: ended)
        let ids = effective.map { $0.id }
        if !ids.isEmpty, ids != anchorIDs {
            if anchorIDs.isEmpty { velocityEstimator.add(current, at: time) }
            base = current
            anchor = centroid(of: effective)
            anchorIDs = ids
        }

        let down = tracked.count - ended.count
        if isRecognizing {
            if down < minimumNumberOfTouches { return propose(.ended) }
            if moved { propose(.changed) }
            return
        }
        guard proposals.isEmpty else { return }
        if down == 0 { return propose(.failed) }
        if down > maximumNumberOfTouches { return propose(.failed) }
        if down >= minimumNumberOfTouches, current.length >= hysteresis { propose(.began) }
    }

    override func resetGesture() {
        base = .zero; anchor = .zero; current = .zero
        anchorIDs.removeAll()
        velocityEstimator.reset()
    }
}
