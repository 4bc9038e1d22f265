import Geometry

/// How visitors used the stand since it started, for its health metrics: nothing that could
/// tell one person from another, only counts per exhibit.
public struct VisitorCounts: Sendable {
    /// The launcher's exhibits, in order.
    public var exhibits: [String]
    /// What is on the screen now: "launcher" or an exhibit's name.
    public var showing: String
    /// Fingers that went down, by screen.
    public var touches: [String: Int] = [:]
    /// Times a visitor opened each exhibit (on a locked stand: the first touch after a reset).
    public var sessions: [String: Int] = [:]
    public var idleResets = 0
    /// Attract-loop demos a visitor stopped by touching.
    public var attractConversions = 0
    /// Fingers held still past `[touch] stuck_seconds` and dropped until they lift.
    public var stuckTouches = 0

    public var screens: [String] { ["launcher"] + exhibits }

    public init(exhibits: [String], showing: String) { self.exhibits = exhibits; self.showing = showing }
}

/// One visit to an exhibit, as the visitor statistics keep it: which exhibit, when, how long
/// the visitor played (to their last touch), how many fingers went down, in which language.
public struct VisitorSession: Equatable, Sendable {
    public var exhibit: String
    public var start: Microseconds
    public var end: Microseconds
    public var touches: Int
    public var language: String
    public init(exhibit: String, start: Microseconds, end: Microseconds, touches: Int, language: String) {
        self.exhibit = exhibit; self.start = start; self.end = end; self.touches = touches; self.language = language
    }
}

/// What the kiosk saw visitors do since it was last asked: finished sessions, and attract
/// demos stopped by a touch (which exhibit's demo, when).
public struct VisitorEvents: Sendable {
    public var sessions: [VisitorSession] = []
    public var conversions: [(exhibit: String, time: Microseconds)] = []
    public init() {}
}
