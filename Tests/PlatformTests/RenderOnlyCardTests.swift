#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Syscalls
import SystemFakes
import Testing
@testable import Platform

/// A Pi 4/5 at boot: the render-only v3d card (card0) is there before the display card.
@Suite struct RenderOnlyCardTests {
    @Test func aRenderOnlyCardAloneMeansWaitAndTheDisplayCardIsTakenWhenItComes() throws {
        let events = VirtualEvents(), udev = FakeUdev(events: events), loop = try EventLoop(events: events)
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        let drm = FakeDRM(card: Cards.virtual(width: 48, height: 80))
        drm.fail(.readCard, of: "/dev/dri/card0", errno: EOPNOTSUPP, times: .max)
        let open = { () throws(DisplaySetupError) -> DumbBufferDisplay in
            try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
        }
        var first: DisplaySetupError?
        do { _ = try open() } catch { first = error }
        let error = try #require(first)
        #expect(isWaitingForHotplug(error), "\(error)")
        #expect(error.description.contains("render-only"))
        // A card with no connectors at all is the same.
        drm.stopFailing(.readCard)
        drm.cardsByPath["/dev/dri/card0"] = DRMCard(path: "/dev/dri/card0", driver: "v3d", connectors: [], encoders: [], crtcs: [],
                                                    planes: [], supportsAtomic: false)
        do { _ = try open(); Issue.record("opened a render-only card") } catch { #expect(isWaitingForHotplug(error)) }

        var shown: DumbBufferDisplay?
        let wait = try DRMHotplugWait(udev: udev, loop: loop, open: open, ready: { shown = $0; loop.stop() },
                                      failed: { Issue.record("gave up: \($0)"); loop.stop() })
        let appear = try loop.addTimer {
            system.directories["/dev/dri"] = ["card0", "card1"]
            udev.monitor!.push(UdevDevice(syspath: "/sys/card1", sysname: "card1", subsystem: "drm", devnode: "/dev/dri/card1",
                                          action: "add", properties: [:]))
        }
        try appear.arm(after: 1_000)
        try loop.run()
        _ = wait
        #expect(shown?.cardPath == "/dev/dri/card1")
        shown?.restore()
    }
}
