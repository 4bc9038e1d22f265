#if canImport(Glibc)
import Glibc
#endif
import SystemFakes
import Testing
import Geometry
import Raster
import Syscalls
@testable import Platform

@Suite struct OutputChoiceTests {
    @Test func picksTheConnectedConnectorItsPreferredModeAndAReachableCrtc() throws {
        let choice = try chooseOutput(card: Cards.twoConnectors(), config: DRMDisplayConfiguration())
        #expect(choice.connector.name == "DSI-1")
        #expect(choice.mode.width == 800 && choice.mode.height == 480 && choice.mode.refreshMilliHertz == 60_000)
        // The DSI encoder can only drive the second CRTC; its primary plane is 72 (71 is an overlay).
        #expect(choice.crtc.id == 61 && choice.crtcIndex == 1)
        #expect(choice.plane?.id == 72)
    }

    @Test func connectorByNameIgnoresCaseAndExplainsWhatExists() {
        #expect((try? chooseOutput(card: Cards.twoConnectors(), config: DRMDisplayConfiguration(connectorName: "dsi-1")))?.connector.id == 41)
        #expect(throws: DisplaySetupError.connectorNotFound(card: "/dev/dri/card1", name: "DPI-1",
                                                            available: ["HDMI-A-1 (disconnected)", "DSI-1 (connected)"])) {
            try chooseOutput(card: Cards.twoConnectors(), config: DRMDisplayConfiguration(connectorName: "DPI-1"))
        }
        #expect(throws: DisplaySetupError.connectorNotConnected(card: "/dev/dri/card1", name: "HDMI-A-1")) {
            try chooseOutput(card: Cards.twoConnectors(), config: DRMDisplayConfiguration(connectorName: "HDMI-A-1"))
        }
    }

    @Test func nothingConnectedIsItsOwnError() {
        #expect(throws: DisplaySetupError.noConnectedConnector(card: "/dev/dri/card1",
                                                               connectors: ["HDMI-A-1 (disconnected)", "DSI-1 (disconnected)"])) {
            try chooseOutput(card: Cards.twoConnectors(dsiConnected: false), config: DRMDisplayConfiguration())
        }
        #expect(isWaitingForHotplug(.noConnectedConnector(card: "c", connectors: [])))
        #expect(!isWaitingForHotplug(.notMaster(card: "c")))
    }

    @Test func configuredModeWithAndWithoutRefresh() throws {
        let card = Cards.twoConnectors()
        #expect(try chooseOutput(card: card, config: DRMDisplayConfiguration(mode: "1024x768")).mode.width == 1024)
        #expect(try chooseOutput(card: card, config: DRMDisplayConfiguration(mode: "800x480@50")).mode.refreshMilliHertz == 50_000)
        #expect(try chooseOutput(card: card, config: DRMDisplayConfiguration(mode: "800x480")).mode.refreshMilliHertz == 60_000)
        #expect(throws: DisplaySetupError.self) { try chooseOutput(card: card, config: DRMDisplayConfiguration(mode: "640x480")) }
        #expect(throws: DisplaySetupError.self) { try chooseOutput(card: card, config: DRMDisplayConfiguration(mode: "big")) }
        // From a config file anything may come: none of these may trap.
        for odd in ["", "@60", "800x480@1e300", "800x480@nan", "800x480@-inf", "800x480@", "x@x", "800x480@60@60"] {
            #expect(throws: DisplaySetupError.self, "\(odd)") { try chooseOutput(card: card, config: DRMDisplayConfiguration(mode: odd)) }
        }
    }

    @Test func currentEncoderKeepsItsCrtc() throws {
        let choice = try chooseOutput(card: Cards.virtual(width: 480, height: 800), config: DRMDisplayConfiguration())
        #expect(choice.crtc.id == 34 && choice.crtc.bufferId == 42)
        #expect(choice.rotation == .r0)
        #expect(choice.screen == ScreenTransform(portraitWidth: 480, portraitHeight: 800, rotation: .r0))
    }

    @Test func formatMustBeScannableByThePrimaryPlane() throws {
        #expect(throws: DisplaySetupError.formatUnsupported(connector: "DSI-1", format: .rgb565)) {
            try chooseOutput(card: Cards.twoConnectors(), config: DRMDisplayConfiguration(format: .rgb565))
        }
        let card = Cards.twoConnectors(planeFormats: [Cards.xr24, Cards.rg16])
        #expect(try chooseOutput(card: card, config: DRMDisplayConfiguration(format: .rgb565)).plane?.id == 72)
        #expect(fourcc(.xrgb8888) == Cards.xr24 && fourcc(.rgb565) == Cards.rg16)
    }

    @Test func autoOrientation() throws {
        // Landscape panels are turned to portrait; portrait panels are left alone.
        #expect(panelRotation(.auto, panelOrientation: nil, width: 800, height: 480) == .r90)
        #expect(panelRotation(.auto, panelOrientation: nil, width: 720, height: 1280) == .r0)
        #expect(panelRotation(.auto, panelOrientation: "Normal", width: 800, height: 480) == .r90)
        // The connector's panel orientation wins when it says the panel is mounted turned.
        #expect(panelRotation(.auto, panelOrientation: "Upside Down", width: 720, height: 1280) == .r180)
        #expect(panelRotation(.auto, panelOrientation: "Left Side Up", width: 720, height: 1280) == .r90)
        #expect(panelRotation(.auto, panelOrientation: "Right Side Up", width: 720, height: 1280) == .r270)
        // A configured rotation is taken as it is.
        #expect(panelRotation(.fixed(.r270), panelOrientation: "Upside Down", width: 800, height: 480) == .r270)
        let choice = try chooseOutput(card: Cards.twoConnectors(dsiOrientation: "Upside Down"), config: DRMDisplayConfiguration())
        #expect(choice.rotation == .r180)
        #expect(choice.screen.portraitWidth == 800 && choice.screen.portraitHeight == 480)
        let landscape = try chooseOutput(card: Cards.twoConnectors(), config: DRMDisplayConfiguration())
        #expect(landscape.rotation == .r90 && landscape.screen.portraitWidth == 480 && landscape.screen.portraitHeight == 800)
    }

    @Test func orientationSettingParses() {
        #expect(OrientationSetting("auto") == .auto)
        #expect(OrientationSetting("270") == .fixed(.r270))
        #expect(OrientationSetting("45") == nil)
        #expect(OrientationSetting("left") == nil)
    }
}

@Suite struct DisplaySetupMessageTests {
    @Test func permissionDeniedNamesTheGroup() {
        let e = DisplaySetupError.opening(SystemError(errno: 13, attempt: "open /dev/dri/card0"), path: "/dev/dri/card0", inGroup: { _ in false })
        #expect(e == .permissionDenied(path: "/dev/dri/card0", group: "video"))
        #expect(e.description.contains("'video' group"))
        #expect(DisplaySetupError.opening(SystemError(errno: 2, attempt: "open x"), path: "x") == .failed(SystemError(errno: 2, attempt: "open x")))
    }

    @Test func notMasterSaysWhoOwnsTheDisplay() {
        let e = DisplaySetupError.modesetting(SystemError(errno: 13, attempt: "DRM_IOCTL_MODE_SETCRTC"), card: "/dev/dri/card0")
        #expect(e == .notMaster(card: "/dev/dri/card0"))
        #expect(e.description.contains("another program — a desktop? — owns the display"))
    }

    @Test func openReportsAccessProblemsBeforeMissingDisplays() {
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0", "card1", "renderD128"]
        system.fail(.open, of: "/dev/dri/card0", errno: EACCES, times: .max)
        let drm = FakeDRM(card: Cards.twoConnectors(dsiConnected: false))
        #expect(throws: DisplaySetupError.permissionDenied(path: "/dev/dri/card0", group: "video")) {
            try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
        }
        #expect(system.opened == ["/dev/dri/card1"])
        #expect(system.closed.count == 1)
    }

    @Test func anotherMasterIsReportedPlainly() {
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        let drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        drm.master = false
        drm.fail(.setMaster, errno: EACCES, times: .max)
        #expect(throws: DisplaySetupError.notMaster(card: "/dev/dri/card0")) {
            try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
        }
    }

    @Test func aSecondKioskOnTheSameCardSaysItIsInUse() {
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        system.fail(.lock, of: "/dev/dri/card0", errno: EWOULDBLOCK, times: .max)
        let drm = FakeDRM(card: Cards.virtual(width: 480, height: 800))
        #expect(throws: DisplaySetupError.cardInUse(card: "/dev/dri/card0")) {
            try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
        }
        #expect(system.closed.count == 1)
        #expect(!isWaitingForHotplug(.cardInUse(card: "/dev/dri/card0")))
        #expect(DisplaySetupError.cardInUse(card: "/dev/dri/card0").description.hasPrefix("/dev/dri/card0 is in use by another motionkiosk"))
    }

    @Test func theCardLockIsTheKernelsAdvisoryLock() throws {
        // Two descriptors of one file stand for two kiosks: flock is per open file.
        let path = "/tmp/motionkiosk-card-lock-\(getpid())"
        let first = try LinuxSystem.shared.open(path, flags: O_RDWR | O_CREAT, mode: 0o600)
        let second = try LinuxSystem.shared.open(path, flags: O_RDWR)
        defer { LinuxSystem.shared.close(second); unlink(path) }
        #expect(LinuxSystem.shared.lockExclusively(first))
        #expect(!LinuxSystem.shared.lockExclusively(second))
        LinuxSystem.shared.close(first)   // a kiosk that ends, or is killed, leaves no lock
        #expect(LinuxSystem.shared.lockExclusively(second))
    }

    @Test func noCardAtAll() {
        #expect(throws: DisplaySetupError.noCard) {
            try openDRMDisplay(config: DRMDisplayConfiguration(), system: FakeSystem(), drm: FakeDRM(card: Cards.virtual(width: 1, height: 1)),
                               udev: nil, clock: VirtualClock())
        }
    }

    @Test func udevCardsComeFirst() {
        let udev = FakeUdev(devices: [
            UdevDevice(syspath: "/sys/x/card1", sysname: "card1", subsystem: "drm", devnode: "/dev/dri/card1"),
            UdevDevice(syspath: "/sys/x/card1-DSI-1", sysname: "card1-DSI-1", subsystem: "drm", devnode: nil),
            UdevDevice(syspath: "/sys/x/renderD128", sysname: "renderD128", subsystem: "drm", devnode: "/dev/dri/renderD128")])
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        #expect(drmCardPaths(udev: udev, system: system) == ["/dev/dri/card1"])
        #expect(drmCardPaths(udev: nil, system: system) == ["/dev/dri/card0"])
    }
}

@Suite struct PermissionMessageTests {
    @Test func missingGroupVersusDevicePolicy() {
        let denied = SystemError(errno: 13, attempt: "open /dev/dri/card0")
        let missing = DisplaySetupError.opening(denied, path: "/dev/dri/card0", inGroup: { _ in false })
        #expect(missing == .permissionDenied(path: "/dev/dri/card0", group: "video"))
        #expect(missing.description.contains("usermod -aG video"))
        let policy = DisplaySetupError.opening(denied, path: "/dev/dri/card0", inGroup: { _ in true })
        #expect(policy == .deniedByPolicy(path: "/dev/dri/card0", group: "video"))
        #expect(policy.description.contains("DeviceAllow"))
        #expect(!policy.description.contains("usermod"))
    }
}
