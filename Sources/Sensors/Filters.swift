import Geometry

/// Gravity as the slow part of the accelerometer signal (Android's SensorEvent recipe):
/// g ← α·g + (1−α)·a with α = τ/(τ+dt), dt from the sample timestamps, so the filter
/// behaves the same at 50 Hz, 100 Hz or with gaps. Linear acceleration is a − g.
public struct GravityFilter: Sendable {
    /// Time constant τ in seconds; 0 passes samples straight through.
    public var timeConstant: Double
    public private(set) var gravity: Vec3?
    public private(set) var linearAcceleration: Vec3 = .zero
    /// The last sample's time: the next sample's weight depends on the gap since.
    public private(set) var lastTime: Microseconds?

    public init(timeConstant: Double = 0.1) {
        precondition(timeConstant >= 0 && timeConstant.isFinite, "time constant must be ≥ 0 s")
        self.timeConstant = timeConstant
    }

    /// Feeds one sample; returns the filtered gravity. A sample older than the previous one
    /// (clock confusion, replay restart) restarts the filter on it.
    @discardableResult
    public mutating func add(_ s: AccelerationSample) -> Vec3 {
        if let g = gravity, let t0 = lastTime, s.time >= t0 {
            let alpha = lowPassWeight(timeConstant: timeConstant, from: t0, to: s.time)
            gravity = g * alpha + s.vector * (1 - alpha)
        } else {
            gravity = s.vector
        }
        lastTime = s.time
        linearAcceleration = s.vector - gravity!
        return gravity!
    }

    /// Carries on from another filter's output (a replay starting mid-run).
    public mutating func resume(gravity: Vec3, lastTime: Microseconds) {
        self.gravity = gravity
        self.lastTime = lastTime
    }

    /// Jumps to `s` (a synthetic source's exact value: nothing to smooth).
    public mutating func reset(to s: AccelerationSample) {
        gravity = s.vector
        lastTime = s.time
        linearAcceleration = .zero
    }
}

/// The weight α = τ/(τ+dt) a first-order low-pass gives its previous output, dt taken
/// from sample timestamps (µs) so the filter behaves the same at any rate or with gaps.
@inlinable func lowPassWeight(timeConstant: Double, from t0: Microseconds, to t1: Microseconds) -> Double {
    let dt = Double(t1 - t0) / 1_000_000
    return timeConstant + dt > 0 ? timeConstant / (timeConstant + dt) : 0
}

/// Tilt → the dynamics world's gravity (design.md): the screen-plane component of the
/// specific force, turned into y-down screen space as (−ax, +ay) and scaled so that
/// 9.80665 m/s² in the plane is magnitude 1.0 (UIKit's gravity unit, 1000 px/s²).
public enum TiltGravity {
    @inlinable public static func worldGravity(_ screenFrame: Vec3) -> Vec2 {
        Vec2(-screenFrame.x / standardGravity, screenFrame.y / standardGravity)
    }
}

/// One shake, reported once (like iOS's motion event), however many jolts it had.
public struct ShakeEvent: Equatable, Sendable {
    public var time: Microseconds
    public init(time: Microseconds) { self.time = time }
}

/// Shake detection after Square's seismic: a sample "accelerates" when |a| > threshold;
/// within a sliding window (0.5 s), once the window spans ≥ 0.25 s, holds ≥ 4 samples and
/// ≥ 75 % of them accelerate, that is a shake. Then the window is cleared and nothing more
/// is reported until the device has had no accelerating sample for the cool-down, so one
/// shake gives one event however long it lasts.
public struct ShakeDetector: Sendable {
    public var threshold: Double
    public var window: Microseconds
    public var minimumSpan: Microseconds
    public var minimumSamples: Int
    public var acceleratingFraction: Double
    public var coolDown: Microseconds

    private var times: [Microseconds] = []
    private var accelerating: [Bool] = []
    private var head = 0
    private var acceleratingCount = 0
    /// After a shake, nothing more is reported before this.
    public private(set) var quietUntil: Microseconds = .min

    /// `threshold` in m/s²: 11 light, 13 medium (default), 15 hard.
    public init(threshold: Double = 13, window: Microseconds = 500_000, minimumSpan: Microseconds = 250_000,
                minimumSamples: Int = 4, acceleratingFraction: Double = 0.75, coolDown: Microseconds = 1_000_000) {
        self.threshold = threshold; self.window = window; self.minimumSpan = minimumSpan
        self.minimumSamples = minimumSamples; self.acceleratingFraction = acceleratingFraction; self.coolDown = coolDown
        times.reserveCapacity(128); accelerating.reserveCapacity(128)
    }

    /// Feeds one sample (raw specific force, gravity included, as seismic does).
    public mutating func add(_ s: AccelerationSample) -> ShakeEvent? {
        let isAccelerating = s.vector.lengthSquared > threshold * threshold
        if s.time < quietUntil {
            // Still shaking after the event: the same shake, so the quiet time runs on.
            if isAccelerating { quietUntil = s.time + coolDown }
            return nil
        }
        // A sample older than the newest means time went back: start over.
        if let last = times.last, s.time < last { clear() }
        times.append(s.time)
        accelerating.append(isAccelerating)
        if isAccelerating { acceleratingCount += 1 }
        while head < times.count, times[head] < s.time - window {
            if accelerating[head] { acceleratingCount -= 1 }
            head += 1
        }
        if head > 64 { compact() }
        let count = times.count - head
        guard count >= minimumSamples, s.time - times[head] >= minimumSpan,
              Double(acceleratingCount) >= acceleratingFraction * Double(count) else { return nil }
        clear()
        quietUntil = s.time + coolDown
        return ShakeEvent(time: s.time)
    }

    /// Starts the sliding window afresh, keeping the quiet time after a shake: what a replay
    /// starting here can reproduce exactly.
    public mutating func restartWindow(quietUntil: Microseconds) {
        clear()
        self.quietUntil = quietUntil
    }

    private mutating func clear() {
        times.removeAll(keepingCapacity: true)
        accelerating.removeAll(keepingCapacity: true)
        head = 0
        acceleratingCount = 0
    }
    private mutating func compact() {
        times.removeFirst(head)
        accelerating.removeFirst(head)
        head = 0
    }
}
