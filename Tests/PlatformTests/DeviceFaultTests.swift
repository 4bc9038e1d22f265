import Glibc
import SystemFakes
import Testing
import Geometry
import Syscalls
import Trace
@testable import Platform

/// Each call the display, the console, libinput's opens and the trace recorder make of a
/// device or a file, failed through SystemFakes' one mechanism: the error names the device
/// (or file) and what was attempted, nothing is left half made, and nothing crashes.
@Suite struct DRMCardFaultTests {
    func openCard(_ system: FakeSystem, _ drm: FakeDRM) throws(DisplaySetupError) -> DumbBufferDisplay {
        system.directories["/dev/dri"] = ["card0"]
        return try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
    }

    @Test func aCardThatCannotBeOpenedSaysWhichAndWhy() {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        system.fail(.open, of: "/dev/dri/card0", errno: EIO)
        #expect(throws: DisplaySetupError.failed(SystemError(errno: EIO, attempt: "open /dev/dri/card0"))) { try openCard(system, drm) }
        #expect(system.opened.isEmpty && system.failures.map(\.description) == ["open /dev/dri/card0"])
    }

    @Test func aCardWhoseResourcesCannotBeReadIsClosedAndNamed() {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        drm.fail(.readCard, errno: ENODEV)
        var failure: DisplaySetupError?
        do { _ = try openCard(system, drm) } catch { failure = error }
        #expect(failure?.description == "DRM_IOCTL_MODE_GETRESOURCES on /dev/dri/card0: No such device")
        #expect(system.closed.count == 1)
    }

    @Test(arguments: [SystemCallLog.Call.createDumbBuffer, .addFramebuffer])
    func aSecondScanoutBufferThatCannotBeMadeLeavesOneAndFreesWhatWasHalfMade(_ call: SystemCallLog.Call) throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        drm.fail(call, nth: 2, errno: ENOMEM)
        // Scarce scanout memory: the display runs on the one buffer it got, and says why.
        let display = try openCard(system, drm)
        let ioctl = call == .createDumbBuffer ? "DRM_IOCTL_MODE_CREATE_DUMB" : "DRM_IOCTL_MODE_ADDFB2"
        #expect(display.scanoutBuffers == 1)
        #expect(display.notes.contains { $0.contains("only 1 of 2") && $0.contains("(/dev/dri/card0: \(ioctl) 480x800: Cannot allocate memory)") })
        // What the second got (its dumb buffer, where ADDFB2 failed) is freed at once.
        #expect(drm.count(of: .destroyDumbBuffer) == (call == .addFramebuffer ? 1 : 0))
        display.restore()
        #expect(drm.count(of: .destroyDumbBuffer) == drm.count(of: .createDumbBuffer) - (call == .createDumbBuffer ? 1 : 0))
        #expect(drm.count(of: .removeFramebuffer) == drm.count(of: .addFramebuffer) - (call == .addFramebuffer ? 1 : 0))
        #expect(system.unmapped == system.mapped.count && system.closed.count == 1)
    }

    @Test(arguments: [SystemCallLog.Call.createDumbBuffer, .addFramebuffer])
    func noScanoutBufferAtAllIsNamedAndNothingLeaks(_ call: SystemCallLog.Call) {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        drm.fail(call, errno: ENOMEM, times: .max)
        var failure: DisplaySetupError?
        do { _ = try openCard(system, drm) } catch { failure = error }
        let ioctl = call == .createDumbBuffer ? "DRM_IOCTL_MODE_CREATE_DUMB" : "DRM_IOCTL_MODE_ADDFB2"
        #expect(failure?.description.hasPrefix("/dev/dri/card0: no memory for a 480x800") == true, "\(String(describing: failure))")
        #expect(failure?.description.contains("(\(ioctl) 480x800: Cannot allocate memory)") == true)
        #expect(drm.count(of: .destroyDumbBuffer) == drm.count(of: .createDumbBuffer) - (call == .createDumbBuffer ? 1 : 0))
        #expect(drm.count(of: .removeFramebuffer) == drm.count(of: .addFramebuffer) - (call == .addFramebuffer ? 1 : 0))
        #expect(system.unmapped == system.mapped.count && system.closed.count == 1)
    }

    @Test func aMappingRefusedByTheKernelIsNamedAndNothingLeaks() {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        system.fail(.mmap, errno: ENOMEM, times: .max)
        var failure: DisplaySetupError?
        do { _ = try openCard(system, drm) } catch { failure = error }
        #expect(failure?.description.hasPrefix("/dev/dri/card0: no memory for a 480x800") == true && failure?.description.contains("(mmap ") == true, "\(String(describing: failure))")
        #expect(drm.count(of: .removeFramebuffer) == 1 && drm.count(of: .destroyDumbBuffer) == 1 && system.closed.count == 1)
    }

    @Test func aFlipRefusedWhileRunningNamesTheCardAndTheNextFrameStillGoesOut() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800, atomic: false))
        let display = try openCard(system, drm)
        try display.present(damage: [display.backBuffer.bounds])              // SetCrtc: shown
        drm.fail(.pageFlip, errno: EINVAL)
        var failure: DisplayError?
        do { try display.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)]) } catch { failure = error }
        #expect(failure?.description.hasPrefix("/dev/dri/card0: DRM_IOCTL_MODE_PAGE_FLIP crtc 34 fb ") == true, "\(String(describing: failure))")
        #expect(failure?.description.hasSuffix(": Invalid argument") == true)
        // The kernel takes the next one: the display is not wedged by the refusal.
        try display.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        #expect(drm.flips.count == 1 && display.flipPending)
    }

    @Test func aFlipRefusedForPermissionSaysAnotherProgramOwnsTheDisplay() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800, atomic: false))
        let display = try openCard(system, drm)
        try display.present(damage: [display.backBuffer.bounds])
        drm.fail(.pageFlip, errno: EACCES)
        var failure: DisplayError?
        do { try display.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)]) } catch { failure = error }
        #expect(failure?.description == DisplaySetupError.notMaster(card: "/dev/dri/card0").description)
    }

    @Test func flipEventsThatCannotBeReadAreNamedAndLeaveTheFlipPending() throws {
        let system = FakeSystem(), drm = FakeDRM(card: Cards.virtual(width: 480, height: 800, atomic: false))
        let display = try openCard(system, drm)
        try display.present(damage: [display.backBuffer.bounds])
        try display.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)])
        let card = try #require(system.opened.first.flatMap { path in system.closed.isEmpty ? path : nil })
        #expect(card == "/dev/dri/card0")
        system.fail(.read, of: "/dev/dri/card0", errno: EIO)
        var failure: DisplayError?
        do { _ = try display.readFlipEvents() } catch { failure = error }
        #expect(failure?.description.hasPrefix("/dev/dri/card0: reading flip events: read fd ") == true)
        #expect(failure?.description.hasSuffix("Input/output error") == true)
        #expect(display.flipPending, "the flip is still owed; the event may come on the next read")
    }
}

@Suite struct InputDeviceOpenFaultTests {
    @Test func aNodeTheKioskMayNotOpenIsRememberedAndLibinputGetsMinusErrno() {
        let system = FakeSystem()
        let opener = RestrictedOpener(system: system)
        system.fail(.open, of: "/dev/input/event3", errno: EACCES)
        system.fail(.open, of: "/dev/input/event4", errno: EPERM)
        system.fail(.open, of: "/dev/input/event5", errno: ENODEV)
        #expect(opener.open("/dev/input/event3", flags: O_RDWR) == -EACCES)
        #expect(opener.open("/dev/input/event4", flags: O_RDWR) == -EPERM)
        // Unplugged between udev's event and the open: not a permission problem to report.
        #expect(opener.open("/dev/input/event5", flags: O_RDWR) == -ENODEV)
        #expect(opener.denied == ["/dev/input/event3", "/dev/input/event4"])
        let fd = opener.open("/dev/input/event6", flags: O_RDWR)
        #expect(fd > 0)
        opener.close(fd)
        #expect(system.calls.suffix(2) == ["open /dev/input/event6", "close /dev/input/event6"])
    }
}

@Suite struct ConsoleFaultTests {
    @Test(arguments: ["KDGETMODE", "KDSETMODE"])
    func aConsoleThatRefusesGraphicsModeIsLeftAsItIsAndClosed(_ ioctl: String) {
        let system = FakeSystem()
        system.fail(.ioctl, of: ioctl, errno: ENOTTY)
        let console = TextConsole(system: system)
        #expect(!console.isGraphics)
        #expect(console.note?.contains("\(ioctl)") == true && console.note?.contains("/dev/tty0") == true
                && console.note?.contains("Inappropriate ioctl for device") == true, "\(console.note ?? "")")
        #expect(system.closed.count == 1)
        console.restore()
        #expect(system.closed.count == 1, "closed once")
    }

    @Test func aKeyboardThatCannotBeSilencedStillGivesGraphicsMode() {
        let system = FakeSystem()
        system.fail(.ioctl, of: "KDSKBMODE", errno: EINVAL)
        let console = TextConsole(system: system)
        #expect(console.isGraphics && console.note == nil)
        console.restore()
        // The keyboard mode was never changed, so it is not put back; the mode is.
        #expect(system.subjects(of: .ioctl).filter { $0.contains("KDSKBMODE") }.count == 1)
        #expect(system.subjects(of: .ioctl).last?.contains("KDSETMODE") == true)
    }
}

@Suite struct TraceRecordingFaultTests {
    @Test func aFullDiskWhileRecordingNamesTheTraceFile() throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let sink = try TraceFileSink(path: tree.path("floor.jsonl"), system: disk)
        try sink.write("{\"t\":0}\n")
        disk.fail(.write, errno: ENOSPC)
        #expect(throws: TraceWriteError.sinkFailed("\(tree.path("floor.jsonl")): write \(tree.path("floor.jsonl")): No space left on device")) {
            try sink.write("{\"t\":1}\n")
        }
        try sink.write("{\"t\":2}\n")
        #expect(tree.read("floor.jsonl") == "{\"t\":0}\n{\"t\":2}")
    }

    /// The file's fsync, the rename, the folder's open and fsync, the new file's open.
    @Test(arguments: [(SystemCallLog.Call.syncFile, 1), (.rename, 1), (.open, 1), (.syncFile, 2), (.open, 2)])
    func aRollThatFailsSaysWhatAndKeepsWhatWasRecorded(_ call: SystemCallLog.Call, nth: Int) throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let path = tree.path("floor.jsonl")
        let sink = try TraceFileSink(path: path, system: disk)
        try sink.write("{\"t\":0}\n")
        disk.fail(call, nth: nth, errno: EIO)
        var failure: TraceWriteError?
        do { try sink.startNewSegment() } catch { failure = error }
        let message = failure.map { "\($0)" } ?? ""
        #expect(message.hasPrefix("rolling \(path) over to \(path).1: ") && message.hasSuffix(": Input/output error"), "\(message)")
        let kept = (tree.read("floor.jsonl") ?? "") + (tree.read("floor.jsonl.1") ?? "")
        #expect(kept == "{\"t\":0}", "what was recorded is in one of the two files")
    }
}
