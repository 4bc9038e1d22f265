#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Syscalls

/// DRM card device nodes, as udev lists them ("/dev/dri/card0" …); /dev/dri is read
/// directly when udev knows none (no udevd, e.g. a minimal initramfs).
public func drmCardPaths(udev: (any UdevCalls)?, system: any SystemCalls) -> [String] {
    let fromUdev = (udev?.devices(subsystem: "drm") ?? [])
        .filter { isCardName($0.sysname) }
        .compactMap { $0.devnode }
    if !fromUdev.isEmpty { return fromUdev }
    return system.listDirectory("/dev/dri").filter(isCardName).map { "/dev/dri/\($0)" }
}

private func isCardName(_ name: String) -> Bool {
    name.hasPrefix("card") && name.count > 4 && name.dropFirst(4).allSatisfy { $0 >= "0" && $0 <= "9" }
}

/// Opens the first card that can drive a connected display as `config` says, becomes its
/// master and sets up the scanout buffers. Errors say why in plain words; when the only
/// problem is that nothing is connected the error is `.noConnectedConnector` (wait for a
/// hotplug and call again).
public func openDRMDisplay(config: DRMDisplayConfiguration, system: any SystemCalls, drm: any DRMCalls,
                           udev: (any UdevCalls)?, clock: any Clock) throws(DisplaySetupError) -> DumbBufferDisplay {
    let paths = config.cardPath.map { [$0] } ?? drmCardPaths(udev: udev, system: system)
    if paths.isEmpty { throw .noCard }
    var errors: [DisplaySetupError] = []
    for path in paths {
        let fd: Int32
        do {
            fd = try system.open(path, flags: O_RDWR)
        } catch {
            errors.append(.opening(error, path: path))
            continue
        }
        do throws(DisplaySetupError) {
            // Two kiosks on one card would take turns stealing the screen; the lock goes
            // with the descriptor, so a killed kiosk never leaves it behind.
            guard system.lockExclusively(fd) else { throw DisplaySetupError.cardInUse(card: path) }
            let card: DRMCard
            do { card = try drm.readCard(fd: fd, path: path) } catch {
                // drmModeGetResources answers EOPNOTSUPP on a render-only card (v3d).
                if error.errno == EOPNOTSUPP { throw DisplaySetupError.renderOnly(card: path) }
                throw DisplaySetupError.failed(error)
            }
            if card.connectors.isEmpty { throw DisplaySetupError.renderOnly(card: path) }
            var choice = try chooseOutput(card: card, config: config)
            if !drm.isMaster(fd: fd) {
                do { try drm.setMaster(fd: fd) } catch { throw DisplaySetupError.notMaster(card: path) }
            }
            // Short of scanout memory for one buffer: the next smaller mode, and so on.
            var refused: [String] = []
            while true {
                do throws(DisplaySetupError) {
                    let display = try DumbBufferDisplay(system: system, drm: drm, clock: clock, fd: fd, card: card, choice: choice,
                                                        format: config.format, bufferCount: config.bufferCount, allowAtomic: config.allowAtomic)
                    if !refused.isEmpty {
                        display.note("no memory for a scanout buffer at \(refused.joined(separator: ", ")); using \(choice.mode)")
                    }
                    return display
                } catch {
                    guard case .noScanoutMemory = error, let smaller = smallerMode(than: choice.mode, in: choice.connector.modes) else { throw error }
                    refused.append(choice.mode.description)
                    choice.mode = smaller
                    choice.rotation = panelRotation(config.orientation, panelOrientation: choice.connector.panelOrientation,
                                                    width: smaller.width, height: smaller.height)
                }
            }
        } catch {
            system.close(fd)
            errors.append(error)
        }
    }
    // The error that tells the user most: access problems first, then "nothing connected".
    if let e = errors.first(where: { if case .permissionDenied = $0 { return true }; if case .notMaster = $0 { return true }; if case .cardInUse = $0 { return true }; return false }) {
        throw e
    }
    if let e = errors.first(where: { if case .noConnectedConnector = $0 { return true }; return false }) { throw e }
    if let e = errors.first(where: { if case .renderOnly = $0 { return true }; return false }) { throw e }
    throw errors.first ?? .noCard
}

/// Whether an error means "wait for a display to be plugged in" rather than "give up".
public func isWaitingForHotplug(_ error: DisplaySetupError) -> Bool {
    switch error {
    case .noConnectedConnector, .connectorNotConnected, .noCard, .renderOnly: return true
    default: return false
    }
}

/// Retries `open` on every DRM uevent (connector hotplug, a driver probing late) until it
/// succeeds, then hands the display to `ready` and stops listening.
public final class DRMHotplugWait {
    private let monitor: any UdevMonitoring
    private let loop: EventLoop
    private var token: UInt64 = 0

    public init(udev: any UdevCalls, loop: EventLoop, open: @escaping () throws(DisplaySetupError) -> DumbBufferDisplay,
                ready: @escaping (DumbBufferDisplay) -> Void, failed: @escaping (DisplaySetupError) -> Void) throws(SystemError) {
        monitor = try udev.monitor(subsystems: ["drm"])
        self.loop = loop
        let monitor = self.monitor
        // Unretained: `deinit` removes the handler, so it never runs without this wait.
        token = try loop.addReader(monitor.fd) { [unowned(unsafe) self] in
            var sawEvent = false
            while monitor.receive() != nil { sawEvent = true }
            guard sawEvent else { return }
            do throws(DisplaySetupError) {
                let display = try open()
                loop.removeReader(self.token)
                ready(display)
            } catch {
                if !isWaitingForHotplug(error) {
                    loop.removeReader(self.token)
                    failed(error)
                }
            }
        }
    }

    deinit { loop.removeReader(token) }
}
