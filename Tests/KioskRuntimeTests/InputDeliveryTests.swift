import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Syscalls
import Testing

/// Input reaches the content once per wake-up, whatever else woke the loop.
@Suite struct InputDeliveryTests {
    /// A touchscreen that counts how often the loop drained it.
    final class CountingTouchscreen: InputEventSource {
        let screen: ScriptedTouchscreen
        var reads = 0
        init(_ screen: ScriptedTouchscreen) { self.screen = screen }
        var fd: Int32 { screen.fd }
        var deniedDevices: [String] { screen.deniedDevices }
        func readEvents(panelWidth: Int, panelHeight: Int) -> [RawInputEvent] {
            reads += 1
            return screen.readEvents(panelWidth: panelWidth, panelHeight: panelHeight)
        }
    }

    @Test func theTouchscreenIsDrainedOnceWhenItHasSomethingAndNotOnOtherWakeUps() throws {
        let events = VirtualEvents()
        // Content that animates for a second: some sixty wake-ups with nothing to read.
        let content = CountingContent(animatingFrames: 60)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: quietSettings())
        try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
        let scripted = ScriptedTouchscreen(events: events)
        let p = Vec2(100, 100)
        for (i, t) in [200_000, 260_000, 600_000, 660_000].enumerated() { scripted.touch(i % 2 == 0 ? .down : .up, p, at: Microseconds(t)) }
        let screen = CountingTouchscreen(scripted)
        try frames.attachInput(screen)
        try frames.run()
        #expect(frames.touchesSeen == 2)
        #expect(frames.loop.wakeups > 30)
        // Once as it was attached (the devices already there), then once per batch.
        #expect(screen.reads == 1 + 4, "\(screen.reads) reads in \(frames.loop.wakeups) wake-ups")
    }
}
