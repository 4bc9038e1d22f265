#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Geometry
import KioskRuntime
import OpeningHours
import Platform
import Syscalls
import SystemFakes
import Testing

/// The frame loop's wake-up timer: a failed arm must neither pass in silence nor cost the
/// stand its next change (here: closing time).
@Suite struct WakeAlarmTests {
    /// A stand open until 18:00, started at 17:59: its only wake-up is the closing, armed
    /// while it starts. Returns the kernel's timer calls made during `start`, the lines said,
    /// the display's power changes and when the loop ended.
    private func closingStand(failing: [Int: Int32]) throws -> (armsDuringStart: [(number: Int, delay: Int64)], said: [String],
                                                                    power: [Bool], ended: Microseconds) {
        let virtual = VirtualEvents()
        let events = FaultyEvents(virtual)
        events.failingTimerSets = failing
        let lines = Locked<[String]>([])
        let log = Log(minimum: .info, sink: { _, line in lines.withLock { $0.append(line) } })
        var settings = FrameLoopSettings()
        settings.say = { line in lines.withLock { $0.append(line) } }
        let wallClock = StandWallClock.starting(at: try #require(CivilTime(iso: "2026-11-23T17:59:00")), origin: 0, zone: .utc)
        var hours = OpeningHours()
        hours.weekly.append(try OpeningHours.weekly("Daily 09:00-18:00"))
        settings.schedule = StandSchedule(hours: hours, wakeFor: nil, wallClock: wallClock)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: log,
                               content: TestPatternScene(say: { _ in }), settings: settings)
        // Ends the run at 90 s without waking the frame loop (the loop stops before its
        // after-wake work): only the alarm can have switched the display off by then.
        let end = try frames.loop.addTimer { frames.loop.stop() }
        try end.arm(after: 90_000_000)
        let panel = VirtualPanel(width: 480, height: 800)
        let before = events.timerSets.count
        try frames.start(display: panel)
        let arms = events.timerSets.enumerated().dropFirst(before).filter { $0.element.delay > 0 }.map { ($0.offset + 1, $0.element.delay) }
        try frames.run()
        return (arms, lines.withLock { $0 }, panel.powerChanges, virtual.now)
    }

    @Test func aFailedArmIsSaidAndTriedAgainSoTheStandStillClosesOnTime() throws {
        let sound = try closingStand(failing: [:])
        #expect(sound.power == [false], "without faults the display goes off at 18:00")
        let closing = try #require(sound.armsDuringStart.first)
        #expect(closing.delay == 60_000_000)
        // The same stand, its kernel refusing that one arm.
        let faulted = try closingStand(failing: [closing.number: EBUSY])
        let said = faulted.said.filter { $0.contains("wake-up timer") }
        #expect(said.count == 1 && said.first?.contains("Device or resource busy") == true, "\(faulted.said)")
        #expect(faulted.power == [false], "the arm was tried again: the display still went off at 18:00")
        #expect(faulted.said.contains { $0.hasPrefix("closed: display off") })
        #expect(faulted.ended == 90_000_000)
    }
}
