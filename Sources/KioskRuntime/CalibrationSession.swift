import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import Platform
import Syscalls

/// `motionkiosk calibrate` once its flags are read: the calibration screen alone in a frame
/// loop, on the stand's display and touch panel, through the panel's present `[touch]`
/// settings. Each fit is said as the `[touch]` table's line; with `save` it is written into
/// the configuration file, and only once the whole new file passes the checks a reload makes
/// (`saveCalibration`): a calibration that fails, is left unfinished, or meets a file a reload
/// would refuse leaves the file as it was.
public final class CalibrationSession {
    public let frames: FrameLoop
    public let scene: CalibrationScene
    private let clock: any Clock
    private let say: (String) -> Void
    private var hotplug: DRMHotplugWait?
    private var connectorWatch: ConnectorWatch?

    /// `system` writes the configuration file; `seconds`: leave after this long (nil: on a
    /// signal or Escape only).
    public init(configuration: KioskConfiguration, configurationPath: String, save: Bool, fonts: FontSet, loop: EventLoop,
                clock: any Clock, log: Log, seconds: Double?, system: any SystemCalls = LinuxSystem.shared,
                say: @escaping (String) -> Void) throws(KioskError) {
        self.clock = clock; self.say = say
        var settings = FrameLoopSettings()
        settings.say = { say("calibrate: \($0)") }
        settings.touchCalibration = configuration.touchCalibration
        scene = CalibrationScene(fonts: fonts, log: log, calibration: configuration.touchCalibration) { result in
            say("[touch]")
            say(result.configLine)
            guard save else { return }
            switch saveCalibration(result.configLine, to: configurationPath, system: system) {
            case .success: say("calibrate: written to \(configurationPath); apply it with: systemctl reload motionkiosk")
            case .failure(let error): say("calibrate: not saved: \(error.description)")
            }
        }
        frames = FrameLoop(loop: loop, clock: clock, log: log, content: scene, settings: settings)
        do throws(SystemError) { try frames.leaveOnSignals(orAfter: seconds) } catch { throw KioskError("\(error)") }
    }

    /// Shows the screen on what `chooseDisplay` found (a DRM display now or once one is
    /// connected; never the virtual panel: there is no panel to touch), follows its connector,
    /// and takes touch from `openInput` once it shows.
    public func show(_ choice: DisplayChoice, settings: DisplaySettings, udev: (any UdevCalls)?, console: @escaping () -> TextConsole,
                     openInput: @escaping () throws(SystemError) -> any InputEventSource) throws(KioskError) {
        if case .virtual(let reason) = choice { throw KioskError("calibrate needs the stand's display and touch panel: \(reason)") }
        let say = self.say, frames = self.frames
        do throws(DisplayUnavailable) {
            hotplug = try startShowing(
                on: choice, settings: settings, udev: udev, loop: frames.loop, clock: clock,
                say: { say("calibrate: \($0)") }, warn: { say("calibrate: \($0)") }, virtualLine: { _, _ in "" }, console: console,
                drmShown: { [unowned(unsafe) self] drm in
                    self.connectorWatch = frames.followConnector(of: drm, settings: settings.drm, udev: udev, warn: { say("calibrate: \($0)") })
                },
                start: { shown, console in
                    do throws(SystemError) { try frames.start(display: shown, console: console) } catch {
                        say("calibrate: \(error)")
                        frames.loop.stop()
                        return
                    }
                    do throws(SystemError) { try frames.attachInput(openInput()) } catch { say("calibrate: no input (\(error))") }
                })
        } catch { throw KioskError(error.description) }
    }

    /// Runs until a signal, Escape, `seconds` or a failure; true when the screen came back
    /// with another mode (the calibration starts again in a fresh process, for its size).
    public func run() throws(KioskError) -> Bool {
        do { try frames.run() } catch { throw KioskError("\(error)") }
        return frames.startsAgain
    }
}
