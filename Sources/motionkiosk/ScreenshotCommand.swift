#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import Geometry
import KioskRuntime
import Syscalls

/// Where the running service keeps its process id and its screenshot (the unit's
/// RuntimeDirectory and StateDirectory).
let servicePidFile = "/run/motionkiosk/motionkiosk.pid"
let serviceScreenshotFile = "/var/lib/motionkiosk/screenshot.png"

/// `motionkiosk screenshot [--out FILE] [--pid PID]`: asks the running kiosk (SIGUSR2) for
/// a PNG of what is on its screen and copies it to FILE.
func screenshot(_ c: ParsedCommand) -> Int32 {
    let request = ScreenshotRequest(system: LinuxSystem.shared, pidFile: servicePidFile, screenshotFile: serviceScreenshotFile,
                                    signal: { kill($0, SIGUSR2) == 0 ? 0 : errno }, pause: { _ = usleep(UInt32(clamping: $0)) })
    let (status, line) = request.take(pid: c.string("pid"), out: c.string("out") ?? "screenshot.png")
    if status == 0 { print(line) } else { printError(line) }
    return status
}
