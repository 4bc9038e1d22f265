#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import Diagnostics
import KioskRuntime
import Syscalls

/// Where the running service keeps its process id and its screenshot (the unit's
/// RuntimeDirectory and StateDirectory).
let servicePidFile = "/run/motionkiosk/motionkiosk.pid"
let serviceScreenshotFile = "/var/lib/motionkiosk/screenshot.png"

/// `motionkiosk screenshot [--out FILE] [--pid PID]`: asks the running kiosk (SIGUSR2) for
/// a PNG of what is on its screen and copies it to FILE.
func screenshot(_ c: ParsedCommand) -> Int32 {
    let out = c.string("out") ?? "screenshot.png"
    var pid: Int32
    if let given = c.string("pid") {
        guard let p = Int32(given), p > 1 else { printError("--pid \(echoed(given)): expected a process id"); return 2 }
        pid = p
    } else {
        guard let text = try? LinuxSystem.shared.readSmallFile(servicePidFile),
              let p = Int32(text.split(separator: "\n").first ?? ""), p > 1 else {
            printError("\(servicePidFile): no running kiosk service found (or give --pid)")
            return 1
        }
        pid = p
    }
    let fromPidFile = c.string("pid") == nil ? " (from \(servicePidFile): a stale pid file?)" : ""
    switch KioskProcess.check(pid: pid, system: LinuxSystem.shared) {
    case .kiosk: break
    case .noSuchProcess:
        printError("no process \(pid) is running\(fromPidFile)")
        return 1
    case .otherProgram(let name):
        printError("process \(pid) is '\(name)', not \(KioskProcess.name)\(fromPidFile): not signalled")
        return 1
    }
    let before = LinuxSystem.shared.status(of: serviceScreenshotFile)
    guard kill(pid, SIGUSR2) == 0 else {
        printError("cannot signal process \(pid): \(String(cString: strerror(errno))) (run as root or as the motionkiosk user)")
        return 1
    }
    // The kiosk answers within a frame or two; an emulated board is slower.
    for _ in 0..<200 {
        // A new file (another inode, a later change) is the answer.
        if let now = LinuxSystem.shared.status(of: serviceScreenshotFile), before.map({ !now.isUnchanged(since: $0) }) ?? true {
            do throws(SystemError) { try copyFile(serviceScreenshotFile, to: out) } catch {
                printError("\(out): \(error)")
                return 1
            }
            print("screenshot of process \(pid) written to \(out)")
            return 0
        }
        usleep(50_000)
    }
    printError("process \(pid) wrote no screenshot to \(serviceScreenshotFile) within 10 s")
    return 1
}

private func copyFile(_ from: String, to: String) throws(SystemError) {
    let system = LinuxSystem.shared
    let input = try system.open(from, flags: O_RDONLY)
    defer { system.close(input) }
    let output = try system.open(to, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    defer { system.close(output) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
    defer { buffer.deallocate() }
    while true {
        let n = try system.read(input, into: buffer)
        if n == 0 { return }
        var done = 0
        while done < n {
            let w = try system.write(output, from: UnsafeRawBufferPointer(rebasing: buffer[done..<n]))
            if w <= 0 { throw SystemError(errno: EIO, attempt: "write \(to)") }
            done += w
        }
    }
}
