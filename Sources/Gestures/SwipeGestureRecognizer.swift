import Geometry

public struct SwipeDirections: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let right = SwipeDirections(rawValue: 1)
    public static let left = SwipeDirections(rawValue: 2)
    public static let up = SwipeDirections(rawValue: 4)
    public static let down = SwipeDirections(rawValue: 8)
    public static let all: SwipeDirections = [.right, .left, .up, .down]

    /// Unit vector on screen (y down).
    var unitVector: Vec2 {
        switch self {
        case .right: return Vec2(1, 0)
        case .left: return Vec2(-1, 0)
        case .up: return Vec2(0, -1)
        default: return Vec2(0, 1)
        }
    }
}

/// UIKit's UISwipeGestureRecognizer, with its hidden thresholds made parameters: discrete,
/// recognized the first time the fingers' centroid is `minimumDistance` from where it went
/// down, if it then moves at `minimumSpeed` or more (over the last ~100 ms) and its direction
/// is within `directionTolerance` radians of an allowed direction. Fails if the fingers are
/// slower or off direction at that point, lift earlier, or take longer than `maximumDuration`.
/// `recognizedDirection`, `translation` and `velocity` tell which way and how fast (the
/// circle-drawing exhibit launches circles with them; with `.all` and a tolerance of π/4 every
/// direction is accepted).
public final class SwipeGestureRecognizer: GestureRecognizer {
    public var direction: SwipeDirections = .right
    public var numberOfTouchesRequired = 1
    public var minimumDistance = 50.0
    public var minimumSpeed = 250.0
    public var directionTolerance = 0.4
    public var maximumDuration: Microseconds = 800_000
    public var action: ((SwipeGestureRecognizer) -> Void)?

    public private(set) var recognizedDirection: SwipeDirections?
    public private(set) var translation = Vec2.zero
    public private(set) var velocity = Vec2.zero
    /// Where the fingers went down (their centroid).
    public private(set) var startLocation = Vec2.zero

    private var startTime: Microseconds?
    private var peakTouches = 0
    private var velocityEstimator = VelocityEstimator()

    public init(region: Rect? = nil, direction: SwipeDirections = .right, name: String = "swipe",
                action: ((SwipeGestureRecognizer) -> Void)? = nil) {
        self.direction = direction
        self.action = action
        super.init(region: region, name: name)
    }

    override func sendAction() { action?(self) }

    override var deadline: Microseconds? {
        guard state == .possible, proposals.isEmpty, let start = startTime else { return nil }
        return start + maximumDuration
    }

    override func deadlineReached(at time: Microseconds) { propose(.failed) }

    override func touchesChanged(added: [TouchID], ended: [TouchID], time: Microseconds) {
        guard proposals.isEmpty else { return }
        if !added.isEmpty {
            if tracked.count > numberOfTouchesRequired || peakTouches >= numberOfTouchesRequired { return propose(.failed) }
            peakTouches = tracked.count
            if startTime == nil { startTime = time }
            if tracked.count == numberOfTouchesRequired {
                startLocation = Vec2.zero
                for t in tracked { startLocation += t.start }
                startLocation = startLocation / Double(tracked.count)
                velocityEstimator.reset()
                velocityEstimator.add(startLocation, at: time)
            }
        }
        guard peakTouches == numberOfTouchesRequired else {
            if !ended.isEmpty { propose(.failed) }
            return
        }
        let position = centroid(of: tracked)
        velocityEstimator.add(position, at: time)
        translation = position - startLocation
        if translation.length >= minimumDistance {
            velocity = velocityEstimator.velocity(at: time)
            guard velocity.length >= minimumSpeed else { return propose(.failed) }
            let heading = translation / translation.length
            var best: (SwipeDirections, Double)?
            for candidate in [SwipeDirections.right, .left, .up, .down] where direction.contains(candidate) {
                let angle = atan2d(abs(candidate.unitVector.cross(heading)), candidate.unitVector.dot(heading))
                if angle <= directionTolerance, best == nil || angle < best!.1 { best = (candidate, angle) }
            }
            guard let found = best else { return propose(.failed) }
            recognizedDirection = found.0
            return propose(.ended)
        }
        if !ended.isEmpty { propose(.failed) }
    }

    override func resetGesture() {
        recognizedDirection = nil
        translation = .zero
        velocity = .zero
        startTime = nil
        peakTouches = 0
        velocityEstimator.reset()
    }
}
