#if canImport(Glibc)
import Glibc
#endif
import KioskRuntime
import Platform
import Syscalls
import SystemFakes
import Testing

/// `motionkiosk devices` as a technician reads it, on fake DRM and a scripted seat.
@Suite struct DeviceReportTests {
    final class Seat: InputEventSource {
        let fd: Int32 = 5
        var deniedDevices: [String] = []
        var devices: [InputDeviceInfo] = []
        func readEvents(panelWidth: Int, panelHeight: Int) -> [RawInputEvent] { devices.map { .deviceAdded($0) } }
    }

    @Test func theCardItsConnectorAndTheChoiceAreListed() {
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        let drm = FakeDRM(card: Cards.virtual(width: 800, height: 480))
        let lines = DeviceReport.displayLines(DisplaySettings(), system: system, drm: drm, udev: nil)
        #expect(lines.first == "DRM cards:")
        #expect(lines.contains { $0.hasPrefix("  /dev/dri/card0: driver ") && $0.contains("atomic modesetting") })
        #expect(lines.contains("    connector Virtual-1: connected"))
        // A landscape panel is turned to portrait.
        #expect(lines.contains { $0.hasPrefix("    would use: Virtual-1 800x480") && $0.contains("rotation 90 (auto), portrait 480x800") })
    }

    @Test func noCardAndAnUnreadableCardAreSaidPlainly() {
        let none = DeviceReport.displayLines(DisplaySettings(), system: FakeSystem(), drm: FakeDRM(card: Cards.virtual(width: 800, height: 480)), udev: nil)
        #expect(none == ["DRM cards:", "  none (no /dev/dri/card*: is the display driver loaded?)"])
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        system.fail(.open, of: "/dev/dri/card0", errno: EACCES, times: .max)
        let denied = DeviceReport.displayLines(DisplaySettings(), system: system, drm: FakeDRM(card: Cards.virtual(width: 800, height: 480)), udev: nil)
        #expect(denied.count == 2 && denied[1].contains("'video' group"))
    }

    @Test func inputDevicesWithTheirKindAndAbsurdSizesLeftOut() {
        let seat = Seat()
        seat.devices = [
            InputDeviceInfo(id: 1, name: "FT5406 memory based driver", sysname: "event2", capabilities: [.touch],
                            isTouchscreen: true, widthMillimetres: 154.2, heightMillimetres: 85.9),
            // A device that reports nonsense must not stop the listing.
            InputDeviceInfo(id: 2, name: "odd", sysname: "event3", capabilities: [.touch], isTouchscreen: true,
                            widthMillimetres: 1e300, heightMillimetres: .nan),
        ]
        let lines = DeviceReport.inputLines(seat: "seat0") { () throws(SystemError) -> any InputEventSource in seat }
        #expect(lines == ["Input devices (seat0):",
                          "  event2 \"FT5406 memory based driver\": touch, touchscreen, 154x86 mm",
                          "  event3 \"odd\": touch, touchscreen"])
        let failing = DeviceReport.inputLines(seat: "seat1") { () throws(SystemError) -> any InputEventSource in
            throw SystemError(errno: ENOENT, attempt: "udev_new")
        }
        #expect(failing.count == 2 && failing[1].hasPrefix("  libinput: udev_new"))
    }
}
