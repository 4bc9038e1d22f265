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
    public let scene: CalibrationScene
    /// The screen: its frame loop, display and touch.
    public let screen: ScreenSession
    public var frames: FrameLoop { screen.frames }

    /// `system` writes the configuration file; `seconds`: leave after this long (nil: on a
    /// signal or Escape only).
    public init(configuration: KioskConfiguration, configurationPath: String, save: Bool, fonts: FontSet, loop: EventLoop,
                clock: any Clock, log: Log, seconds: Double?, system: any SystemCalls = LinuxSystem.shared,
                say: @escaping (String) -> Void) throws(KioskError) {
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
        let frames = FrameLoop(loop: loop, clock: clock, log: log, content: scene, settings: settings)
        do throws(SystemError) { try frames.leaveOnSignals(orAfter: seconds) } catch { throw KioskError("\(error)") }
        screen = ScreenSession(tool: "calibrate", frames: frames, clock: clock, say: say)
    }

    /// Shows the screen on what `chooseDisplay` found (never the virtual panel: there is no
    /// panel to touch) and takes touch from `openInput` once it shows.
    public func show(_ choice: DisplayChoice, settings: DisplaySettings, udev: (any UdevCalls)?, console: @escaping () -> TextConsole,
                     openInput: @escaping () throws(SystemError) -> any InputEventSource) throws(KioskError) {
        try screen.show(choice, settings: settings, udev: udev, virtualLine: nil, console: console, openInput: openInput)
    }

    /// Runs until a signal, Escape, `seconds` or a failure; true when the screen came back
    /// with another mode (the calibration starts again in a fresh process, for its size).
    public func run() throws(KioskError) -> Bool { try screen.run() }
}
