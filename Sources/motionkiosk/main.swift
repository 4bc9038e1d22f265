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
    // Before anything reads the local time: a TZ naming a FIFO would hang the first lookup.
    if let problem = LocalTimeZone.makeSafe() { printError("warning: \(problem)") }
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
        return 0
    case .run(let command):
        do { return try run(command) } catch {
            printError("Error: \(error)")
            return 1
        }
    }
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
    default: throw KioskError("no subcommand \(command.name)")
    }
}

/// One line on standard error.
func printError(_ message: String, newline: Bool = true) {
    var line = message + (newline ? "\n" : "")
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Lines on stdout, written at once (print() buffers when stdout is a pipe or a file, and
/// the board test reads the log while the kiosk runs).
func log(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}
