import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Raster
import Syscalls
import SystemFakes
import Testing

/// The screen unplugged and plugged back in under the running frame loop: the DRM uevent
/// reaches `ConnectorWatch`, the loop hears the change, and the presenter follows it.
@Suite struct ScreenHotplugLoopTests {
    /// Paints its own time (ms) into portrait pixel (2, 3) while it moves (until `movesUntil`),
    /// then stays at that: the pixel on the glass says which moment's picture is shown.
    final class ClockFace: FrameContent {
        let movesUntil: Microseconds
        private(set) var now: Microseconds = 0
        /// Frames that changed the picture.
        private(set) var renders = 0
        private var painted: UInt32?
        private var buffer: PixelBuffer?
        init(movesUntil: Microseconds) { self.movesUntil = movesUntil }
        func attach(to display: any Display, at time: Microseconds) { now = time; buffer = display.backBuffer }
        func advance(to time: Microseconds) { now = max(now, time) }
        func handle(_ frame: TouchFrame) {}
        func inputAdded(_ info: InputDeviceInfo) {}
        func deviceRemoved(_ device: Int, at time: Microseconds) {}
        func motion(gravity: Vec2, altitude: Double?) {}
        func shake() {}
        func key(_ command: KeyCommand) {}
        var isAnimating: Bool { now < movesUntil }
        var nextDeadline: Microseconds? { nil }
        var summaryName: String { "clock-face" }
        func render() -> [PixelRect] {
            let face = UInt32(min(now, movesUntil) / 1000)
            guard let buffer, face != painted else { return [] }
            painted = face
            renders += 1
            buffer.row32(3)[2] = face
            return [PixelRect(x: 2, y: 3, width: 1, height: 1)]
        }
    }

    /// The picture changes while the screen is away (moves until 3 s), or it does not (0.3 s):
    /// either way the screen comes back with the picture as it is then.
    @Test(arguments: [3_000_000, 300_000] as [Microseconds])
    func aScreenGoneKeepsTheLoopDarkAndQuietAndBackItShowsTheCurrentFrame(movesUntil: Microseconds) throws {
        let events = VirtualEvents()
        let system = FakeSystem()
        system.events = events
        let drm = FakeDRM(card: Cards.virtual(width: 48, height: 80, atomic: false))
        drm.onFlip = { fd, data in system.queueFlipEvent(fd: fd, userData: data, vblank: (events.now / 16_667 + 1) * 16_667) }
        system.directories["/dev/dri"] = ["card0"]
        let display = try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil,
                                         clock: MonotonicClock(events: events))
        let modes = drm.card.connectors[0].modes
        // The screen is away from 0.5 s to 5.5 s.
        let content = ClockFace(movesUntil: movesUntil)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: content, settings: quietSettings())
        let udev = FakeUdev(events: events)
        let uevent = UdevDevice(syspath: "/sys/card0", sysname: "card0", subsystem: "drm", devnode: "/dev/dri/card0",
                                action: "change", properties: ["HOTPLUG": "1"])
        try frames.start(display: display)
        let watch = try ConnectorWatch(udev: udev, loop: frames.loop, display: display, config: DRMDisplayConfiguration()) {
            frames.displayConnectorChanged($0)
        }

        var atUnplug = (renders: 0, wakeups: 0), beforeReplug = (renders: 0, wakeups: 0), setsBeforeReplug = 0
        let unplug = try frames.loop.addTimer {
            atUnplug = (content.renders, frames.loop.wakeups)
            drm.card.connectors[0].connection = .disconnected
            drm.card.connectors[0].modes = []
            udev.monitor!.push(uevent)
        }
        let replug = try frames.loop.addTimer {
            beforeReplug = (content.renders, frames.loop.wakeups)
            setsBeforeReplug = drm.crtcSets.count
            #expect(!display.connectorPresent)
            #expect(frames.metricsText().contains("motionkiosk_display_screen_lost_total 1"))
            drm.card.connectors[0].connection = .connected
            drm.card.connectors[0].modes = modes
            udev.monitor!.push(uevent)
        }
        // The glass before the display is given back (that sets the console's CRTC again).
        var setsAtEnd = 0, shown: UInt32?
        let stop = try frames.loop.addTimer {
            setsAtEnd = drm.crtcSets.count
            if let fb = drm.crtcSets.last?.fb, let handle = drm.framebufferHandles[fb], let index = drm.dumbHandles.firstIndex(of: handle) {
                shown = system.mapped[index].load(fromByteOffset: 3 * 192 + 2 * 4, as: UInt32.self)
            }
            frames.loop.stop()
        }
        try unplug.arm(after: 500_000)
        try replug.arm(after: 5_500_000)
        try stop.arm(after: 5_550_000)   // at once, not at the dark loop's next look a second later
        try frames.run()
        _ = watch

        #expect(atUnplug.renders > 10, "frames went out before")
        // Dark: nothing drawn while the content moved on for 2.5 s, and about one wake-up a
        // second rather than one a frame.
        #expect(beforeReplug.renders == atUnplug.renders + 1 || beforeReplug.renders == atUnplug.renders,
                "\(atUnplug.renders) → \(beforeReplug.renders)")
        #expect(beforeReplug.wakeups - atUnplug.wakeups <= 8, "\(beforeReplug.wakeups - atUnplug.wakeups) wake-ups in 5 s dark")
        // Back: the mode is set again with the picture as it is now (drawn once), not the one
        // from before the screen went.
        #expect(setsAtEnd == setsBeforeReplug + 1)
        let glass = try #require(shown, "the glass shows one of the kiosk's buffers")
        #expect(glass == UInt32(movesUntil / 1000), "the glass shows the picture of \(glass) ms")
        #expect(content.renders == beforeReplug.renders + (movesUntil > 500_000 ? 1 : 0))
    }
}
