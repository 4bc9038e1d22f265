import Glibc
import SystemFakes
import Testing
import Geometry
import Raster
import Syscalls
@testable import Platform

@Suite struct BufferDamageTests {
    let screen = PixelRect(x: 0, y: 0, width: 100, height: 200)

    @Test func freshBuffersOweTheWholeScreen() {
        var d = BufferDamage(bufferCount: 3, bounds: screen)
        #expect(d.take(for: 0) == [screen])
        #expect(d.take(for: 0) == [])
        #expect(d.outstanding[1] == [screen] && d.outstanding[2] == [screen])
    }

    @Test func aBufferThatSatOutCatchesUpOnEveryFrame() {
        var d = BufferDamage(bufferCount: 2, bounds: screen)
        _ = d.take(for: 0); _ = d.take(for: 1)
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 50, y: 50, width: 10, height: 10)
        d.record([a])
        #expect(d.take(for: 0) == [a])          // frame 1 into buffer 0
        d.record([b])
        #expect(d.take(for: 1) == [a, b])       // frame 2 into buffer 1: it missed frame 1
        d.record([])
        #expect(d.take(for: 0) == [b])          // buffer 0 only missed frame 2
    }

    @Test func clipsDropsContainedAndMergesBeyondTheLimit() {
        var d = BufferDamage(bufferCount: 1, bounds: screen, mergeBeyond: 3)
        _ = d.take(for: 0)
        d.record([PixelRect(x: -5, y: -5, width: 10, height: 10), PixelRect(x: 500, y: 0, width: 5, height: 5)])
        #expect(d.outstanding[0] == [PixelRect(x: 0, y: 0, width: 5, height: 5)])
        d.record([PixelRect(x: 1, y: 1, width: 2, height: 2)])            // inside: nothing new
        d.record([PixelRect(x: 0, y: 0, width: 20, height: 20)])          // covers the first: replaces it
        #expect(d.outstanding[0] == [PixelRect(x: 0, y: 0, width: 20, height: 20)])
        d.record([PixelRect(x: 30, y: 0, width: 1, height: 1), PixelRect(x: 40, y: 0, width: 1, height: 1),
                  PixelRect(x: 0, y: 90, width: 1, height: 1)])
        #expect(d.outstanding[0] == [PixelRect(x: 0, y: 0, width: 41, height: 91)])
    }
}

@Suite struct FramePacingTests {
    @Test func neverTwoFlipsInFlightAndNeverFasterThanTheMode() {
        var p = FramePacing(refreshMilliHertz: 50_000)
        #expect(p.minimumInterval == 20_000)
        #expect(p.decide(now: 0) == .submitNow)
        p.submitted(at: 1_000)
        #expect(p.decide(now: 1_500) == .waitForFlip(giveUpAt: 1_000 + FramePacing.flipTimeout))
        // virtio-gpu: the flip completes at once, yet the next frame waits for the period.
        p.flipCompleted()
        #expect(p.decide(now: 1_600) == .waitUntil(21_000))
        #expect(p.decide(now: 21_000) == .submitNow)
        p.submitted(at: 30_000, awaitingFlip: false)
        #expect(p.decide(now: 60_000) == .submitNow)
    }
}

@Suite struct LostFlipPacingTests {
    @Test func aFlipWhoseEventNeverComesIsOverdueAfterTheTimeoutOnly() {
        var p = FramePacing(refreshMilliHertz: 60_000)
        p.submitted(at: 5_000)
        #expect(!p.flipOverdue(now: 5_000 + FramePacing.flipTimeout - 1))
        #expect(p.flipOverdue(now: 5_000 + FramePacing.flipTimeout))
        p.flipLost()
        #expect(!p.flipOverdue(now: 5_000 + FramePacing.flipTimeout))
        // Nothing to wait for any more: the next frame may go out at once.
        #expect(p.decide(now: 5_000 + FramePacing.flipTimeout) == .submitNow)
    }

    @Test func aCompletedFlipIsNeverOverdue() {
        var p = FramePacing(refreshMilliHertz: 60_000)
        p.submitted(at: 0)
        p.flipCompleted(at: 16_000)
        #expect(!p.flipOverdue(now: 10 * FramePacing.flipTimeout))
    }
}

@Suite struct DRMEventTests {
    @Test func readsFlipEventsAndSkipsOthers() {
        let system = FakeSystem()
        system.queueFlipEvent(fd: 3, userData: 0x1_0000_0002)
        var bytes = [UInt8](repeating: 0, count: 8)
        bytes[0] = 1; bytes[4] = 8                      // a vblank-sized header of another type
        bytes += system.readQueue[3]![0]
        bytes += [2, 0, 0, 0, 32, 0]                    // a torn tail
        let events = bytes.withUnsafeBytes { parseDRMEvents($0) }
        #expect(events == [DRMFlipEvent(userData: 0x1_0000_0002, seconds: 7, microseconds: 500, sequence: 1, crtcId: 31)])
    }
}

@Suite struct DumbBufferDisplayTests {
    func open(_ card: DRMCard, system: FakeSystem, drm: FakeDRM, rotation: OrientationSetting = .auto, buffers: Int = 2) throws -> DumbBufferDisplay {
        system.directories["/dev/dri"] = ["card0"]
        return try openDRMDisplay(config: DRMDisplayConfiguration(orientation: rotation, bufferCount: buffers), system: system,
                                  drm: drm, udev: nil, clock: VirtualClock())
    }

    func scanoutPixel(_ system: FakeSystem, buffer: Int, x: Int, y: Int, pitch: Int) -> UInt32 {
        system.mapped[buffer].load(fromByteOffset: y * pitch + x * 4, as: UInt32.self)
    }

    @Test func atomicModesetIsTestedFirstThenCommittedWithAnEvent() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        let d = try open(drm.card, system: system, drm: drm)
        #expect(d.usesAtomic)
        #expect(drm.atomicCommits.count == 1 && drm.atomicCommits[0].flags == 0x0500)     // TEST_ONLY | ALLOW_MODESET
        try d.present(damage: [d.backBuffer.bounds])
        #expect(drm.atomicCommits[1].flags == 0x0401)                                     // ALLOW_MODESET | PAGE_FLIP_EVENT
        #expect(drm.atomicCommits[1].values.contains(DRMPropertyValue(objectId: 34, propertyId: 2, value: 77)))   // MODE_ID blob
        #expect(d.flipPending && d.framesShown == 0)
        system.queueFlipEvent(fd: d.fd, userData: 1)
        #expect(try d.readFlipEvents() == 1)
        #expect(!d.flipPending && d.framesShown == 1)
        try d.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(drm.atomicCommits[2].flags == 0x0201 && drm.atomicCommits[2].values.count == 1)  // NONBLOCK | PAGE_FLIP_EVENT, FB_ID
    }

    @Test func refusedTestOnlyFallsBackToLegacyAndSaysSo() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        drm.fail(.atomicCommit, errno: EINVAL)
        let d = try open(drm.card, system: system, drm: drm)
        #expect(!d.usesAtomic)
        #expect(d.notes.contains { $0.contains("TEST_ONLY refused") })
        try d.present(damage: [d.backBuffer.bounds])
        #expect(drm.crtcSets.count == 1 && drm.crtcSets[0].crtc == 34 && drm.crtcSets[0].mode?.width == 480)
        #expect(d.framesShown == 1 && !d.flipPending)          // SetCrtc shows the frame synchronously
        try d.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(drm.flips.count == 1 && d.flipPending)
    }

    @Test func aCardThatRefusesTheAtomicTestForPermissionIsClosedOnceAndLeftClean() {
        // No master after all (another program took the card between SetMaster and the
        // test commit): what the display made is freed and the card closed exactly once.
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32))
        drm.fail(.atomicCommit, errno: EACCES)
        system.directories["/dev/dri"] = ["card0"]
        #expect(throws: DisplaySetupError.notMaster(card: "/dev/dri/card0")) {
            try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
        }
        #expect(system.closed.count == 1)
        #expect(system.unmapped == 2 && drm.count(of: .removeFramebuffer) == 2 && drm.count(of: .destroyDumbBuffer) == 2)
        #expect(drm.count(of: .destroyBlob) == 1)
    }

    @Test func eachBufferReceivesWhatItMissed() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 64, height: 64, atomic: false))
        let d = try open(drm.card, system: system, drm: drm)
        let pitch = 256
        func paint(_ r: PixelRect, _ c: UInt32) {
            for y in r.y..<r.maxY { for x in r.x..<r.maxX { d.backBuffer.row32(y)[x] = c } }
        }
        paint(d.backBuffer.bounds, 0x111111)
        try d.present(damage: [d.backBuffer.bounds])                   // buffer 0, whole screen, SetCrtc
        let a = PixelRect(x: 0, y: 0, width: 8, height: 8)
        paint(a, 0xAA0000)
        try d.present(damage: [a])                                     // buffer 1: owes the whole screen
        #expect(scanoutPixel(system, buffer: 1, x: 3, y: 3, pitch: pitch) == 0xAA0000)
        #expect(scanoutPixel(system, buffer: 1, x: 40, y: 40, pitch: pitch) == 0x111111)
        system.queueFlipEvent(fd: d.fd, userData: 2)
        try d.readFlipEvents()
        let b = PixelRect(x: 32, y: 32, width: 4, height: 4)
        paint(b, 0x00BB00)
        try d.present(damage: [b])                                     // buffer 0: owes a and b
        #expect(scanoutPixel(system, buffer: 0, x: 3, y: 3, pitch: pitch) == 0xAA0000)
        #expect(scanoutPixel(system, buffer: 0, x: 33, y: 33, pitch: pitch) == 0x00BB00)
        // Only owed rectangles are written: a pixel outside them keeps what the buffer had.
        system.mapped[0].storeBytes(of: 0xDEAD, toByteOffset: 50 * pitch + 50 * 4, as: UInt32.self)
        system.queueFlipEvent(fd: d.fd, userData: 1)
        try d.readFlipEvents()
        try d.present(damage: [PixelRect(x: 60, y: 60, width: 1, height: 1)])
        system.queueFlipEvent(fd: d.fd, userData: 2)
        try d.readFlipEvents()
        try d.present(damage: [PixelRect(x: 61, y: 61, width: 1, height: 1)])
        #expect(scanoutPixel(system, buffer: 0, x: 50, y: 50, pitch: pitch) == 0xDEAD)
    }

    @Test func aLostFlipIsGivenUpAndTheModeSetAgain() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32, atomic: false))
        let clock = VirtualClock()
        system.directories["/dev/dri"] = ["card0"]
        let d = try openDRMDisplay(config: DRMDisplayConfiguration(orientation: .auto, bufferCount: 2), system: system,
                                   drm: drm, udev: nil, clock: clock)
        try d.present(damage: [d.backBuffer.bounds])                  // SetCrtc: shown at once
        clock.advance(by: 20_000)
        try d.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(drm.flips.count == 1 && d.flipPending)
        // Its event never comes: the loop waits, and a second before giving up it still waits.
        clock.advance(by: FramePacing.flipTimeout - 1)
        guard case .waitForFlip(let giveUpAt) = d.frameDecision() else { Issue.record("not waiting for the flip"); return }
        #expect(giveUpAt == clock.now + 1 && d.flipsLost == 0)
        clock.advance(by: 1)
        #expect(d.frameDecision() == .submitNow)
        #expect(d.flipsLost == 1 && !d.flipPending && d.framesShown == 1)
        // The next frame sets the mode again (synchronously, here), into the other buffer.
        try d.present(damage: [PixelRect(x: 1, y: 1, width: 1, height: 1)])
        #expect(drm.crtcSets.count == 2 && drm.crtcSets[1].fb != drm.flips[0])
        #expect(d.framesShown == 2 && !d.flipPending)
        // Afterwards flips go on as before.
        clock.advance(by: 20_000)
        try d.present(damage: [PixelRect(x: 2, y: 2, width: 1, height: 1)])
        #expect(drm.flips.count == 2 && d.flipPending)
    }

    @Test func waitingForALostFlipEndsWithTheTimeout() throws {
        // Two buffers, one shown and one on its way: no buffer is free, and `present` waits.
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32, atomic: false))
        let d = try open(drm.card, system: system, drm: drm, buffers: 2)
        try d.present(damage: [d.backBuffer.bounds])
        try d.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(d.flipPending)
        // No event will come: the wait gives the flip up instead of blocking for ever.
        try d.present(damage: [PixelRect(x: 1, y: 1, width: 1, height: 1)])
        #expect(d.flipsLost == 1 && drm.crtcSets.count == 2)
        d.restore()
        #expect(drm.crtcSets.last?.fb == 42)                          // the console's setup is back
    }

    @Test func closingTimeDarkensTheDisplayEvenWhenItsLastFlipWasLost() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32, atomic: false))
        let d = try open(drm.card, system: system, drm: drm)
        try d.present(damage: [d.backBuffer.bounds])
        try d.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        try d.setPower(false)                                         // its flip's event never comes
        #expect(d.flipsLost == 1 && !d.isPoweredOn)
        #expect(drm.crtcSets.last?.fb == 0)                           // switched off (no DPMS here)
    }

    @Test func atomicClosingTimeMakesTheCrtcInactiveAndTheNextFrameModesetsAgain() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32))
        let d = try open(drm.card, system: system, drm: drm)
        try d.setPower(false)                                         // nothing of ours shown yet: nothing to darken
        try d.setPower(true)
        #expect(drm.atomicCommits.count == 1)                         // the TEST_ONLY at set-up
        try d.present(damage: [d.backBuffer.bounds])
        system.queueFlipEvent(fd: d.fd, userData: 1)
        try d.readFlipEvents()
        try d.setPower(false)
        #expect(drm.atomicCommits.last?.values == [DRMPropertyValue(objectId: 34, propertyId: 3, value: 0)])
        #expect(drm.atomicCommits.last?.flags == 0x0400 && !d.isPoweredOn)
        try d.setPower(true)
        #expect(drm.atomicCommits.count == 3 && drm.connectorProperties.isEmpty)
        try d.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(drm.atomicCommits.last?.flags == 0x0401 && drm.atomicCommits.last?.values.count == 13)
        #expect(drm.crtcSets.isEmpty && drm.flips.isEmpty)
    }

    @Test func presentingNothingNewDoesNotFlip() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32, atomic: false))
        let d = try open(drm.card, system: system, drm: drm)
        try d.present(damage: [d.backBuffer.bounds])
        try d.present(damage: [])
        try d.present(damage: [PixelRect(x: 100, y: 100, width: 5, height: 5)])
        #expect(drm.flips.isEmpty && drm.crtcSets.count == 1)
    }

    @Test func restorePutsThePreviousCrtcBackAndFreesEverything() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 32, height: 32, atomic: false))
        let d = try open(drm.card, system: system, drm: drm, buffers: 3)
        try d.present(damage: [d.backBuffer.bounds])
        d.restore()
        #expect(drm.crtcSets.last?.fb == 42 && drm.crtcSets.last?.mode?.width == 32)
        #expect(drm.count(of: .removeFramebuffer) == 3 && drm.count(of: .destroyDumbBuffer) == 3)
        #expect(system.unmapped == 3 && system.closed.contains(d.fd))
        d.restore()
        #expect(system.unmapped == 3)
    }

    @Test func aQuarterTurnLandsWhereTheScreenTransformSays() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 64, height: 32, atomic: false))
        let d = try open(drm.card, system: system, drm: drm)
        #expect(d.screen.rotation == .r90 && d.backBuffer.width == 32 && d.backBuffer.height == 64)
        for y in 0..<64 { for x in 0..<32 { d.backBuffer.row32(y)[x] = UInt32(y << 8 | x) } }
        try d.present(damage: [d.backBuffer.bounds])
        let pitch = 256
        for (x, y) in [(0, 0), (31, 0), (0, 63), (31, 63), (5, 40)] {
            let p = d.screen.panelPixel(fromPortraitX: x, y: y)
            #expect(scanoutPixel(system, buffer: 0, x: p.x, y: p.y, pitch: pitch) == UInt32(y << 8 | x))
        }
    }

    @Test func screenFollowsTheRotation() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 800, height: 480))
        let d = try open(drm.card, system: system, drm: drm)
        #expect(d.screen == ScreenTransform(portraitWidth: 480, portraitHeight: 800, rotation: .r90))
        #expect(d.backBuffer.width == 480 && d.backBuffer.height == 800)
    }
}

@Suite struct TextConsoleTests {
    @Test func graphicsModeKeyboardOffAndBackAgain() {
        let system = FakeSystem()
        system.ioctlAnswers = [0x4B3B: 0, 0x4B44: 3]       // KD_TEXT, K_UNICODE
        let console = TextConsole(system: system)
        #expect(console.isGraphics && console.note == nil)
        // KDGETMODE, KDSETMODE KD_GRAPHICS, KDGKBMODE, KDSKBMODE K_OFF: modes go by value.
        #expect(system.ioctls.map(\.0) == [0x4B3B, 0x4B3A, 0x4B44, 0x4B45])
        #expect(system.ioctls[1].1 == 1 && system.ioctls[3].1 == 4)
        console.restore()
        #expect(system.ioctls.suffix(2).map(\.0) == [0x4B45, 0x4B3A])
        #expect(system.ioctls.suffix(2).map(\.1) == [3, 0])
        let written = String(decoding: system.written.values.first ?? [], as: UTF8.self)
        #expect(written == "\u{1B}[?25l\u{1B}[?25h")
        console.restore()
        #expect(system.ioctls.count == 6)
    }

    @Test func withoutAVirtualTerminalNothingHappens() {
        let system = FakeSystem()
        system.fail(.open, of: "/dev/tty0", errno: ENOENT, times: .max)
        let console = TextConsole(system: system)
        #expect(!console.isGraphics && console.note != nil)
        console.restore()
        #expect(system.ioctls.isEmpty)
    }
}
