import CommandLineParser
import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Syscalls

/// `motionkiosk pattern`: the installer's test pattern through the same frame loop.
func pattern(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let seconds: Double?
    do throws(CommandLineError) { seconds = try c.number("seconds", in: 0...31_536_000); _ = try c.nonEmpty("frame-file") } catch {
        throw KioskError(error.message)
    }
    let display = try displaySettings(c)
    let clock = MonotonicClock()
    let say: (String) -> Void = { log($0) }
    var settings = FrameLoopSettings()
    settings.frameFile = c.string("frame-file")
    settings.say = { say("pattern: \($0)") }
    settings.firstFrameLine = { "frame on screen, \(fixed1($0)) ms after main" }
    let frames: FrameLoop
    do throws(SystemError) {
        frames = FrameLoop(loop: try EventLoop(), clock: clock, log: Log(), content: TestPatternScene(say: say), settings: settings)
        try frames.leaveOnSignals(orAfter: seconds)
    } catch { throw KioskError("\(error)") }
    let wantsInput = !c.flag("no-input")
    let start: (any Display, TextConsole?) -> Void = { shown, console in
        do throws(SystemError) { try frames.start(display: shown, console: console) } catch {
            say("pattern: \(error)")
            frames.loop.stop()
            return
        }
        guard wantsInput else { return }
        do throws(SystemError) { try frames.attachInput(LibInputSeat(seat: display.seat)) } catch { say("pattern: no input (\(error))") }
    }
    let udev = try? LibUdev()
    let hotplug: DRMHotplugWait?
    // The screen unplugged and plugged back is followed as on a stand.
    var connectorWatch: ConnectorWatch?
    do throws(DisplayUnavailable) {
        hotplug = try startShowing(on: try chooseDisplay(display, udev: udev, clock: clock), settings: display, udev: udev,
                                   loop: frames.loop, clock: clock, say: { say("pattern: \($0)") }, warn: { say("pattern: \($0)") },
                                   virtualLine: { "showing the pattern on the virtual panel (\($0.name)): \($1)" },
                                   console: { TextConsole(system: LinuxSystem.shared) },
                                   drmShown: { connectorWatch = frames.followConnector(of: $0, settings: display.drm, udev: udev,
                                                                                        warn: { say("pattern: \($0)") }) },
                                   start: start)
    } catch { throw KioskError(error.description) }
    defer { _ = hotplug; _ = connectorWatch }
    do { try frames.run() } catch { throw KioskError("\(error)") }
    // Back with another mode: the pattern starts again for its size.
    if frames.startsAgain { startAgainInPlace(log: Log(), notifier: SystemdNotifier()) }
    return 0
}
