import Diagnostics
import Geometry
import OpeningHours
import Platform

/// Opening hours between the loop and the display: outside them the display (and its
/// backlights) is off and touches do nothing, except that a touch may wake the screen for a
/// while (`[schedule] wake_for`), as on a phone.
final class OpeningHoursGate {
    /// The hours; nil: always open.
    private(set) var schedule: StandSchedule?
    private let backlights: Backlights?
    private let health: StandHealth
    private let log: Log
    private let say: (String) -> Void
    /// Whether it was open at the last look (nil before the first), and until when a touch
    /// keeps the display on while closed.
    private var wasOpen: Bool?
    private(set) var wokenUntil: Microseconds?
    /// When the hours were last looked at (nil: not since the start or a reload).
    private var lookedAt: Microseconds?

    /// What a look at the hours found.
    enum Look {
        /// Frames go out. `switchedOn`: the display came back on (draw it whole);
        /// `opening`: the stand opened (the content starts fresh).
        case open(switchedOn: Bool, opening: Bool)
        /// No frames; look again at `nextLook`. `switchedOff`: the display just went off.
        case closed(nextLook: Microseconds, switchedOff: Bool)
    }

    init(schedule: StandSchedule?, backlights: Backlights?, health: StandHealth, log: Log, say: @escaping (String) -> Void) {
        self.schedule = schedule; self.backlights = backlights; self.health = health; self.log = log; self.say = say
    }

    /// New hours (a reload): looked at afresh on the next wake-up. Without hours the display
    /// comes back now; returns whether it did.
    func update(_ schedule: StandSchedule?, display: (any Display)?) -> Bool {
        self.schedule = schedule
        wasOpen = nil
        lookedAt = nil
        guard schedule == nil, let display, !display.isPoweredOn else { return false }
        do { try display.setPower(true) } catch { log.error("\(error)") }
        for problem in backlights?.setPower(true) ?? [] { log.warning(problem) }
        health.displayOn = true
        return true
    }

    /// The wall clock was set (an NTP step after boot on a Pi without a real-time clock):
    /// the hours are looked at afresh on this wake-up, and the next change found anew.
    func wallClockStepped() {
        guard let schedule else { return }
        schedule.clock.lookAgain()   // a step may be NTP's first: is the clock trusted now?
        lookedAt = nil
        say("wall clock set: opening hours looked at again")
    }

    /// Whether a touch frame at `time` reaches the content. Closed, a finger going down wakes
    /// the screen for `wake_for`; the touch that wakes it only wakes it.
    func admits(_ frame: TouchFrame, at time: Microseconds, displayAsleep: Bool) -> Bool {
        guard let schedule, !schedule.isOpen(at: time) else { return true }
        guard let wakeFor = schedule.wakeFor else { return false }   // closed: touches do nothing
        if frame.events.contains(where: { $0.phase == .down }) { wokenUntil = time + wakeFor }
        return !displayAsleep
    }

    /// Turns the display on or off as the hours (and a waking touch) say.
    func look(at now: Microseconds, display: any Display) -> Look {
        guard let schedule else { return .open(switchedOn: false, opening: false) }
        let open = schedule.isOpen(at: now)
        lookedAt = now
        if open { wokenUntil = nil }
        if let until = wokenUntil, now >= until { wokenUntil = nil }
        let on = open || wokenUntil != nil
        let opening = open && wasOpen == false
        wasOpen = open
        let switching = on != display.isPoweredOn
        if switching {
            do { try display.setPower(on) } catch { log.error("\(error)") }
            for problem in backlights?.setPower(on) ?? [] { log.warning(problem) }
            health.displayOn = on
            let next = schedule.nextChange(after: now).map { " until \(schedule.wallClock.civil(at: $0))" } ?? ""
            say(on ? (open ? "open: display on" : "woken by a touch while closed: display on") + next
                   : "closed: display off" + next)
        }
        if on { return .open(switchedOn: switching, opening: opening) }
        var next = schedule.nextLook(after: now)
        if let until = wokenUntil { next = min(next, until) }
        return .closed(nextLook: next, switchedOff: switching)
    }

    /// The first opening, closing or end of a touch's wake after the last look and no later
    /// than `time`: the loop applies it at that instant before the content moves past it.
    func changeDue(by time: Microseconds) -> Microseconds? {
        guard let schedule, let lookedAt else { return nil }
        var next = schedule.nextChange(after: lookedAt)
        if let until = wokenUntil { next = min(next ?? until, until) }
        guard let next, next > lookedAt, next <= time else { return nil }
        return next
    }

    /// The next moment the hours must be looked at while the display is on; nil: none.
    func nextLook(after now: Microseconds) -> Microseconds? {
        guard let schedule else { return nil }
        var next = schedule.nextLook(after: now)
        if let until = wokenUntil { next = min(next, until) }
        return next
    }
}
