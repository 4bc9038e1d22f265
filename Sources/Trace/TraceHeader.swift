/// The first line of a trace: what it is, and the stand's settings that shaped it, so that
/// `replay` runs it as the stand ran (each can be overridden on the command line). Every
/// setting is optional: hand-written traces name none.
///
/// `{"trace":"motionkiosk","version":1,"exhibit":"launcher","width":480,"height":800,
///   "rotation":90,"seed":"12345","mount":"1, 0, 0; 0, 1, 0; 0, 0, 1",
///   "gravity_time_constant_ms":100,"shake_threshold":13,"stuck_after_ms":10000}`
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

    public init() {}

    /// The header line, without the newline.
    public var line: String {
        var s = "{\"trace\":\"motionkiosk\",\"version\":\(TraceReader.supportedVersion)"
        if let exhibit { s += ",\"exhibit\":" + FlatJSONPrinter.string(exhibit) }
        if let locked { s += ",\"locked\":\(locked)" }
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
        return s + "}"
    }

    static let keys = ["trace", "version", "exhibit", "locked", "idle_ms", "attract_ms", "width", "height", "rotation", "seed", "mount",
                       "gravity_time_constant_ms", "shake_threshold", "stuck_after_ms"]
}
