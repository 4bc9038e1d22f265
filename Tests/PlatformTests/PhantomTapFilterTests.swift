import Testing
import Geometry
@testable import Platform

@Suite struct PhantomTapFilterTests {
    let spot = Vec2(300, 200)
    let period: Microseconds = 12_864_000

    func tap(_ f: inout PhantomTapFilter, at p: Vec2, time t: Microseconds, slot: Int = 0, moveTo: Vec2? = nil,
             held: Microseconds = 0) -> [TouchEvent] {
        var out: [TouchEvent] = []
        out += f.filter(TouchFrame(time: t, events: [TouchEvent(slot: slot, phase: .down, position: p, time: t)]))?.events ?? []
        var last = p
        if let moveTo {
            out += f.filter(TouchFrame(time: t + 20_000, events: [TouchEvent(slot: slot, phase: .move, position: moveTo, time: t + 20_000)]))?.events ?? []
            last = moveTo
        }
        let up = t + max(held, moveTo == nil ? 0 : 40_000)
        out += f.filter(TouchFrame(time: up, events: [TouchEvent(slot: slot, phase: .up, position: last, time: up)]))?.events ?? []
        return out
    }

    @Test func aQuietTapRepeatingOnItsPeriodIsIgnoredAfterItsThirdRepeat() {
        var f = PhantomTapFilter()
        for k in 0..<4 {
            #expect(tap(&f, at: spot, time: 1_000_000 + Microseconds(k) * period).count == 2, "tap \(k) passes")
        }
        #expect(f.recognised.count == 1)
        for k in 4..<20 {
            // A little jitter in place and time, as a real panel has.
            let p = Vec2(spot.x + Double(k % 3), spot.y - Double(k % 2))
            #expect(tap(&f, at: p, time: 1_000_000 + Microseconds(k) * period + Microseconds(k % 5) * 7_000).isEmpty, "phantom \(k)")
        }
        #expect(f.ignored == 16)
        // A missed beat or two does not lose it.
        #expect(tap(&f, at: spot, time: 1_000_000 + 22 * period).isEmpty)
        #expect(f.ignored == 17)
    }

    @Test func aRealTouchAtThatSpotStillPasses() {
        var f = PhantomTapFilter()
        for k in 0..<5 { _ = tap(&f, at: spot, time: Microseconds(k) * period) }
        #expect(f.ignored == 1)
        // Off the beat: at once.
        let off = tap(&f, at: spot, time: 4 * period + 5_000_000)
        #expect(off.map { $0.phase } == [.down, .up])
        // On the beat but moving: the down comes back, before the movement.
        let moving = tap(&f, at: spot, time: 5 * period, moveTo: Vec2(spot.x + 40, spot.y))
        #expect(moving.map { $0.phase } == [.down, .move, .up])
        #expect(moving.first?.time == 5 * period)
        // On the beat but held like a finger, not a zero-length tap.
        let held = tap(&f, at: spot, time: 6 * period, held: 400_000)
        #expect(held.map { $0.phase } == [.down, .up])
        // Elsewhere: untouched.
        #expect(tap(&f, at: Vec2(50, 50), time: 7 * period).count == 2)
        // The visitor's touches did not move the beat.
        #expect(tap(&f, at: spot, time: 8 * period).isEmpty)
    }

    /// A controller reset shifts the phantom's beat: its taps pass again, and after three
    /// repeats on the new beat it is known again (the visitor's taps never made it move).
    @Test func aPhantomThatLostItsBeatIsRecognisedAgainOnTheNewOne() {
        var f = PhantomTapFilter()
        for k in 0..<6 { _ = tap(&f, at: spot, time: 1_000_000 + Microseconds(k) * period) }
        #expect(f.ignored == 2)
        // One visitor's quiet tap there, off the beat: passed, and the beat stays.
        #expect(tap(&f, at: spot, time: 1_000_000 + 6 * period - 4_000_000).count == 2)
        #expect(tap(&f, at: spot, time: 1_000_000 + 6 * period).isEmpty)
        // The beat shifts by 5 s: four taps pass (as at first), then the phantom is withheld.
        let shifted: Microseconds = 1_000_000 + 7 * period + 5_000_000
        for k in 0..<4 { #expect(tap(&f, at: spot, time: shifted + Microseconds(k) * period).count == 2, "tap \(k) on the new beat passes") }
        #expect(f.recognised.count == 1)
        for k in 4..<8 { #expect(tap(&f, at: spot, time: shifted + Microseconds(k) * period).isEmpty, "phantom \(k) on the new beat") }
        #expect(f.ignored == 7)
        // The old beat is gone: a quiet tap on it passes.
        #expect(tap(&f, at: spot, time: 1_000_000 + 16 * period).count == 2)
    }

    @Test func quietTapsWithoutASteadyPeriodAreVisitors() {
        var f = PhantomTapFilter()
        var t: Microseconds = 0
        for gap in [3_000_000, 9_000_000, 4_000_000, 12_000_000, 5_000_000, 7_000_000] as [Microseconds] {
            t += gap
            #expect(tap(&f, at: spot, time: t).count == 2)
        }
        // A visitor tapping a button in rhythm, faster than any phantom.
        for k in 0..<10 { #expect(tap(&f, at: Vec2(100, 100), time: t + Microseconds(k) * 600_000).count == 2) }
        #expect(f.ignored == 0 && f.recognised.isEmpty)
    }

    @Test func theSpotIsTwoMillimetresOnTheGlass() {
        #expect(abs(PhantomTapFilter(millimetresPerPixel: 0.1).spotRadius - 20) < 1e-9)
        #expect(abs(PhantomTapFilter().spotRadius - 2 / 0.19) < 1e-9)
    }
}
