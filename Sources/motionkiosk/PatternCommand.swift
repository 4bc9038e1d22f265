import CommandLineParser
import Diagnostics
import KioskRuntime
import Platform
import Syscalls

/// `motionkiosk pattern`: the installer's test pattern through the same frame loop, its
/// screen followed when unplugged and plugged back (KioskRuntime/TestPatternSession.swift).
func pattern(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let seconds: Double?
    do throws(CommandLineError) { seconds = try c.number("seconds", in: 0...31_536_000); _ = try c.nonEmpty("frame-file") } catch {
        throw KioskError(error.message)
    }
    let display = try displaySettings(c)
    let clock = MonotonicClock()
    let loop: EventLoop
    do throws(SystemError) { loop = try EventLoop() } catch { throw KioskError("\(error)") }
    let session = try testPatternSession(loop: loop, clock: clock, seconds: seconds, frameFile: c.string("frame-file"), say: { log($0) })
    let udev = try? LibUdev()
    let choice: DisplayChoice
    do throws(DisplayUnavailable) { choice = try chooseDisplay(display, udev: udev, clock: clock) } catch { throw KioskError(error.description) }
    let openInput: (() throws(SystemError) -> any InputEventSource)? = c.flag("no-input") ? nil : {
        () throws(SystemError) -> any InputEventSource in try LibInputSeat(seat: display.seat)
    }
    try session.show(choice, settings: display, udev: udev, virtualLine: ScreenSession.patternOnVirtualPanel,
                     console: { TextConsole(system: LinuxSystem.shared) }, openInput: openInput)
    // Back with another mode: the pattern starts again for its size.
    if try session.run() { startAgainInPlace(log: Log(), notifier: SystemdNotifier()) }
    return 0
}
