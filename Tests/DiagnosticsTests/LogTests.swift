import Testing
import Geometry
@testable import Diagnostics

final class SendableClock: Clock, @unchecked Sendable {
    var now: Microseconds = 0
}

@Suite struct LogTests {
    @Test func levelsFilter() {
        let recorder = Log.Recorder()
        let log = Log(minimum: .warning, sink: recorder.sink)
        log.debug("d"); log.info("i"); log.warning("w"); log.error("e")
        #expect(recorder.recorded == ["warning: w", "error: e"])
        log.minimum = .debug
        log.debug("d2")
        #expect(recorder.recorded.last == "debug: d2")
    }

    @Test func repeatedErrorsAreBoundedAndCounted() {
        let recorder = Log.Recorder()
        let clock = SendableClock()
        let log = Log(minimum: .info, clock: clock, sink: recorder.sink)
        // 100 failures a second for 25 s, logged at most once per 10 s.
        for i in 0..<2500 {
            clock.now = Microseconds(i) * 10_000
            log.limited(.warning, key: "iio:device0 read", interval: 10_000_000, "iio:device0: read failed: EIO")
        }
        #expect(recorder.recorded == [
            "warning: iio:device0: read failed: EIO",
            "warning: iio:device0: read failed: EIO (999 more like this held back)",
            "warning: iio:device0: read failed: EIO (999 more like this held back)",
        ])
    }

    @Test func keysAreLimitedSeparately() {
        let recorder = Log.Recorder()
        let clock = SendableClock()
        let log = Log(clock: clock, sink: recorder.sink)
        log.limited(.error, key: "a", "a failed")
        log.limited(.error, key: "b", "b failed")
        log.limited(.error, key: "a", "a failed")
        #expect(recorder.recorded == ["error: a failed", "error: b failed"])
    }

    @Test func journalPriorities() {
        #expect(LogLevel.error.syslogPriority == 3)
        #expect(LogLevel.info.syslogPriority == 6)
    }
}
