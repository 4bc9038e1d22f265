import CommandLineParser
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import Platform
import Raster
import Syscalls

/// `motionkiosk calibrate [--save]`: the touch calibration screen on the stand's display,
/// through its present `[touch]` settings. Each fit prints the `[touch]` line; with --save
/// it is written into the configuration file, after the whole file was checked as a reload
/// checks it (then `systemctl reload motionkiosk` applies it).
func calibrate(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let seconds: Double?
    do throws(CommandLineError) { seconds = try c.number("seconds", in: 0...31_536_000) } catch { throw KioskError(error.message) }
    let path = c.string("config") ?? KioskConfiguration.defaultPath
    let configuration = try loadConfiguration(c.string("config"))
    let save = c.flag("save")
    let display = try displaySettings(c, base: configuration.displaySettings)
    let clock = MonotonicClock()
    let say: (String) -> Void = { log($0) }
    var settings = FrameLoopSettings()
    settings.say = { say("calibrate: \($0)") }
    settings.touchCalibration = configuration.touchCalibration
    let fonts: FontSet
    do { fonts = try FontSet(regularPaths: configuration.text.fonts, boldPaths: configuration.text.boldFonts) } catch { throw KioskError("fonts: \(error)") }
    let scene = CalibrationScene(fonts: fonts, log: Log(), calibration: configuration.touchCalibration) { result in
        say("[touch]")
        say(result.configLine)
        guard save else { return }
        switch saveCalibration(result.configLine, to: path) {
        case .success: say("calibrate: written to \(path); apply it with: systemctl reload motionkiosk")
        case .failure(let error): say("calibrate: not saved: \(error.description)")
        }
    }
    let frames: FrameLoop
    do throws(SystemError) {
        frames = FrameLoop(loop: try EventLoop(), clock: clock, log: Log(), content: scene, settings: settings)
        try frames.leaveOnSignals(orAfter: seconds)
    } catch { throw KioskError("\(error)") }
    let start: (any Display, TextConsole?) -> Void = { shown, console in
        do throws(SystemError) { try frames.start(display: shown, console: console) } catch {
            say("calibrate: \(error)")
            frames.loop.stop()
            return
        }
        do throws(SystemError) { try frames.attachInput(LibInputSeat(seat: display.seat)) } catch { say("calibrate: no input (\(error))") }
    }
    let udev = try? LibUdev()
    var hotplug: DRMHotplugWait?
    do throws(DisplayUnavailable) {
        switch try chooseDisplay(display, udev: udev, clock: clock) {
        case .drm(let drm):
            say("calibrate: \(drm.name)")
            start(drm, TextConsole(system: LinuxSystem.shared))
        case .waitForHotplug(let why):
            hotplug = try waitForDisplay(why, settings: display, udev: udev, loop: frames.loop, clock: clock,
                                         say: { say("calibrate: \($0)") }, start: { start($0, TextConsole(system: LinuxSystem.shared)) })
        case .virtual(let reason):
            throw DisplayUnavailable("calibrate needs the stand's display and touch panel: \(reason)")
        }
    } catch { throw KioskError(error.description) }
    defer { _ = hotplug }
    do { try frames.run() } catch { throw KioskError("\(error)") }
    return 0
}
