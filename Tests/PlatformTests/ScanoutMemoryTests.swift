#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Syscalls
import SystemFakes
import Testing
@testable import Platform

/// A 4K television on HDMI: preferred 3840x2160@60, and the usual smaller modes.
func televisionCard(preferred: DRMMode = DRMMode(width: 3840, height: 2160, refreshMilliHertz: 60_000, isPreferred: true)) -> DRMCard {
    let modes = [preferred,
                 DRMMode(width: 4096, height: 2160, refreshMilliHertz: 24_000),
                 DRMMode(width: 3840, height: 2160, refreshMilliHertz: 30_000),
                 DRMMode(width: 2560, height: 1440, refreshMilliHertz: 60_000),
                 DRMMode(width: 1920, height: 1200, refreshMilliHertz: 60_000),
                 DRMMode(width: 1920, height: 1080, refreshMilliHertz: 30_000),
                 DRMMode(width: 1920, height: 1080, refreshMilliHertz: 60_000),
                 DRMMode(width: 1920, height: 1080, refreshMilliHertz: 50_000),
                 DRMMode(width: 1280, height: 720, refreshMilliHertz: 60_000),
                 DRMMode(width: 640, height: 480, refreshMilliHertz: 60_000)].filter { $0 != DRMMode(width: preferred.width, height: preferred.height, refreshMilliHertz: preferred.refreshMilliHertz) }
    let hdmi = DRMConnector(id: 35, name: "HDMI-A-1", connection: .connected, modes: [preferred] + modes, encoderIds: [36],
                            currentEncoderId: 36, propertyIds: Cards.atomicProps)
    return DRMCard(path: "/dev/dri/card0", driver: "vc4", connectors: [hdmi], encoders: [DRMEncoder(id: 36, crtcId: 34, possibleCrtcs: 1)],
                   crtcs: [DRMCrtc(id: 34, propertyIds: Cards.atomicProps)],
                   planes: [DRMPlane(id: 33, possibleCrtcs: 1, formats: [Cards.xr24], kind: .primary, propertyIds: Cards.atomicProps)],
                   supportsAtomic: true)
}

@Suite struct ModeCapTests {
    @Test func a4KPreferredModeIsCappedKeepingAspectAndRefresh() throws {
        let card = televisionCard()
        let chosen = try chooseOutput(card: card, config: DRMDisplayConfiguration())
        #expect(chosen.mode.description == "1920x1080@60.00")
        // A television whose 4K is 30 Hz keeps 30 Hz.
        let slow = try chooseOutput(card: televisionCard(preferred: DRMMode(width: 3840, height: 2160, refreshMilliHertz: 30_000, isPreferred: true)),
                                    config: DRMDisplayConfiguration())
        #expect(slow.mode.description == "1920x1080@30.00")
        // A larger cap takes the larger mode of the same aspect.
        var roomy = DRMDisplayConfiguration()
        roomy.maxPixels = 2560 * 1440
        #expect(try chooseOutput(card: card, config: roomy).mode.description == "2560x1440@60.00")
        // No cap: the preferred mode.
        var none = DRMDisplayConfiguration()
        none.maxPixels = nil
        #expect(try chooseOutput(card: card, config: none).mode.description == "3840x2160@60.00")
    }

    @Test func aModeAskedForIsTakenWhateverTheCap() throws {
        var asked = DRMDisplayConfiguration(mode: "3840x2160@30")
        asked.maxPixels = 1920 * 1200
        #expect(try chooseOutput(card: televisionCard(), config: asked).mode.description == "3840x2160@30.00")
        #expect(try chooseOutput(card: televisionCard(), config: DRMDisplayConfiguration(mode: "1280x720")).mode.description == "1280x720@60.00")
    }

    @Test func withoutAModeOfItsAspectTheLargestWithinTheCapAndSmallerWithinIt() {
        let modes = [DRMMode(width: 3000, height: 2000, refreshMilliHertz: 60_000, isPreferred: true),
                     DRMMode(width: 1024, height: 768, refreshMilliHertz: 60_000), DRMMode(width: 1280, height: 720, refreshMilliHertz: 60_000)]
        #expect(chooseMode(modes, maxPixels: 1920 * 1200).description == "1280x720@60.00")
        // Every mode above the cap: the smallest.
        #expect(chooseMode(modes, maxPixels: 1000).description == "1024x768@60.00")
        #expect(smallerMode(than: modes[0], in: modes)?.description == "1280x720@60.00")
        #expect(smallerMode(than: modes[1], in: modes) == nil)
    }
}

@Suite struct ScanoutMemoryTests {
    func open(_ drm: FakeDRM, _ system: FakeSystem, buffers: Int, maxPixels: Int? = 1920 * 1200) throws -> DumbBufferDisplay {
        system.directories["/dev/dri"] = ["card0"]
        var config = DRMDisplayConfiguration(bufferCount: buffers)
        config.maxPixels = maxPixels
        return try openDRMDisplay(config: config, system: system, drm: drm, udev: nil, clock: VirtualClock())
    }

    @Test func aThirdBufferThatFailsLeavesTwoAndSaysSo() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 48, height: 80))
        drm.fail(.createDumbBuffer, nth: 3, errno: ENOMEM)
        let d = try open(drm, system, buffers: 3)
        #expect(d.scanoutBuffers == 2 && d.scanoutBuffersWanted == 3)
        #expect(d.notes.contains { $0.hasPrefix("warning: only 2 of 3 scanout buffers") })
        d.restore()
    }

    @Test func withOneBufferFramesAreCopiedIntoTheShownBufferAndKeepComing() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 48, height: 80, atomic: false))
        drm.fail(.createDumbBuffer, nth: 2, errno: ENOMEM, times: .max)
        let d = try open(drm, system, buffers: 3)
        #expect(d.scanoutBuffers == 1)
        #expect(d.notes.contains { $0.contains("only 1 of 3") && $0.contains("may tear") })
        for frame in 0..<10 {
            d.backBuffer.row32(5)[frame] = 0x00FF_FFFF
            try d.present(damage: [PixelRect(x: frame, y: 5, width: 1, height: 1)])
        }
        #expect(d.framesShown == 10 && !d.flipPending)
        #expect(drm.crtcSets.count == 1 && drm.flips.isEmpty, "the mode was set once, nothing flipped")
        // The buffer on the screen holds the latest frame (virtio-gpu's shape: portrait, unturned).
        let pitch = (48 * 4 + 63) & ~63
        #expect(system.mapped[0].load(fromByteOffset: 5 * pitch + 9 * 4, as: UInt32.self) == 0x00FF_FFFF)
        d.restore()
    }

    @Test func noMemoryForOneBufferAtTheModeTriesSmallerModes() throws {
        let system = FakeSystem(), drm = FakeDRM(card: televisionCard())
        // No memory for a buffer larger than 1280×720.
        for m in drm.card.connectors[0].modes where m.width * m.height > 1280 * 720 {
            drm.fail(.createDumbBuffer, of: "\(m.width)x\(m.height)", errno: ENOMEM, times: .max)
        }
        let d = try open(drm, system, buffers: 2, maxPixels: nil)
        #expect(d.choice.mode.description == "1280x720@60.00")
        #expect(d.notes.contains { $0.contains("3840x2160@60.00, 2560x1440@60.00, 1920x1080@60.00") })
        #expect(d.scanoutBuffers == 2)
        d.restore()
        // Nothing small enough: a plain error, not a crash.
        let drm2 = FakeDRM(card: televisionCard())
        drm2.fail(.createDumbBuffer, errno: ENOMEM, times: .max)
        #expect(throws: DisplaySetupError.self) { try open(drm2, FakeSystem(), buffers: 2) }
    }
}
