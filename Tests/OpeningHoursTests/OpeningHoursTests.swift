import Testing
@testable import OpeningHours

@Suite struct CivilTimeTests {
    @Test func datesRoundTripAndWeekdaysAreRight() throws {
        let t = try #require(CivilTime(iso: "2026-11-23T17:59:00"))
        #expect(t.description == "2026-11-23T17:59:00")
        #expect(t.weekday == 0, "2026-11-23 is a Monday")
        #expect(try #require(CivilTime(iso: "2024-02-29T00:00")).weekday == 3)
        #expect(CivilTime(iso: "2025-02-29T00:00") == nil)
        #expect(CivilTime(iso: "2026-11-23 17:59") == nil)
        #expect(CivilTime(iso: "2026-13-01T00:00") == nil)
        #expect(CivilTime(iso: "2026-11-23T24:00") == nil)
        #expect(t.adding(seconds: 61).description == "2026-11-23T18:00:01")
        #expect(t.adding(seconds: -18 * 3600).description == "2026-11-22T23:59:00")
        #expect(CivilTime(day: 0, second: -1).description == "1969-12-31T23:59:59")
    }
}

@Suite struct OpeningHoursTests {
    func hours(_ open: [String], closed: [String] = []) throws -> OpeningHours {
        var h = OpeningHours()
        for text in open { h.weekly.append(try OpeningHours.weekly(text)) }
        for d in closed { h.closedDays.insert(try #require(CivilTime(iso: d + "T00:00")).day) }
        return h
    }
    func at(_ s: String) throws -> CivilTime { try #require(CivilTime(iso: s)) }

    @Test func weekdaysAndWeekendsHaveTheirHours() throws {
        let h = try hours(["Mon-Fri 09:00-18:00", "Sat,Sun 10:00-17:00"], closed: ["2026-12-25"])
        #expect(try h.isOpen(at: at("2026-11-23T09:00")))
        #expect(try !h.isOpen(at: at("2026-11-23T08:59:59")))
        #expect(try h.isOpen(at: at("2026-11-23T17:59:59")))
        #expect(try !h.isOpen(at: at("2026-11-23T18:00")))
        #expect(try !h.isOpen(at: at("2026-11-28T09:30")), "Saturday opens at 10")
        #expect(try h.isOpen(at: at("2026-11-29T16:00")), "Sunday")
        #expect(try !h.isOpen(at: at("2026-12-25T12:00")), "a closed date")
        #expect(try h.nextChange(after: at("2026-11-23T17:59:00")) == at("2026-11-23T18:00"))
        #expect(try h.nextChange(after: at("2026-11-27T18:00")) == at("2026-11-28T10:00"), "Friday evening → Saturday")
        #expect(try h.nextChange(after: at("2026-12-24T18:00")) == at("2026-12-26T10:00"), "past the closed date")
    }

    @Test func hoursPastMidnightBelongToTheDayTheyStart() throws {
        let h = try hours(["Fri 20:00-01:00"])
        #expect(try h.isOpen(at: at("2026-11-27T23:00")))
        #expect(try h.isOpen(at: at("2026-11-28T00:30")), "Saturday small hours, after Friday")
        #expect(try !h.isOpen(at: at("2026-11-28T01:00")))
        #expect(try !h.isOpen(at: at("2026-11-27T00:30")), "Friday small hours follow Thursday")
    }

    @Test func alwaysOpenWithoutHoursAndMistakesAreNamed() throws {
        #expect(try OpeningHours().isOpen(at: at("2026-11-23T03:00")))
        #expect(try OpeningHours().nextChange(after: at("2026-11-23T03:00")) == nil)
        for bad in ["Mon-Fri", "Mon-Fry 09:00-18:00", "Mon 9:00-18:00", "Mon 09:00-09:00", "Mon 09:00-25:00", "Mon 09:60-10:00"] {
            #expect(throws: OpeningHoursError.self, "\(bad)") { try OpeningHours.weekly(bad) }
        }
        #expect(try OpeningHours.weekly("Daily 10:00-24:00").days.count == 7)
        #expect(try OpeningHours.weekly("Sat-Mon 10:00-12:00").days == [5, 6, 0])
    }
}

@Suite struct ClosedDatesWithoutHoursTests {
    @Test func closedDatesAloneCloseThoseDaysAndNoOthers() throws {
        var h = OpeningHours()
        h.closedDays = [try #require(CivilTime(iso: "2026-12-25T00:00")).day, try #require(CivilTime(iso: "2026-12-26T00:00")).day]
        #expect(!h.isAlwaysOpen)
        #expect(h.isOpen(at: try #require(CivilTime(iso: "2026-12-24T03:00"))), "empty hours mean open at every hour")
        #expect(h.isOpen(at: try #require(CivilTime(iso: "2026-12-27T00:00"))))
        #expect(!h.isOpen(at: try #require(CivilTime(iso: "2026-12-25T12:00"))))
        #expect(!h.isOpen(at: try #require(CivilTime(iso: "2026-12-26T23:59:59"))))
        #expect(h.nextChange(after: try #require(CivilTime(iso: "2026-12-24T10:00"))) == CivilTime(iso: "2026-12-25T00:00"))
        #expect(h.nextChange(after: try #require(CivilTime(iso: "2026-12-25T00:00"))) == CivilTime(iso: "2026-12-27T00:00"))
    }

    @Test func aSkippedHourOpensAtTheSkipOnAZoneOfOurOwn() throws {
        // A zone one hour east of UTC that goes to two at 2026-03-29T01:00Z, as Berlin does.
        let jump = try #require(CivilTime(iso: "2026-03-29T01:00")).secondsSince1970
        let zone = LocalTimeZone { $0 < jump ? 3600 : 7200 }
        var h = OpeningHours()
        h.weekly = [try OpeningHours.weekly("Sun 02:30-04:00")]
        let from = try #require(CivilTime(iso: "2026-03-29T00:00")).secondsSince1970
        #expect(h.nextChange(after: from, in: zone) == jump, "02:30 local does not exist: open when the clock jumps to 03:00")
        #expect(h.nextChange(after: jump, in: zone) == jump + 3600, "closed at 04:00 local")
        #expect(zone.firstInstant(reading: try #require(CivilTime(iso: "2026-03-29T02:30"))) == jump)
    }
}
