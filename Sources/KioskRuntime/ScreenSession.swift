import Diagnostics
import Geometry
import Platform
import Syscalls

/// One screen of an installer's tool in a frame loop (`pattern`, `calibrate`): shown on what
/// `chooseDisplay` found, its connector followed as on a stand (unplugged: dark until it is
/// back; back with another mode: `run` returns true, for a fresh start at that size), and
/// touch from `openInput`, if any, once it shows. Lines it says start with the tool's name.
public final class ScreenSession {
    public let frames: FrameLoop
    private let tool: String
    private let clock: any Clock
    private let say: (String) -> Void
    private var hotplug: DRMHotplugWait?
    private var connectorWatch: ConnectorWatch?

    public init(tool: String, frames: FrameLoop, clock: any Clock, say: @escaping (String) -> Void) {
        self.tool = tool; self.frames = frames; self.clock = clock; self.say = say
    }

    /// `virtualLine` says that the tool shows on the virtual panel (given it and the reason);
    /// nil: the tool needs the stand's own display, and refuses the virtual panel.
    public func show(_ choice: DisplayChoice, settings: DisplaySettings, udev: (any UdevCalls)?,
                     virtualLine: ((VirtualPanel, String) -> String)?, console: @escaping () -> TextConsole,
                     openInput: (() throws(SystemError) -> any InputEventSource)?) throws(KioskError) {
        let tool = self.tool, frames = self.frames
        let say: (String) -> Void = { [say] in say("\(tool): \($0)") }
        if case .virtual(let reason) = choice, virtualLine == nil {
            throw KioskError("\(tool) needs the stand's display and touch panel: \(reason)")
        }
        do throws(DisplayUnavailable) {
            hotplug = try startShowing(
                on: choice, settings: settings, udev: udev, loop: frames.loop, clock: clock, say: say, warn: say,
                virtualLine: virtualLine ?? { _, _ in "" }, console: console,
                drmShown: { [unowned(unsafe) self] drm in
                    self.connectorWatch = frames.followConnector(of: drm, settings: settings.drm, udev: udev, warn: say)
                },
                start: { shown, console in
                    do throws(SystemError) { try frames.start(display: shown, console: console) } catch {
                        say("\(error)")
                        frames.loop.stop()
                        return
                    }
                    guard let openInput else { return }
                    do throws(SystemError) { try frames.attachInput(openInput()) } catch { say("no input (\(error))") }
                })
        } catch { throw KioskError(error.description) }
    }

    /// Runs until a signal, `seconds` or a failure (Escape too, where the screen takes it);
    /// true when the screen came back with another mode.
    public func run() throws(KioskError) -> Bool {
        do { try frames.run() } catch { throw KioskError("\(error)") }
        return frames.startsAgain
    }
}
