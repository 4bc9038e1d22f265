import CommandLineParser
import Diagnostics
import Exhibits
import KioskConfig
import KioskRuntime
import Platform
import Syscalls

/// `motionkiosk calibrate [--save]`: the touch calibration screen on the stand's display,
/// through its present `[touch]` settings (KioskRuntime/CalibrationSession.swift). Each fit
/// prints the `[touch]` line; with --save it is written into the configuration file, after
/// the whole file was checked as a reload checks it (then `systemctl reload motionkiosk`
/// applies it).
func calibrate(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let seconds: Double?
    do throws(CommandLineError) { seconds = try c.number("seconds", in: 0...31_536_000) } catch { throw KioskError(error.message) }
    let configuration = try loadConfiguration(c.string("config"))
    let display = try displaySettings(c, base: configuration.displaySettings)
    let clock = MonotonicClock()
    let fonts: FontSet
    do { fonts = try FontSet(regularPaths: configuration.text.fonts, boldPaths: configuration.text.boldFonts) } catch { throw KioskError("fonts: \(error)") }
    let loop: EventLoop
    do throws(SystemError) { loop = try EventLoop() } catch { throw KioskError("\(error)") }
    let session = try CalibrationSession(configuration: configuration, configurationPath: c.string("config") ?? KioskConfiguration.defaultPath,
                                         save: c.flag("save"), fonts: fonts, loop: loop, clock: clock, log: Log(), seconds: seconds,
                                         say: { log($0) })
    let udev = try? LibUdev()
    let choice: DisplayChoice
    do throws(DisplayUnavailable) { choice = try chooseDisplay(display, udev: udev, clock: clock) } catch { throw KioskError(error.description) }
    try session.show(choice, settings: display, udev: udev, console: { TextConsole(system: LinuxSystem.shared) },
                     openInput: { () throws(SystemError) -> any InputEventSource in try LibInputSeat(seat: display.seat) })
    if try session.run() { startAgainInPlace(log: Log(), notifier: SystemdNotifier()) }
    return 0
}
