import Diagnostics
import Platform
import Syscalls

extension FrameLoop {
    /// Follows `drm`'s connector from now on (Platform/ConnectorWatch.swift): the screen going,
    /// coming back, or coming back with another mode reaches `displayConnectorChanged`. The
    /// watch must be kept as long as the loop runs; nil without udev, or when udev cannot
    /// watch (said through `warn`: the picture still shows, a replugged screen stays dark).
    public func followConnector(of drm: DumbBufferDisplay, settings: DRMDisplayConfiguration, udev: (any UdevCalls)?,
                                warn: (String) -> Void) -> ConnectorWatch? {
        guard let udev else { return nil }
        do throws(SystemError) {
            return try ConnectorWatch(udev: udev, loop: loop, display: drm, config: settings) { [unowned(unsafe) self] in
                self.displayConnectorChanged($0)
            }
        } catch {
            warn("display: a screen unplugged and plugged back will not be followed (\(error))")
            return nil
        }
    }
}
