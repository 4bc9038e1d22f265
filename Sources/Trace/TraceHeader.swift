import Geometry

/// The first line of a trace: what it is, and the stand's settings that shaped it, so that
/// `replay` runs it as the stand ran (each can be overridden on the command line). Every
/// setting is optional: hand-written traces name none.
///
/// `{"trace":"motionkiosk","version":1,"exhibit":"launcher","width":480,"height":800,
///   "rotation":90,"seed":"12345","mount":"1, 0, 0; 0, 1, 0; 0, 0, 1",
///   "gravity_time_constant_ms":100,"shake_threshold":13,"stuck_after_ms":10000,"touch_stuck_ms":600000}`
///
/// Accelerometer samples are recorded in the screen frame (after the mount and rotation),
/// so `mount` and `rotation` say how the stand was set up; the filter settings change what
/// a replay computes.
public struct TraceHeader: Equatable, Sendable {
    /// The exhibit shown ("launcher" for the whole kiosk).
    public var exhibit: String?
    /// Whether the stand showed only `exhibit`, without a home control.
    public var locked: Bool?
    /// The idle reset and the attract loop, ms (0: never).
    public var idleMilliseconds: Double?
    public var attractMilliseconds: Double?
    public var width: Int?
    public var height: Int?
    /// Panel rotation in degrees (0, 90, 180, 270).
    public var rotation: Int?
    /// Written as a string: JSON numbers lose integers above 2^53.
    public var seed: UInt64?
    public var mount: String?
    public var gravityTimeConstantMilliseconds: Double?
    public var shakeThreshold: Double?
    /// 0: the stuck-sensor check was off.
    public var stuckAfterMilliseconds: Double?
    /// A finger held still this long was dropped as stuck (`[touch] stuck_seconds`), ms; 0: never.
    public var touchStuckMilliseconds: Double?
    /// The touches are what reached the kiosk past the stand's phantom-tap filter (true for
    /// every trace a stand writes): a replay does not filter them again. Hand-written traces
    /// leave it out and are filtered as a touch panel's reports are.
    public var phantomsFiltered: Bool?
    /// Where a running kiosk was at the trace's start (a black-box dump); nil: a fresh start.
    public var resuming: TraceResumePoint?

    public init() {}

    /// The header line, without the newline.
    public var line: String {
        var s = "{\"trace\":\"motionkiosk\",\"version\":\(TraceReader.supportedVersion)"
        if let exhibit { s += ",\"exhibit\":" + FlatJSONPrinter.string(exhibit) }
        if let locked { s += ",\"locked\":\(locked)" }
        if let phantomsFiltered { s += ",\"phantoms_filtered\":\(phantomsFiltered)" }
        if let width { s += ",\"width\":\(width)" }
        if let height { s += ",\"height\":\(height)" }
        if let rotation { s += ",\"rotation\":\(rotation)" }
        if let seed { s += ",\"seed\":\"\(seed)\"" }
        if let mount { s += ",\"mount\":" + FlatJSONPrinter.string(mount) }
        func number(_ key: String, _ v: Double?) {
            if let v, v.isFinite { s += ",\"\(key)\":" + FlatJSONPrinter.number(v) }
        }
        number("idle_ms", idleMilliseconds)
        number("attract_ms", attractMilliseconds)
        number("gravity_time_constant_ms", gravityTimeConstantMilliseconds)
        number("shake_threshold", shakeThreshold)
        number("stuck_after_ms", stuckAfterMilliseconds)
        number("touch_stuck_ms", touchStuckMilliseconds)
        if let r = resuming {
            number("resume_elapsed_us", Double(r.elapsed))
            number("resume_idle_us", Double(r.idleFor))
            if let a = r.attract { s += ",\"resume_attract\":" + FlatJSONPrinter.string(a) }
            s += ",\"resume_language\":" + FlatJSONPrinter.string(r.language)
            number("resume_tilt_x", r.tiltReference?.x)
            number("resume_tilt_y", r.tiltReference?.y)
            number("resume_app_gx", r.appGravity.x)
            number("resume_app_gy", r.appGravity.y)
            number("resume_gx", r.filteredGravity?.x)
            number("resume_gy", r.filteredGravity?.y)
            number("resume_gz", r.filteredGravity?.z)
            number("resume_gravity_us", r.filteredGravityTime.map { Double($0) })
            number("resume_same_x", r.repeatedReading?.x)
            number("resume_same_y", r.repeatedReading?.y)
            number("resume_same_z", r.repeatedReading?.z)
            number("resume_same_since_us", Double(r.repeatedSince))
            number("resume_shake_quiet_us", r.shakeQuietUntil.map { Double($0) })
        }
        return s + "}"
    }

    static let keys = ["trace", "version", "exhibit", "locked", "idle_ms", "attract_ms", "width", "height", "rotation", "seed", "mount",
                       "gravity_time_constant_ms", "shake_threshold", "stuck_after_ms", "touch_stuck_ms",
                       "phantoms_filtered"] + TraceResumePoint.keys
}

/// The moment a black-box trace starts from, as its header carries it: the kiosk's side
/// (its clock, idle time, attract demo, language, tilt reference and gravity; the generator
/// is the header's `seed`) and the motion pipeline's (filtered gravity and its last sample's
/// time, the repeating reading the stuck check watches, the quiet time after a shake).
/// Times are µs on the trace's clock (0 at its start, so earlier moments are negative).
public struct TraceResumePoint: Equatable, Sendable {
    public struct Reading: Equatable, Sendable {
        public var x: Double, y: Double, z: Double
        public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    }
    public var elapsed: Int64 = 0
    public var idleFor: Int64 = 0
    public var attract: String?
    public var language = "en"
    public var tiltReference: Vec2?
    public var appGravity = Vec2(0, 1)
    public var filteredGravity: Reading?
    public var filteredGravityTime: Int64?
    public var repeatedReading: Reading?
    public var repeatedSince: Int64 = 0
    public var shakeQuietUntil: Int64?

    public init() {}

    static let keys = ["resume_elapsed_us", "resume_idle_us", "resume_attract", "resume_language", "resume_tilt_x", "resume_tilt_y",
                       "resume_app_gx", "resume_app_gy", "resume_gx", "resume_gy", "resume_gz", "resume_gravity_us",
                       "resume_same_x", "resume_same_y", "resume_same_z", "resume_same_since_us", "resume_shake_quiet_us"]
}
