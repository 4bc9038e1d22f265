import Geometry

/// What the kiosk keeps about its visitors: counts for the health metrics, and the visit in
/// progress with those finished since they were last taken, for the visitor statistics.
struct VisitorLedger {
    var counts: VisitorCounts
    /// A locked stand counts a session at the first touch after each reset.
    var lockedSessionPending = true
    private var session: VisitorSession?
    private var events = VisitorEvents()

    init(exhibits: [String]) { counts = VisitorCounts(exhibits: exhibits, showing: "launcher") }

    /// A visitor opened `exhibit` (or touched the locked one first after a reset).
    mutating func opened(_ exhibit: String) { counts.sessions[exhibit, default: 0] += 1 }

    mutating func beginVisit(_ exhibit: String, at now: Microseconds, lastActivity: Microseconds, language: String) {
        endVisit(at: now, lastActivity: lastActivity, language: language)
        session = VisitorSession(exhibit: exhibit, start: now, end: now, touches: 0, language: language)
    }

    /// The visit ends where the visitor's last touch was (an idle reset comes much later).
    mutating func endVisit(at now: Microseconds, lastActivity: Microseconds, language: String) {
        guard var s = session else { return }
        s.end = max(s.start, min(now, lastActivity))
        s.language = language
        events.sessions.append(s)
        session = nil
    }

    /// Fingers went down on `screen` ("launcher" or an exhibit).
    mutating func touchesDown(_ count: Int, on screen: String) { counts.touches[screen, default: 0] += count }

    /// Fingers went down in the visit in progress.
    mutating func touchesInVisit(_ count: Int) { session?.touches += count }

    /// A visitor stopped the attract loop's demo of `exhibit`.
    mutating func converted(demo exhibit: String, at time: Microseconds) {
        counts.attractConversions += 1
        events.conversions.append((exhibit, time))
    }

    mutating func idleReset() { counts.idleResets += 1 }

    /// The finished visits and converted demos since the last call.
    mutating func take() -> VisitorEvents {
        defer { events = VisitorEvents() }
        return events
    }
}
