import Geometry
import Testing
import Trace

/// A black-box trace's starting point survives the header line exactly, and a bad one is
/// refused with its line.
@Suite struct TraceHeaderResumeTests {
    @Test func aResumePointRoundTripsBitForBit() throws {
        var header = TraceHeader()
        header.exhibit = "launcher"
        header.seed = 0xFEDC_BA98_7654_3210
        var r = TraceResumePoint()
        r.elapsed = 86_400_000_123
        r.idleFor = 10_000_017
        r.attract = "tilt-box"
        r.language = "ja"
        r.tiltReference = Vec2(-0.1 / 3, 1.0 / 3)
        r.appGravity = Vec2(0.012345678901234567, 0.9999)
        r.filteredGravity = .init(0.1 + 0.2, -9.806649999999999, 1e-300)
        r.filteredGravityTime = -9_990
        r.repeatedReading = .init(-0.0, 9.81, 0.5)
        r.repeatedSince = -4_000_000
        r.shakeQuietUntil = 250_000
        header.resuming = r
        let (read, records) = try TraceReader.trace(in: header.line + "\n")
        #expect(records.isEmpty)
        #expect(read == header)
        #expect(read.resuming?.filteredGravity?.x == 0.1 + 0.2)
        #expect(read.seed == 0xFEDC_BA98_7654_3210)
    }

    @Test func aFreshHeaderHasNone() throws {
        var header = TraceHeader()
        header.exhibit = "launcher"
        #expect(!header.line.contains("resume_"))
        #expect(try TraceReader.trace(in: header.line + "\n").header.resuming == nil)
    }

    @Test func badResumeFieldsNameTheirLine() {
        let base = #"{"trace":"motionkiosk","version":1,"resume_elapsed_us":5,"resume_language":"en""#
        for bad in [#","resume_idle_us":-1}"#, #","resume_gx":1e400}"#, #","resume_gx":1,"resume_gy":"x"}"#,
                    #","resume_gravity_us":1e30}"#, #","resume_tilt_x":1}"#] {
            #expect(throws: TraceError.self, "\(bad)") { _ = try TraceReader.trace(in: base + bad + "\n") }
        }
        #expect(throws: TraceError.self) { _ = try TraceReader.trace(in: #"{"trace":"motionkiosk","version":1,"resume_elapsed_us":-5,"resume_language":"en"}"# + "\n") }
        #expect(throws: TraceError.self) { _ = try TraceReader.trace(in: #"{"trace":"motionkiosk","version":1,"resume_elapsed_us":5}"# + "\n") }
    }
}
