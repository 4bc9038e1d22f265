import Geometry

/// The settings that shape what tilt, shakes and altitude an exhibit sees. A recorded trace
/// carries them in its header so that a replay at a desk filters exactly as the stand did.
public struct MotionSettings: Equatable, Sendable {
    /// Gravity low-pass time constant, seconds.
    public var gravityTimeConstant = 0.1
    /// m/s² of linear acceleration that counts toward a shake.
    public var shakeThreshold = 13.0
    public var shakeCoolDown: Microseconds = 1_000_000
    /// Identical samples for this long count as a stuck sensor; nil disables the check.
    public var stuckAfter: Microseconds? = 10_000_000
    public var altitudeTimeConstant = 1.0

    public init() {}
}

/// What one accelerometer sample did in the pipeline.
public enum SampleOutcome: Equatable, Sendable {
    case dropped(BadSampleReason)
    /// Taken; `shake` when it completed one.
    case accepted(shake: ShakeEvent?)
}

/// One accelerometer sample and what it did: the exhibit's gravity after it.
public struct MotionReading: Equatable, Sendable {
    public var sample: AccelerationSample
    public var outcome: SampleOutcome
    public var worldGravity: Vec2
    public init(sample: AccelerationSample, outcome: SampleOutcome, worldGravity: Vec2) {
        self.sample = sample; self.outcome = outcome; self.worldGravity = worldGravity
    }
}

/// The one motion chain of the kiosk, live and in replay: sample validator → (samples
/// already in the screen frame, see `AxisMapping`) → gravity filter → shake detector, and
/// pressure → altitude. `MotionSensors` feeds it from devices; replay feeds it from a
/// trace's samples, which are recorded before validation so bad ones drop the same way.
public struct MotionPipeline: Sendable {
    public let settings: MotionSettings
    public private(set) var validator: SampleValidator
    /// The latest good sample, screen frame.
    public private(set) var latest: AccelerationSample?
    public private(set) var lastPressure: Double?
    private var gravityFilter: GravityFilter
    private var shakeDetector: ShakeDetector
    private var altitudeEstimator: AltitudeEstimator

    public init(settings: MotionSettings = MotionSettings()) {
        self.settings = settings
        validator = SampleValidator(stuckAfter: settings.stuckAfter)
        gravityFilter = GravityFilter(timeConstant: settings.gravityTimeConstant)
        shakeDetector = ShakeDetector(threshold: settings.shakeThreshold, coolDown: settings.shakeCoolDown)
        altitudeEstimator = AltitudeEstimator(timeConstant: settings.altitudeTimeConstant)
    }

    /// What a replay needs to go on from here exactly as this pipeline will: the filter's
    /// output and its last sample's time, the stuck check's history and the quiet time
    /// after a shake (the shake window restarts, see `restartShakeWindow`). Altitude is not
    /// carried: a replay measures it from its first pressure reading.
    public struct Snapshot: Equatable, Sendable {
        public var gravity: Vec3?
        public var gravityTime: Microseconds?
        public var repeatedVector: Vec3?
        public var repeatedSince: Microseconds
        public var shakeQuietUntil: Microseconds?

        public init(gravity: Vec3? = nil, gravityTime: Microseconds? = nil, repeatedVector: Vec3? = nil,
                    repeatedSince: Microseconds = 0, shakeQuietUntil: Microseconds? = nil) {
            self.gravity = gravity; self.gravityTime = gravityTime; self.repeatedVector = repeatedVector
            self.repeatedSince = repeatedSince; self.shakeQuietUntil = shakeQuietUntil
        }

        /// The same moments on a clock `offset` later.
        public func shifted(by offset: Microseconds) -> Snapshot {
            Snapshot(gravity: gravity, gravityTime: gravityTime.map { $0 + offset }, repeatedVector: repeatedVector,
                     repeatedSince: repeatedSince + offset, shakeQuietUntil: shakeQuietUntil.map { $0 + offset })
        }
    }

    /// The pipeline as it stands, for a replay to start from (call `restartShakeWindow` at
    /// the same moment so that the live run and the replay detect shakes alike).
    public var snapshot: Snapshot {
        Snapshot(gravity: gravityFilter.gravity, gravityTime: gravityFilter.lastTime, repeatedVector: validator.lastVector,
                 repeatedSince: validator.sameSince,
                 shakeQuietUntil: shakeDetector.quietUntil == .min ? nil : shakeDetector.quietUntil)
    }

    /// A pipeline going on from `snapshot` (a replay of a black-box dump).
    public init(settings: MotionSettings, resuming snapshot: Snapshot) {
        self.init(settings: settings)
        if let g = snapshot.gravity, let t = snapshot.gravityTime { gravityFilter.resume(gravity: g, lastTime: t) }
        validator.resume(lastVector: snapshot.repeatedVector, sameSince: snapshot.repeatedSince)
        if let quiet = snapshot.shakeQuietUntil { shakeDetector.restartWindow(quietUntil: quiet) }
    }

    /// Forgets the samples in the shake window (a black box starts a segment here).
    public mutating func restartShakeWindow() { shakeDetector.restartWindow(quietUntil: shakeDetector.quietUntil) }

    /// Filtered gravity (specific force), screen frame, m/s²; upright before any sample.
    public var gravity: Vec3 { gravityFilter.gravity ?? FixedDownGravity.vector }
    /// The dynamics world's gravity: (−gx, +gy)/9.80665 in y-down screen space (UIKit units).
    public var worldGravity: Vec2 { TiltGravity.worldGravity(gravity) }
    /// Acceleration without gravity, screen frame, m/s².
    public var linearAcceleration: Vec3 { gravityFilter.linearAcceleration }
    /// Metres above the first pressure reading, smoothed; nil before one.
    public var altitude: Double? { altitudeEstimator.altitude }

    /// One screen-frame sample. `direct` samples (arrow keys, fixed gravity) set gravity at
    /// once and never shake; measured ones are filtered.
    public mutating func add(_ sample: AccelerationSample, direct: Bool) -> SampleOutcome {
        if let reason = validator.check(sample) { return .dropped(reason) }
        latest = sample
        if direct {
            gravityFilter.reset(to: sample)
            return .accepted(shake: nil)
        }
        _ = gravityFilter.add(sample)
        return .accepted(shake: shakeDetector.add(sample))
    }

    /// One pressure reading; true when the altitude changed, false when it did not or the
    /// reading was dropped (`altitudeDropped` counts those).
    public mutating func add(pressure: PressureSample) -> Bool {
        let before = altitudeEstimator.altitude
        let droppedBefore = altitudeEstimator.dropped
        _ = altitudeEstimator.add(pressure)
        if altitudeEstimator.dropped == droppedBefore { lastPressure = pressure.kilopascals }
        return altitudeEstimator.altitude != before
    }

    public var altitudeDropped: Int { altitudeEstimator.dropped }

    public mutating func countReadErrors(_ failures: Int = 1) { validator.countReadErrors(failures) }

    /// A new source took over: its first readings are not "the same as before".
    public mutating func sourceChanged() { validator.restart() }
}
