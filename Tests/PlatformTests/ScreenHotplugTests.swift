import Geometry
import Raster
import Syscalls
import SystemFakes
import Testing
@testable import Platform

/// The screen unplugged and plugged back in while the kiosk runs (a DRM hotplug uevent
/// makes the loop ask `connectorChanged`).
@Suite struct ScreenHotplugTests {
    let red: UInt32 = 0x00FF_0000, green: UInt32 = 0x0000_FF00

    func open(_ drm: FakeDRM, _ system: FakeSystem) throws -> DumbBufferDisplay {
        system.directories["/dev/dri"] = ["card0"]
        return try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
    }
    /// The picture on the glass at (x, y): the framebuffer the CRTC was last set or flipped to.
    func glass(_ drm: FakeDRM, _ system: FakeSystem, x: Int, y: Int) -> UInt32? {
        guard let fb = drm.flips.last ?? drm.crtcSets.last?.fb, let handle = drm.framebufferHandles[fb],
              let index = drm.dumbHandles.firstIndex(of: handle) else { return nil }
        return system.mapped[index].load(fromByteOffset: y * 192 + x * 4, as: UInt32.self)
    }
    func unplug(_ drm: FakeDRM) { drm.card.connectors[0].connection = .disconnected; drm.card.connectors[0].modes = [] }

    @Test func goneThenBackWithTheSameModeShowsTheCurrentFrame() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 48, height: 80, atomic: false))
        let modes = drm.card.connectors[0].modes
        let d = try open(drm, system)
        d.backBuffer.row32(3)[2] = red
        try d.present(damage: [d.backBuffer.bounds])
        #expect(glass(drm, system, x: 2, y: 3) == red)
        #expect(d.connectorChanged() == .unchanged)

        unplug(drm)
        #expect(d.connectorChanged() == .gone)
        #expect(d.connectorChanged() == .unchanged, "said once")
        // Dark: frames drawn meanwhile go nowhere, and the loop is not asked to hurry.
        let setsBefore = drm.crtcSets.count, flipsBefore = drm.flips.count, shownBefore = d.framesShown
        d.backBuffer.row32(3)[2] = green
        try d.present(damage: [PixelRect(x: 2, y: 3, width: 1, height: 1)])
        #expect(drm.crtcSets.count == setsBefore && drm.flips.count == flipsBefore && d.framesShown == shownBefore)
        guard case .waitUntil(let t) = d.frameDecision() else { Issue.record("a frame asked for with no screen"); return }
        #expect(t > 0)

        drm.card.connectors[0].connection = .connected
        drm.card.connectors[0].modes = modes
        #expect(d.connectorChanged() == .back)
        // The loop presents the whole picture: the mode is set again with the current frame.
        try d.present(damage: [d.backBuffer.bounds])
        #expect(drm.crtcSets.count == setsBefore + 1)
        #expect(glass(drm, system, x: 2, y: 3) == green)
        d.restore()
    }

    @Test func backWithAnotherModeAsksForTheDisplayAnewAndItOpensThere() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 48, height: 80))
        let d = try open(drm, system)
        try d.present(damage: [d.backBuffer.bounds])
        unplug(drm)
        #expect(d.connectorChanged() == .gone)
        // Another screen on the same connector: a 4K television, capped as at the start.
        drm.card.connectors[0].connection = .connected
        drm.card.connectors[0].modes = [DRMMode(width: 3840, height: 2160, refreshMilliHertz: 60_000, isPreferred: true),
                                        DRMMode(width: 1920, height: 1080, refreshMilliHertz: 60_000)]
        #expect(d.connectorChanged(config: DRMDisplayConfiguration()) == .otherMode(DRMMode(width: 1920, height: 1080, refreshMilliHertz: 60_000)))
        d.restore()
        // Started again, the kiosk opens it at that mode.
        let again = try open(drm, FakeSystem())
        #expect(again.choice.mode.description == "1920x1080@60.00")
        again.restore()
    }
}
