#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import KioskRuntime
import Syscalls

/// `motionkiosk stats [--csv] [--file FILE]`: the visitor counts added up, from FILE.1 and FILE.
func visitorStats(_ c: ParsedCommand) -> Int32 {
    let path = c.string("file") ?? "/var/lib/motionkiosk/visitors.csv"
    var files: [(name: String, text: String)] = []
    for file in [path + ".1", path] {
        do { files.append((file, try readTextFile(file, limit: 8 * VisitorStatistics.rollBytes))) } catch {
            // Only a file that is not there means no counts; one that cannot be read is said.
            if !LinuxSystem.shared.fileExists(file) && errno == ENOENT { continue }
            printError("\(file): \(error)")
            return 1
        }
    }
    if files.isEmpty {
        printError("\(path): no visitor counts yet (nobody played, or [metrics] visitors_path is elsewhere)")
        return 1
    }
    do throws(VisitorStatistics.ReportProblem) {
        for line in try VisitorStatistics.report(files, csv: c.flag("csv"), warn: { printError($0) }) { print(line) }
    } catch {
        printError(error.description)
        return 1
    }
    return 0
}
