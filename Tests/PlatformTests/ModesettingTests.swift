import Glibc
import Platform
import Syscalls
import SystemFakes
import Testing

// What each modesetting path asks of the kernel. The fake card is virtio-gpu's shape:
// connector 35 on CRTC 34 with primary plane 33, property ids as `Cards.atomicProps`
// (CRTC_ID 1, MODE_ID 2, ACTIVE 3, FB_ID 4, SRC_X…H 5–8, CRTC_X…H 9–12); the fake's
// mode blob is 77; the console's framebuffer is 42.

private func virtualChoice(_ card: DRMCard) throws -> DRMOutputChoice {
    try chooseOutput(card: card, config: DRMDisplayConfiguration())
}

/// Flip events asked for, by user data.
private func recordFlipEvents(_ drm: FakeDRM) -> () -> [UInt64] {
    var asked: [UInt64] = []
    drm.onFlip = { _, userData in asked.append(userData) }
    return { asked }
}

@Suite struct AtomicModesettingTests {
    let card = Cards.virtual(width: 480, height: 800)

    func make(_ drm: FakeDRM) throws -> AtomicModesetting {
        try #require(try AtomicModesetting(drm: drm, fd: 9, choice: virtualChoice(card)))
    }

    /// The whole output in one request: connector on the CRTC, CRTC active in the mode,
    /// the plane showing `fb` whole over the whole CRTC.
    func modesetValues(fb: UInt64) -> [DRMPropertyValue] {
        [DRMPropertyValue(objectId: 35, propertyId: 1, value: 34),
         DRMPropertyValue(objectId: 34, propertyId: 2, value: 77), DRMPropertyValue(objectId: 34, propertyId: 3, value: 1),
         DRMPropertyValue(objectId: 33, propertyId: 4, value: fb), DRMPropertyValue(objectId: 33, propertyId: 1, value: 34),
         DRMPropertyValue(objectId: 33, propertyId: 5, value: 0), DRMPropertyValue(objectId: 33, propertyId: 6, value: 0),
         DRMPropertyValue(objectId: 33, propertyId: 7, value: 480 << 16), DRMPropertyValue(objectId: 33, propertyId: 8, value: 800 << 16),
         DRMPropertyValue(objectId: 33, propertyId: 9, value: 0), DRMPropertyValue(objectId: 33, propertyId: 10, value: 0),
         DRMPropertyValue(objectId: 33, propertyId: 11, value: 480), DRMPropertyValue(objectId: 33, propertyId: 12, value: 800)]
    }

    @Test func aModesetIsOneCommitOfConnectorCrtcAndPlaneWithAFlipEvent() throws {
        let drm = FakeDRM(card: card)
        let flipEvents = recordFlipEvents(drm)
        let atomic = try make(drm)
        #expect(atomic.isAtomic)
        #expect(try atomic.modeset(framebuffer: 501, userData: 2) == .awaitingFlipEvent)
        #expect(drm.atomicCommits.count == 1)
        #expect(drm.atomicCommits[0].values == modesetValues(fb: 501))
        #expect(drm.atomicCommits[0].flags == 0x0401 && drm.atomicCommits[0].userData == 2)   // ALLOW_MODESET | PAGE_FLIP_EVENT
        #expect(flipEvents() == [2])
        #expect(drm.crtcSets.isEmpty && drm.flips.isEmpty)
    }

    @Test func theTestCommitAsksTheSameWithoutChangingAnything() throws {
        let drm = FakeDRM(card: card)
        let flipEvents = recordFlipEvents(drm)
        try make(drm).test(framebuffer: 501)
        #expect(drm.atomicCommits.count == 1 && drm.atomicCommits[0].values == modesetValues(fb: 501))
        #expect(drm.atomicCommits[0].flags == 0x0500)                                        // TEST_ONLY | ALLOW_MODESET
        #expect(flipEvents().isEmpty)
    }

    @Test func aFlipCommitsThePlanesFramebufferAloneWithoutBlocking() throws {
        let drm = FakeDRM(card: card)
        let flipEvents = recordFlipEvents(drm)
        let atomic = try make(drm)
        try atomic.flip(to: 502, userData: 1)
        #expect(drm.atomicCommits.count == 1)
        #expect(drm.atomicCommits[0].values == [DRMPropertyValue(objectId: 33, propertyId: 4, value: 502)])
        #expect(drm.atomicCommits[0].flags == 0x0201 && drm.atomicCommits[0].userData == 1)   // NONBLOCK | PAGE_FLIP_EVENT
        #expect(flipEvents() == [1])
        #expect(drm.flips.isEmpty)
    }

    @Test func offIsTheCrtcInactiveAndOnWaitsForTheNextModeset() throws {
        let drm = FakeDRM(card: card)
        let atomic = try make(drm)
        try atomic.powerOff()
        #expect(drm.atomicCommits.count == 1)
        #expect(drm.atomicCommits[0].values == [DRMPropertyValue(objectId: 34, propertyId: 3, value: 0)])
        #expect(drm.atomicCommits[0].flags == 0x0400)                                        // ALLOW_MODESET, no event
        try atomic.powerOn()
        #expect(drm.atomicCommits.count == 1 && drm.connectorProperties.isEmpty)
    }

    @Test func restorePutsTheConsoleBackWithSetCrtcAndReleaseFreesTheModeBlobOnce() throws {
        let drm = FakeDRM(card: card)
        let atomic = try make(drm)
        try atomic.restore(card.crtcs[0])
        #expect(drm.crtcSets.count == 1)
        #expect(drm.crtcSets[0].crtc == 34 && drm.crtcSets[0].fb == 42 && drm.crtcSets[0].mode?.width == 480)
        #expect(drm.crtcSets[0].connectors == [35])
        #expect(drm.atomicCommits.isEmpty)
        atomic.release()
        atomic.release()
        #expect(drm.count(of: .destroyBlob) == 1)
    }

    @Test func aDriverLackingAPropertyOrAPrimaryPlaneCannotBeDrivenAtomically() throws {
        var lacking = card
        lacking.planes[0].propertyIds["SRC_W"] = nil
        let drm = FakeDRM(card: lacking)
        #expect(try AtomicModesetting(drm: drm, fd: 9, choice: virtualChoice(lacking)) == nil)
        var noPlane = try virtualChoice(card)
        noPlane.plane = nil
        #expect(try AtomicModesetting(drm: drm, fd: 9, choice: noPlane) == nil)
        #expect(drm.atomicCommits.isEmpty)
    }
}

@Suite struct LegacyModesettingTests {
    let card = Cards.virtual(width: 480, height: 800, atomic: false)

    @Test func aModesetIsSetCrtcAndTheFrameIsShownAtOnce() throws {
        let drm = FakeDRM(card: card)
        let flipEvents = recordFlipEvents(drm)
        let legacy = LegacyModesetting(drm: drm, fd: 9, choice: try virtualChoice(card))
        #expect(!legacy.isAtomic)
        #expect(try legacy.modeset(framebuffer: 501, userData: 2) == .shown)
        #expect(drm.crtcSets.count == 1)
        #expect(drm.crtcSets[0].crtc == 34 && drm.crtcSets[0].fb == 501 && drm.crtcSets[0].connectors == [35])
        #expect(drm.crtcSets[0].mode == DRMMode(width: 480, height: 800, refreshMilliHertz: 60_000, isPreferred: true))
        #expect(flipEvents().isEmpty && drm.atomicCommits.isEmpty)
    }

    @Test func aFlipIsPageFlipWithAnEvent() throws {
        let drm = FakeDRM(card: card)
        let flipEvents = recordFlipEvents(drm)
        try LegacyModesetting(drm: drm, fd: 9, choice: try virtualChoice(card)).flip(to: 502, userData: 1)
        #expect(drm.flips == [502] && flipEvents() == [1])
        #expect(drm.crtcSets.isEmpty && drm.atomicCommits.isEmpty)
    }

    @Test func powerGoesThroughDPMSWhereTheConnectorHasIt() throws {
        var withDPMS = card
        withDPMS.connectors[0].propertyIds["DPMS"] = 20
        let drm = FakeDRM(card: withDPMS)
        let legacy = LegacyModesetting(drm: drm, fd: 9, choice: try virtualChoice(withDPMS))
        try legacy.powerOff()
        try legacy.powerOn()
        #expect(drm.connectorProperties.map(\.connector) == [35, 35])
        #expect(drm.connectorProperties.map(\.property) == [20, 20])
        #expect(drm.connectorProperties.map(\.value) == [3, 0])                             // off, on
        #expect(drm.crtcSets.isEmpty)
    }

    @Test func withoutDPMSOffSwitchesTheCrtcOff() throws {
        let drm = FakeDRM(card: card)
        let legacy = LegacyModesetting(drm: drm, fd: 9, choice: try virtualChoice(card))
        try legacy.powerOff()
        #expect(drm.crtcSets.count == 1)
        #expect(drm.crtcSets[0].crtc == 34 && drm.crtcSets[0].fb == 0 && drm.crtcSets[0].mode == nil && drm.crtcSets[0].connectors.isEmpty)
        try legacy.powerOn()
        #expect(drm.crtcSets.count == 1 && drm.connectorProperties.isEmpty)
    }

    @Test func restorePutsTheConsoleBackOrSwitchesOffACrtcThatShowedNothing() throws {
        let drm = FakeDRM(card: card)
        let legacy = LegacyModesetting(drm: drm, fd: 9, choice: try virtualChoice(card))
        try legacy.restore(card.crtcs[0])
        #expect(drm.crtcSets.last?.fb == 42 && drm.crtcSets.last?.mode?.width == 480 && drm.crtcSets.last?.connectors == [35])
        try legacy.restore(DRMCrtc(id: 34))
        #expect(drm.crtcSets.last?.fb == 0 && drm.crtcSets.last?.mode == nil && drm.crtcSets.last?.connectors == [])
        legacy.release()
        #expect(drm.count(of: .destroyBlob) == 0 && drm.count(of: .removeFramebuffer) == 0 && drm.count(of: .dropMaster) == 0)
    }
}

@Suite struct ModesettingChoiceTests {
    func open(_ card: DRMCard, _ drm: FakeDRM, allowAtomic: Bool = true) throws -> (modesetting: any Modesetting, note: String?) {
        try openModesetting(drm: drm, fd: 9, card: card, choice: virtualChoice(card), allowAtomic: allowAtomic, firstFramebuffer: 501)
    }

    @Test func atomicWhenTheDriverOffersItAndTheTestCommitPasses() throws {
        let card = Cards.virtual(width: 480, height: 800), drm = FakeDRM(card: card)
        let (modesetting, note) = try open(card, drm)
        #expect(modesetting.isAtomic && note == nil)
        #expect(drm.atomicCommits.count == 1 && drm.atomicCommits[0].flags == 0x0500)
        #expect(drm.atomicCommits[0].values.contains(DRMPropertyValue(objectId: 33, propertyId: 4, value: 501)))
    }

    @Test func legacyWithoutAtomicAndSilentlySoWhenTheDriverHasNone() throws {
        let card = Cards.virtual(width: 480, height: 800, atomic: false), drm = FakeDRM(card: card)
        let (modesetting, note) = try open(card, drm)
        #expect(!modesetting.isAtomic && note == nil)
        #expect(drm.atomicCommits.isEmpty)
    }

    @Test func legacyWhenSwitchedOffWithANote() throws {
        let card = Cards.virtual(width: 480, height: 800), drm = FakeDRM(card: card)
        let (modesetting, note) = try open(card, drm, allowAtomic: false)
        #expect(!modesetting.isAtomic && note == "atomic modesetting switched off; using SetCrtc and PageFlip")
        #expect(drm.atomicCommits.isEmpty)
    }

    @Test func legacyWhenTheDriverLacksAPropertyWithANote() throws {
        var card = Cards.virtual(width: 480, height: 800)
        card.crtcs[0].propertyIds["ACTIVE"] = nil
        let drm = FakeDRM(card: card)
        let (modesetting, note) = try open(card, drm)
        #expect(!modesetting.isAtomic && note == "atomic: the driver lacks a property the commit needs; using legacy modesetting")
        #expect(drm.atomicCommits.isEmpty && drm.count(of: .createModeBlob) == 0 && drm.count(of: .destroyBlob) == 0)
    }

    @Test func aRefusedTestCommitFallsBackToLegacyWithTheReasonAndFreesTheBlob() throws {
        let card = Cards.virtual(width: 480, height: 800), drm = FakeDRM(card: card)
        drm.fail(.atomicCommit, errno: EINVAL)
        let (modesetting, note) = try open(card, drm)
        #expect(!modesetting.isAtomic)
        let refusal = SystemError(errno: EINVAL, attempt: "DRM_IOCTL_MODE_ATOMIC (TEST_ONLY)")
        #expect(note == "atomic TEST_ONLY refused (\(refusal)); using legacy modesetting")
        #expect(drm.count(of: .destroyBlob) == 1)
        // The fallback then modesets and flips the legacy way.
        #expect(try modesetting.modeset(framebuffer: 501, userData: 1) == .shown)
        try modesetting.flip(to: 502, userData: 2)
        #expect(drm.crtcSets.count == 1 && drm.flips == [502] && drm.atomicCommits.isEmpty)
    }

    @Test func aTestCommitRefusedForPermissionMeansAnotherMaster() throws {
        let card = Cards.virtual(width: 480, height: 800), drm = FakeDRM(card: card)
        for errno: Int32 in [1, 13] {                                                       // EPERM, EACCES
            drm.fail(.atomicCommit, errno: errno)
            #expect(throws: DisplaySetupError.notMaster(card: "/dev/dri/card0")) { try open(card, drm) }
        }
        #expect(drm.count(of: .destroyBlob) == 2)
    }
}
