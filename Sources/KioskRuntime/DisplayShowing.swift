import Diagnostics
import Geometry
import Platform
import Syscalls

/// Hands what `chooseDisplay` found to `start`: a DRM display at once (saying its name, its
/// modesetting and notes), one connected later (waiting for udev), or the virtual panel
/// (`virtualLine` says so, given the panel and the reason). A DRM display is handed to
/// `drmShown` first (its scanout buffers, its connector to follow). The returned wait (nil
/// unless waiting) must stay alive as long as the loop runs.
public func startShowing(on choice: DisplayChoice, settings: DisplaySettings, udev: (any UdevCalls)?, loop: EventLoop, clock: any Clock,
                 say: @escaping (String) -> Void, warn: @escaping (String) -> Void,
                 virtualLine: (VirtualPanel, String) -> String, console: @escaping () -> TextConsole,
                 drmShown: @escaping (DumbBufferDisplay) -> Void = { _ in },
                 start: @escaping (any Display, TextConsole?) -> Void) throws(DisplayUnavailable) -> DRMHotplugWait? {
    switch choice {
    case .drm(let drm):
        say("\(drm.name), \(drm.usesAtomic ? "atomic" : "legacy") modesetting")
        for note in drm.notes { say(note) }
        drmShown(drm)
        start(drm, console())
        return nil
    case .waitForHotplug(let why):
        return try waitForDisplay(why, settings: settings, udev: udev, loop: loop, clock: clock, say: warn,
                                  start: { drmShown($0); start($0, console()) })
    case .virtual(let reason):
        let panel = settings.virtualPanel(clock: clock)
        say(virtualLine(panel, reason))
        start(panel, nil)
        return nil
    }
}
