import Syscalls

/// Follows a DRM display's connector while the kiosk runs: on every DRM uevent (a hotplug:
/// HDMI unplugged, a monitor switched off or on) the connector is read again and a change
/// handed to `changed`. Some screens never send one (the Pi 3B+'s HDMI, some monitors): then
/// nothing happens, as before.
public final class ConnectorWatch {
    private let monitor: any UdevMonitoring
    private let loop: EventLoop
    private var token: UInt64 = 0

    public init(udev: any UdevCalls, loop: EventLoop, display: DumbBufferDisplay, config: DRMDisplayConfiguration,
                changed: @escaping (DumbBufferDisplay.ConnectorChange) -> Void) throws(SystemError) {
        monitor = try udev.monitor(subsystems: ["drm"])
        self.loop = loop
        let monitor = self.monitor
        token = try loop.addReader(monitor.fd) {
            var sawEvent = false
            while monitor.receive() != nil { sawEvent = true }
            guard sawEvent else { return }
            let change = display.connectorChanged(config: config)
            if change != .unchanged { changed(change) }
        }
    }

    deinit { loop.removeReader(token) }
}
