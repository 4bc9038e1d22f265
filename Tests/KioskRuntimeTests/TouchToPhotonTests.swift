import Geometry
import KioskRuntime
import Platform
import Testing

/// From a touch's kernel time to the flip that showed the frame drawn after it.
@Suite struct TouchToPhotonTests {
    @Test func everyTouchFrameIsTimedToTheFlipThatShowedIt() throws {
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        let content = CountingContent(animatingFrames: 0)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: quietSettings())
        try frames.start(display: display)
        let screen = ScriptedTouchscreen(events: events)
        // A drag: 60 moves 16 ms apart, each read 2 ms after the kernel stamped it.
        for k in 0..<60 {
            let t = 1_000_000 + Int64(k) * 16_000
            screen.touch(k == 0 ? .down : .move, Vec2(100 + Double(k), 200), at: t, delivered: t + 2_000)
        }
        screen.touch(.up, Vec2(160, 200), at: 1_960_000, delivered: 1_962_000)
        try frames.attachInput(screen)
        let leave = try frames.loop.addTimer { frames.loop.stop() }
        try leave.arm(after: 3_000_000)
        try frames.run()

        let latency = frames.health.touchToPhoton
        #expect(latency.count == 61, "every touch frame timed")
        // At least the 2 ms read delay; at most the read, a frame to draw and two vblanks.
        let p50 = try #require(latency.percentile(0.5)), p99 = try #require(latency.percentile(0.99))
        #expect(p50 >= 2 && p50 <= 16.7 + 2, "p50 \(p50) ms")
        #expect(p99 <= 2 * 16.7 + 2, "p99 \(p99) ms")
        #expect(frames.metricsText().contains("motionkiosk_touch_to_photon_seconds_count 61"))
    }
}
