import CommandLineParser
import KioskRuntime
import Platform
import Syscalls

/// `motionkiosk devices`: what the kiosk would find and choose.
func devices(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let display = try displaySettings(c)
    let lines = DeviceReport.displayLines(display, system: LinuxSystem.shared, drm: LibDRM(), udev: try? LibUdev())
        + DeviceReport.inputLines(seat: display.seat) { () throws(SystemError) -> any InputEventSource in
            try LibInputSeat(seat: display.seat)
        }
        + DeviceReport.sensorLines()
    for line in lines { print(line) }
    return 0
}
