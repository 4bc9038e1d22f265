import Geometry
import KioskRuntime
import Platform
import Syscalls
import SystemFakes

/// A fake DRM card's screen under a running frame loop: unplugged and plugged back at chosen
/// times, each change told by udev as the kernel tells it (a "change" uevent with HOTPLUG=1).
final class PluggedScreen {
    let loop: EventLoop, drm: FakeDRM, udev: FakeUdev
    private var timers: [LoopTimer] = []
    static let uevent = UdevDevice(syspath: "/sys/card0", sysname: "card0", subsystem: "drm", devnode: "/dev/dri/card0",
                                   action: "change", properties: ["HOTPLUG": "1"])
    init(loop: EventLoop, drm: FakeDRM, udev: FakeUdev) { self.loop = loop; self.drm = drm; self.udev = udev }

    /// At `time` the connector shows `modes` (none: unplugged), and udev says so.
    func plug(_ modes: [DRMMode], at time: Microseconds) throws {
        let drm = self.drm, udev = self.udev
        let timer = try loop.addTimer {
            drm.card.connectors[0].connection = modes.isEmpty ? .disconnected : .connected
            drm.card.connectors[0].modes = modes
            udev.monitor!.push(PluggedScreen.uevent)
        }
        try timer.arm(after: time)
        timers.append(timer)
    }
}
