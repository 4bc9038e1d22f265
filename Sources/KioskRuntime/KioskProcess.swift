import Syscalls

/// Whether process `pid` is a running kiosk, asked before it is sent a signal: SIGUSR2
/// ends most programs, and a pid file outlives its process (a crash, a restart) while the
/// number goes to another. The kiosk is known by its name in /proc/PID/comm, or by its
/// first argument in /proc/PID/cmdline (a kiosk that started again in place runs as
/// `/proc/self/exe`, which the kernel names "exe"). Both are readable by every user.
public enum KioskProcess {
    public static let name = "motionkiosk"

    public enum Check: Equatable {
        case kiosk
        /// Another program, by the name /proc gives it.
        case otherProgram(String)
        case noSuchProcess
    }

    public static func check(pid: Int32, system: any SystemCalls, proc: String = "/proc") -> Check {
        let folder = "\(proc)/\(pid)"
        let comm = (try? system.readSmallFile(folder + "/comm")) ?? nil
        let cmdline = (try? system.readSmallFile(folder + "/cmdline")) ?? nil
        guard comm != nil || cmdline != nil else { return .noSuchProcess }
        let command = comm.map { String($0.split(separator: "\n").first ?? "") } ?? ""
        let first = cmdline.map { String($0.split(separator: "\0", omittingEmptySubsequences: false).first ?? "") } ?? ""
        let program = String(first.split(separator: "/").last ?? "")
        if command == name || program == name { return .kiosk }
        // At most a line of it, its control characters shown as "?": it is printed to a terminal.
        let shown = (command.isEmpty ? program : command).prefix(64).map { $0.isASCII && ($0.asciiValue ?? 0) < 0x20 || $0 == "\u{7F}" ? "?" : String($0) }
        return .otherProgram(shown.joined())
    }
}
