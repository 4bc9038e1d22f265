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
    /// Fingers held for `KioskApp.longestHeldTouch` or longer now.
    public var stuckTouches = 0

    public var screens: [String] { ["launcher"] + exhibits }

    public init(exhibits: [String], showing: String) { self.exhibits = exhibits; self.showing = showing }
}
