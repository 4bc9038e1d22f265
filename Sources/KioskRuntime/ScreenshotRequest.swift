#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Geometry
import Syscalls

/// `motionkiosk screenshot`: asks the running kiosk (SIGUSR2) for a PNG of what is on its
/// screen, waits for the service to replace its screenshot file, and copies that file out.
public struct ScreenshotRequest {
    public let system: any SystemCalls
    /// The service's pid file and the file its SIGUSR2 writes.
    public let pidFile: String
    public let screenshotFile: String
    /// Sends SIGUSR2 to a process: 0, or the errno.
    public let signal: (Int32) -> Int32
    /// Waits this many µs between two looks at the screenshot file.
    public let pause: (Microseconds) -> Void

    public init(system: any SystemCalls, pidFile: String, screenshotFile: String,
                signal: @escaping (Int32) -> Int32, pause: @escaping (Microseconds) -> Void) {
        self.system = system; self.pidFile = pidFile; self.screenshotFile = screenshotFile
        self.signal = signal; self.pause = pause
    }

    /// The exit status and the line to say (stdout when 0, stderr otherwise): 2 for a bad
    /// `--pid`, 1 when no kiosk answered.
    public func take(pid given: String?, out: String) -> (status: Int32, line: String) {
        var pid: Int32
        if let given {
            guard let p = Int32(given), p > 1 else { return (2, "--pid \(echoed(given)): expected a process id") }
            pid = p
        } else {
            let text: String?
            do { text = try system.readSmallFile(pidFile) } catch { text = nil }
            guard let text, let p = Int32(text.split(separator: "\n").first ?? ""), p > 1 else {
                return (1, "\(pidFile): no running kiosk service found (or give --pid)")
            }
            pid = p
        }
        let fromPidFile = given == nil ? " (from \(pidFile): a stale pid file?)" : ""
        switch KioskProcess.check(pid: pid, system: system) {
        case .kiosk: break
        case .noSuchProcess: return (1, "no process \(pid) is running\(fromPidFile)")
        case .otherProgram(let name): return (1, "process \(pid) is '\(name)', not \(KioskProcess.name)\(fromPidFile): not signalled")
        }
        let before = system.status(of: screenshotFile)
        let failed = signal(pid)
        guard failed == 0 else {
            return (1, "cannot signal process \(pid): \(SystemError(errno: failed, attempt: "kill").reason) (run as root or as the motionkiosk user)")
        }
        // The kiosk answers within a frame or two; an emulated board is slower.
        for _ in 0..<200 {
            if let now = system.status(of: screenshotFile),
               before.map({ now.modified != $0.modified || now.inode != $0.inode }) ?? true {
                do throws(SystemError) { try copy(screenshotFile, to: out) } catch { return (1, "\(out): \(error)") }
                return (0, "screenshot of process \(pid) written to \(out)")
            }
            pause(50_000)
        }
        return (1, "process \(pid) wrote no screenshot to \(screenshotFile) within 10 s")
    }

    private func copy(_ from: String, to: String) throws(SystemError) {
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
}
