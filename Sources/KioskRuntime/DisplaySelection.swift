import Geometry
import Platform
import Raster
import Syscalls

/// Where frames go, as the command line and the configuration ask.
public enum DisplayKind: String, Sendable, CaseIterable {
    /// DRM when a connected display can be driven, otherwise the virtual panel.
    case auto
    case drm
    case virtual
}

/// The display settings of `run` and `pattern` after flags and the configuration file met.
public struct DisplaySettings: Sendable {
    /// "800x480" or "800x480@60" → (800, 480), each side 1…8192 (a flag's mode also sizes the
    /// virtual panel: "100000x100000" once asked for a 40 GB frame).
    public static func modeSize(_ mode: String) -> (width: Int, height: Int)? {
        guard let size = mode.split(separator: "@").first else { return nil }
        let parts = size.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...8192).contains(w), (1...8192).contains(h) else { return nil }
        return (w, h)
    }

    public var kind = DisplayKind.auto
    public var drm = DRMDisplayConfiguration()
    /// The virtual panel's native size (`--mode`, or the configuration's virtual size).
    public var virtualWidth = 480
    public var virtualHeight = 800
    /// The libinput seat touch comes from.
    public var seat = "seat0"

    public init() {}

    /// The in-memory panel, turned as the orientation says, paced at 60 Hz by `clock`.
    public func virtualPanel(clock: (any Clock)?) -> VirtualPanel {
        let rotation = panelRotation(drm.orientation, panelOrientation: nil, width: virtualWidth, height: virtualHeight)
        return VirtualPanel(screen: ScreenTransform(panelWidth: virtualWidth, panelHeight: virtualHeight, rotation: rotation),
                            scanoutFormat: drm.format, clock: clock)
    }
}

/// The outcome of choosing a display.
public enum DisplayChoice {
    case drm(DumbBufferDisplay)
    /// `drm` asked for and nothing connected yet: wait for a hotplug.
    case waitForHotplug(DisplaySetupError)
    case virtual(reason: String)
}

/// A display that cannot be had, in plain words.
public struct DisplayUnavailable: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public func chooseDisplay(_ settings: DisplaySettings, udev: (any UdevCalls)?, clock: any Clock) throws(DisplayUnavailable) -> DisplayChoice {
    if settings.kind == .virtual { return .virtual(reason: "--display virtual") }
    do {
        return .drm(try openDRMDisplay(config: settings.drm, system: LinuxSystem.shared, drm: LibDRM(), udev: udev, clock: clock))
    } catch {
        if settings.kind == .drm {
            if isWaitingForHotplug(error) { return .waitForHotplug(error) }
            throw DisplayUnavailable(error.description)
        }
        return .virtual(reason: error.description)
    }
}

/// Nothing connected yet: waits for udev to announce a display, opens it and hands it to
/// `start`. The returned wait must stay alive as long as the loop runs.
public func waitForDisplay(_ why: DisplaySetupError, settings: DisplaySettings, udev: (any UdevCalls)?, loop: EventLoop,
                           clock: any Clock, say: @escaping (String) -> Void,
                           start: @escaping (DumbBufferDisplay) -> Void) throws(DisplayUnavailable) -> DRMHotplugWait {
    guard let udev else { throw DisplayUnavailable("\(why); udev is not available to wait for a display") }
    say("\(why); waiting for a display to be connected")
    let config = settings.drm
    do {
        return try DRMHotplugWait(
            udev: udev, loop: loop,
            open: { () throws(DisplaySetupError) -> DumbBufferDisplay in
                try openDRMDisplay(config: config, system: LinuxSystem.shared, drm: LibDRM(), udev: udev, clock: clock)
            },
            ready: { display in
                say("a display was connected")
                start(display)
            },
            failed: { error in say("\(error)"); loop.stop() })
    } catch {
        throw DisplayUnavailable("waiting for a display: \(error)")
    }
}
