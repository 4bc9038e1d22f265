import Geometry

/// UIKit's UITapGestureRecognizer: `numberOfTapsRequired` taps of `numberOfTouchesRequired`
/// fingers, each finger staying within `allowableMovement` of where it went down, the next
/// tap going down within `maximumTapInterval` of the previous one lifting and within
/// `maximumTapSpacing` of the first tap. Discrete: recognized when the last tap lifts.
/// A single tap that must wait for a double tap: `single.requireToFail(double)`.
public final class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    /// Pixels a finger may travel before the tap fails; covers ±2 px jitter several times.
    public var allowableMovement = 10.0
    public var maximumTapInterval: Microseconds = 350_000
    public var maximumTapSpacing = 45.0
    public var action: ((TapGestureRecognizer) -> Void)?

    /// Taps completed so far in this gesture.
    public private(set) var tapCount = 0
    private var touchesInThisTap = 0
    private var liftedInThisTap = false
    private var firstTapLocation: Vec2?
    private var lastUpTime: Microseconds?
    /// Where each finger of the current tap was last (fingers lift in different frames).
    private var lastPositions: [(id: TouchID, position: Vec2)] = []

    public init(region: Rect? = nil, name: String = "tap", action: ((TapGestureRecognizer) -> Void)? = nil) {
        self.action = action
        super.init(region: region, name: name)
    }

    override func sendAction() { action?(self) }

    override var deadline: Microseconds? {
        guard state == .possible, proposals.isEmpty, tracked.isEmpty, let up = lastUpTime else { return nil }
        return up + maximumTapInterval
    }

    override func deadlineReached(at time: Microseconds) {
        propose(.failed)
        lastUpTime = nil
    }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        guard proposals.isEmpty else { return }
        if !added.isEmpty {
            if tapCount == 0, touchesInThisTap == 0 { fixedLocation = nil }
            if liftedInThisTap || tracked.count > numberOfTouchesRequired { return propose(.failed) }
            if touchesInThisTap == 0 {
                if let up = lastUpTime, time - up > maximumTapInterval { return propose(.failed) }
                if let first = firstTapLocation, centroid(of: tracked).distance(to: first) > maximumTapSpacing {
                    return propose(.failed)
                }
            }
            touchesInThisTap = max(touchesInThisTap, tracked.count)
        }
        for t in tracked where t.position.distance(to: t.start) > allowableMovement {
            return propose(.failed)
        }
        for t in tracked {
            if let i = lastPositions.firstIndex(where: { $0.id == t.id }) { lastPositions[i].position = t.position } else { lastPositions.append((t.id, t.position)) }
        }
        guard !ended.isEmpty else { return }
        liftedInThisTap = true
        guard tracked.count == ended.count else { return } // fingers still down
        guard touchesInThisTap == numberOfTouchesRequired else { return propose(.failed) }
        tapCount += 1
        var sum = Vec2.zero
        for entry in lastPositions { sum += entry.position }
        let tapCentroid = sum / Double(lastPositions.count)
        lastPositions.removeAll()
        if firstTapLocation == nil { firstTapLocation = tapCentroid }
        touchesInThisTap = 0
        liftedInThisTap = false
        if tapCount >= numberOfTapsRequired {
            lastUpTime = nil
            fixedLocation = tapCentroid
            propose(.ended)
        } else {
            lastUpTime = time
        }
    }

    override func resetGesture() {
        tapCount = 0
        touchesInThisTap = 0
        liftedInThisTap = false
        firstTapLocation = nil
        lastUpTime = nil
        lastPositions.removeAll()
    }
}
