import Geometry
import Glibc
import Raster
import Syscalls
import SystemFakes
import Testing
@testable import Platform

/// A Pi-like card: one CRTC (61) showing the console, a portrait 48x80 DSI panel, a
/// primary plane (72) the console left turned 180° and half transparent, an overlay (71)
/// another program left on, and a cursor plane (73) that is off.
func leftoverCard(rotations: [String: UInt64] = ["rotate-0": 1, "rotate-180": 4, "reflect-x": 16, "reflect-y": 32],
                  atomic: Bool = true) -> DRMCard {
    var props = Cards.atomicProps
    props["rotation"] = 20; props["alpha"] = 21; props["pixel blend mode"] = 22; props["zpos"] = 23
    let mode = DRMMode(width: 48, height: 80, refreshMilliHertz: 60_000, isPreferred: true)
    let dsi = DRMConnector(id: 41, name: "DSI-1", connection: .connected, modes: [mode], encoderIds: [51], currentEncoderId: 51,
                           propertyIds: Cards.atomicProps)
    let primary = DRMPlane(id: 72, possibleCrtcs: 1, formats: [Cards.xr24], kind: .primary, propertyIds: props,
                           values: ["rotation": 4, "FB_ID": 90, "CRTC_ID": 61, "alpha": 0x8000, "pixel blend mode": 1, "zpos": 3],
                           options: ["rotation": rotations, "pixel blend mode": ["None": 2, "Pre-multiplied": 0, "Coverage": 1]],
                           ranges: ["alpha": 0...0xFFFF, "zpos": 0...5])
    let overlay = DRMPlane(id: 71, possibleCrtcs: 1, formats: [Cards.xr24], kind: .overlay, propertyIds: Cards.atomicProps,
                           values: ["FB_ID": 55, "CRTC_ID": 61])
    let cursor = DRMPlane(id: 73, possibleCrtcs: 1, formats: [Cards.xr24], kind: .cursor, propertyIds: Cards.atomicProps,
                          values: ["FB_ID": 0, "CRTC_ID": 0])
    return DRMCard(path: "/dev/dri/card1", driver: "vc4", connectors: [dsi], encoders: [DRMEncoder(id: 51, crtcId: 61, possibleCrtcs: 1)],
                   crtcs: [DRMCrtc(id: 61, bufferId: 90, mode: mode, propertyIds: Cards.atomicProps)],
                   planes: [overlay, primary, cursor], supportsAtomic: atomic)
}

/// What the glass shows at panel pixel (x, y): the primary plane's framebuffer as the plane
/// turns it, or nil when another plane still covers the CRTC.
func glassPixel(_ drm: FakeDRM, _ system: FakeSystem, x: Int, y: Int, width: Int = 48, height: Int = 80) -> UInt32? {
    if let overlayFB = drm.planeValue(71, "FB_ID"), overlayFB != 0 { return nil }
    let fb: UInt32
    if drm.card.supportsAtomic {
        guard let v = drm.planeValue(72, "FB_ID") else { return nil }
        fb = UInt32(v)
    } else {
        guard let last = drm.crtcSets.last else { return nil }
        fb = last.fb
    }
    guard let handle = drm.framebufferHandles[fb], let index = drm.dumbHandles.firstIndex(of: handle) else { return nil }
    let rotation = drm.planeValue(72, "rotation") ?? 1
    var sx = x, sy = y
    if rotation & 4 != 0 { sx = width - 1 - sx; sy = height - 1 - sy }
    if rotation & 16 != 0 { sx = width - 1 - sx }
    if rotation & 32 != 0 { sy = height - 1 - sy }
    let pitch = (width * 4 + 63) & ~63
    return system.mapped[index].load(fromByteOffset: sy * pitch + sx * 4, as: UInt32.self)
}

@Suite struct PlaneStateTests {
    let red: UInt32 = 0x00FF_0000

    func open(_ drm: FakeDRM, _ system: FakeSystem, rotation: OrientationSetting) throws -> DumbBufferDisplay {
        system.directories["/dev/dri"] = ["card1"]
        let d = try openDRMDisplay(config: DRMDisplayConfiguration(orientation: rotation, bufferCount: 2), system: system,
                                   drm: drm, udev: nil, clock: VirtualClock())
        // One red pixel at the portrait picture's (2, 3).
        d.backBuffer.row32(3)[2] = red
        try d.present(damage: [d.backBuffer.bounds])
        return d
    }

    @Test func aPlaneLeftTurnedAndAnOverlayLeftOnGiveAnUprightPicture() throws {
        for atomic in [true, false] {
            let system = FakeSystem(), drm = FakeDRM(card: leftoverCard(atomic: atomic))
            let d = try open(drm, system, rotation: .auto)
            #expect(d.screen.rotation == .r0)
            #expect(glassPixel(drm, system, x: 2, y: 3) == red, "atomic \(atomic): the picture's pixel at its place on the glass")
            #expect(drm.planeValue(72, "rotation") == 1, "ROTATE_0")
            #expect(drm.planeValue(72, "alpha") == 0xFFFF && drm.planeValue(72, "pixel blend mode") == 0 && drm.planeValue(72, "zpos") == 0)
            #expect(drm.planeValue(71, "FB_ID") == 0 && drm.planeValue(71, "CRTC_ID") == 0, "the overlay is off")
            #expect(drm.planeValue(73, "FB_ID") == 0)
            d.restore()
            // Leaving gives the console its plane as it was: turned 180°, half transparent.
            #expect(drm.planeValue(72, "rotation") == 4 && drm.planeValue(72, "alpha") == 0x8000 && drm.planeValue(72, "zpos") == 3)
        }
    }

    @Test func theHardwareTurnsThePictureWhenThePlaneOffers180() throws {
        for atomic in [true, false] {
            let system = FakeSystem(), drm = FakeDRM(card: leftoverCard(atomic: atomic))
            let d = try open(drm, system, rotation: .fixed(.r180))
            #expect(d.planeTurnsPicture, "atomic \(atomic)")
            #expect(drm.planeValue(72, "rotation") == 4, "ROTATE_180")
            // Upright in the buffer (no software turn), upside down on the glass.
            #expect(glassPixel(drm, system, x: 47 - 2, y: 79 - 3) == red)
            let handle = drm.framebufferHandles[UInt32(drm.planeValue(72, "FB_ID") ?? 0)] ?? drm.framebufferHandles[drm.crtcSets.last?.fb ?? 0]
            let index = try #require(drm.dumbHandles.firstIndex { $0 == handle })
            #expect(system.mapped[index].load(fromByteOffset: 3 * 192 + 2 * 4, as: UInt32.self) == red)
            // Touch keeps the stand's turn.
            #expect(d.screen.rotation == .r180)
            d.restore()
        }
    }

    @Test func bothReflectionsServeAsA180AndNoOfferMeansSoftware() throws {
        let system = FakeSystem(), drm = FakeDRM(card: leftoverCard(rotations: ["rotate-0": 1, "reflect-x": 16, "reflect-y": 32]))
        let d = try open(drm, system, rotation: .fixed(.r180))
        #expect(d.planeTurnsPicture && drm.planeValue(72, "rotation") == 1 | 16 | 32)
        #expect(glassPixel(drm, system, x: 45, y: 76) == red)
        d.restore()

        let system2 = FakeSystem(), drm2 = FakeDRM(card: leftoverCard(rotations: ["rotate-0": 1]))
        let d2 = try open(drm2, system2, rotation: .fixed(.r180))
        #expect(!d2.planeTurnsPicture && drm2.planeValue(72, "rotation") == 1)
        #expect(glassPixel(drm2, system2, x: 45, y: 76) == red, "turned in software")
        d2.restore()
    }

    /// Legacy modesetting: an overlay the kernel will not take off, and a property it will
    /// not set, are said when the display opens (the picture may be covered), not passed over.
    @Test func aLeftoverPlaneThatCannotBeTakenOffIsSaid() throws {
        let system = FakeSystem(), drm = FakeDRM(card: leftoverCard(atomic: false))
        drm.fail(.disablePlane, of: "plane 71", errno: EACCES, times: .max)
        drm.fail(.setPlaneProperty, of: " 21=", errno: EINVAL, times: .max)
        let d = try open(drm, system, rotation: .auto)
        #expect(d.notes.contains { $0.contains("plane 71") && $0.contains("could not be taken off") }, "\(d.notes)")
        #expect(d.notes.contains { $0.contains("plane 72 kept its property 21") }, "\(d.notes)")
        #expect(d.notes.filter { $0.contains("plane 71") }.count == 1, "said once")
        d.restore()
    }

    @Test func aKernelRefusingTheTurnFallsBackToSoftwareWithANote() throws {
        let system = FakeSystem(), drm = FakeDRM(card: leftoverCard())
        // Every request that turns plane 72 (rotation, property 20) to 180° (4) is refused.
        drm.fail(.atomicCommit, of: " 72.20=4;", errno: EINVAL, times: .max)
        let d = try open(drm, system, rotation: .fixed(.r180))
        #expect(d.usesAtomic && !d.planeTurnsPicture)
        #expect(d.notes.contains { $0.contains("turning it in software") })
        #expect(glassPixel(drm, system, x: 45, y: 76) == red)
        d.restore()

        let system2 = FakeSystem(), drm2 = FakeDRM(card: leftoverCard(atomic: false))
        drm2.fail(.setPlaneProperty, of: " 20=4;", errno: EINVAL, times: .max)
        let d2 = try open(drm2, system2, rotation: .fixed(.r180))
        #expect(!d2.usesAtomic && !d2.planeTurnsPicture)
        #expect(glassPixel(drm2, system2, x: 45, y: 76) == red)
        d2.restore()
    }
}
