// motionkiosk: the kiosk executable. The command line is described as data (Commands.swift,
// parsed by CommandLineParser); each subcommand's wiring lives in its own file of this folder;
// logic lives in the modules.
#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import KioskRuntime
import Syscalls

exit(motionKioskMain(processArguments()))

func motionKioskMain(_ arguments: [String]) -> Int32 {
    // A closed stdout or stderr (a pipe whose reader went away) must not kill a subcommand.
    signal(SIGPIPE, SIG_IGN)
    // A clear refusal on a processor this build cannot run on, not a SIGILL in the first
    // frame. (The armhf build's own guard runs before this, in C: csystem.c's constructor,
    // as Swift code before this line already uses NEON there.)
    if let problem = ProcessorSupport.problem(system: LinuxSystem.shared) {
        printError("Error: \(problem)")
        return 1
    }
    // Before anything reads the local time: a TZ naming a FIFO would hang the first lookup.
    if let problem = ZoneFileGuard.makeSafe() { printError("warning: \(problem)") }
    let request: CommandLineRequest
    do { request = try motionKioskCommandLine.parse(arguments) } catch {
        var text = "Error: \(error.message)\n"
        if let name = error.command, let command = motionKioskCommandLine.subcommand(name) {
            text += "Usage: \(motionKioskCommandLine.usage(of: command))\n  See 'motionkiosk \(name) --help' for more information.\n"
        }
        printError(text, newline: false)
        return 64
    }
    switch request {
    case .show(let text):
        print(text, terminator: "")
        return standardOutputWritten(0)
    case .run(let command):
        let status: Int32
        do { status = try run(command) } catch {
            printError("Error: \(error)")
            status = 1
        }
        // The kiosk's own log lines are not its product; what the other commands print is.
        return command.name == "run" ? status : standardOutputWritten(status)
    }
}

/// `status`, or 1 with a message when what was printed did not all reach stdout (a full
/// disk, /dev/full, a closed pipe): a playbook must not take an empty file for success.
func standardOutputWritten(_ status: Int32) -> Int32 {
    errno = 0
    if flushStandardOutput() && !standardOutputFailed { return status }
    // errno is the failed write's when the flush failed; an earlier failure left only the flag.
    printError("Error: writing standard output failed" + (errno != 0 ? ": " + String(cString: strerror(errno)) : ""))
    return status == 0 ? 1 : status
}

func run(_ command: ParsedCommand) throws(KioskError) -> Int32 {
    switch command.name {
    case "run": return try runKiosk(command)
    case "version": print(motionKioskVersion); return 0
    case "check-config": return checkConfig(command)
    case "default-config": return defaultConfig()
    case "stats": return visitorStats(command)
    case "screenshot": return screenshot(command)
    case "replay": return try replay(command)
    case "sensors": return try sensors(command)
    case "devices": return try devices(command)
    case "pattern": return try pattern(command)
    case "calibrate": return try calibrate(command)
    default: throw KioskError("no subcommand \(command.name)")
    }
}

/// One line on standard error.
func printError(_ message: String, newline: Bool = true) {
    writeStandardStream(2, message + (newline ? "\n" : ""))
}

/// Lines on stdout, written at once (print() buffers when stdout is a pipe or a file, and
/// the board test reads the log while the kiosk runs).
func log(_ line: String) {
    if !writeStandardStream(1, line + "\n") { standardOutputFailed = true }
}

/// A line `log` wrote did not reach stdout.
nonisolated(unsafe) var standardOutputFailed = false
