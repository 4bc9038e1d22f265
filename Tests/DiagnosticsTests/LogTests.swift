import Testing
import Geometry
@testable import Diagnostics

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
        let clock = VirtualClock()
        let limited = RateLimitedLog(log: Log(minimum: .info, sink: recorder.sink), level: .warning, clock: clock, interval: 10_000_000)
        // 100 failures a second for 25 s, logged at most once per 10 s.
        for i in 0..<2500 {
            clock.set(Microseconds(i) * 10_000)
            limited.log("iio:device0 read", "iio:device0: read failed: EIO")
        }
        #expect(recorder.recorded == [
            "warning: iio:device0: read failed: EIO",
            "warning: iio:device0: read failed: EIO (999 more like this since the last report)",
            "warning: iio:device0: read failed: EIO (999 more like this since the last report)",
        ])
    }

    @Test func keysAreLimitedSeparatelyAndLevelsFilter() {
        let recorder = Log.Recorder()
        let clock = VirtualClock()
        let limited = RateLimitedLog(log: Log(minimum: .error, sink: recorder.sink), level: .error, clock: clock)
        limited.log("a", "a failed")
        limited.log("b", "b failed")
        limited.log("a", "a failed")
        #expect(recorder.recorded == ["error: a failed", "error: b failed"])
        let quiet = RateLimitedLog(log: Log(minimum: .error, sink: recorder.sink), level: .warning, clock: clock)
        quiet.log("c", "c failed")
        #expect(recorder.recorded.count == 2)
    }

    @Test func journalPriorities() {
        #expect(LogLevel.error.syslogPriority == 3)
        #expect(LogLevel.info.syslogPriority == 6)
    }
}
