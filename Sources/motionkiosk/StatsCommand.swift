#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import KioskRuntime
import Syscalls

/// `motionkiosk stats [--csv] [--file FILE]`: the visitor counts added up, from FILE.1 and FILE.
func visitorStats(_ c: ParsedCommand) -> Int32 {
    let path = c.string("file") ?? "/var/lib/motionkiosk/visitors.csv"
    var totals: [String: VisitorStatistics.Row] = [:]
    var found = 0
    for file in [path + ".1", path] {
        let text: String
        do { text = try readTextFile(file, limit: 8 * VisitorStatistics.rollBytes) } catch {
            // Only a file that is not there means no counts; one that cannot be read is said.
            if !LinuxSystem.shared.fileExists(file) && errno == ENOENT { continue }
            printError("\(file): \(error)")
            return 1
        }
        found += 1
        // The kiosk writes plain UTF-8 with LF line ends; a file saved by an editor on
        // another system is named for what it is, not reported as a bad count.
        if text.unicodeScalars.first == "\u{FEFF}" {
            printError("\(file): starts with a byte-order mark (U+FEFF): save it as UTF-8 without one")
            return 1
        }
        if let line = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(where: { $0.contains("\r") }) {
            printError("\(file): line \(line + 1) ends in CR LF (Windows line ends): the counts file has LF line ends only")
            return 1
        }
        let skipped = { (line: Int) in printError("warning: \(file): line \(line) was cut short (a power cut or a full disk); it is not counted") }
        do throws(VisitorStatistics.FileProblem) { try VisitorStatistics.totals(text, into: &totals, skipped: skipped) } catch {
            printError("\(file): \(error)")
            return 1
        }
    }
    if found == 0 {
        printError("\(path): no visitor counts yet (nobody played, or [metrics] visitors_path is elsewhere)")
        return 1
    }
    let rows = totals.keys.sorted().compactMap { totals[$0] }
    if c.flag("csv") {
        print(VisitorStatistics.header)
        for r in rows { print(r.csv) }
        return 0
    }
    // Per day and exhibit.
    var days: [String: VisitorStatistics.Row] = [:]
    for r in rows {
        var d = r
        d.hour = String(r.hour.prefix(10))
        days[d.hour + "," + r.exhibit, default: VisitorStatistics.Row(hour: d.hour, exhibit: r.exhibit)].add(d)
    }
    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    print(pad("day", 12) + pad("exhibit", 16) + pad("sessions", 10) + pad("minutes", 9) + pad("touches", 9) + pad("demos→play", 12) + "languages")
    for key in days.keys.sorted() {
        guard let r = days[key] else { continue }
        let langs = r.languages.keys.sorted().map { "\($0) \(r.languages[$0] ?? 0)" }.joined(separator: ", ")
        print(pad(r.hour, 12) + pad(r.exhibit, 16) + pad("\(r.sessions)", 10) + pad(fixed1(r.playSeconds / 60), 9)
              + pad("\(r.touches)", 9) + pad("\(r.attractConversions)", 12) + langs)
    }
    return 0
}
