import Diagnostics

/// What `motionkiosk stats` prints: the counts of the statistics files added up, as CSV or
/// as a table per day and exhibit.
extension VisitorStatistics {
    /// A file that cannot be counted, in words naming it (and the line).
    public struct ReportProblem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The lines of the report over `files` (name and text, oldest first); `warn` hears of
    /// lines cut short, which are left out.
    public static func report(_ files: [(name: String, text: String)], csv: Bool,
                              warn: (String) -> Void) throws(ReportProblem) -> [String] {
        var sums: [String: Row] = [:]
        for (file, text) in files {
            // The kiosk writes plain UTF-8 with LF line ends; a file saved by an editor on
            // another system is named for what it is, not reported as a bad count.
            if text.unicodeScalars.first == "\u{FEFF}" {
                throw ReportProblem(description: "\(file): starts with a byte-order mark (U+FEFF): save it as UTF-8 without one")
            }
            if let line = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(where: { $0.contains("\r") }) {
                throw ReportProblem(description: "\(file): line \(line + 1) ends in CR LF (Windows line ends): the counts file has LF line ends only")
            }
            let skipped = { (line: Int) in warn("warning: \(file): line \(line) was cut short (a power cut or a full disk); it is not counted") }
            do throws(FileProblem) { try totals(text, into: &sums, skipped: skipped) } catch {
                throw ReportProblem(description: "\(file): \(error)")
            }
        }
        let rows = sums.keys.sorted().compactMap { sums[$0] }
        return csv ? [header] + rows.map { $0.csv } : table(rows)
    }

    /// Per day and exhibit.
    private static func table(_ rows: [Row]) -> [String] {
        var days: [String: Row] = [:]
        for r in rows {
            var d = r
            d.hour = String(r.hour.prefix(10))
            days[d.hour + "," + r.exhibit, default: Row(hour: d.hour, exhibit: r.exhibit)].add(d)
        }
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        var lines = [pad("day", 12) + pad("exhibit", 16) + pad("sessions", 10) + pad("minutes", 9) + pad("touches", 9) + pad("demos→play", 12) + "languages"]
        for key in days.keys.sorted() {
            guard let r = days[key] else { continue }
            let langs = r.languages.keys.sorted().map { "\($0) \(r.languages[$0] ?? 0)" }.joined(separator: ", ")
            lines.append(pad(r.hour, 12) + pad(r.exhibit, 16) + pad("\(r.sessions)", 10) + pad(fixed1(r.playSeconds / 60), 9)
                         + pad("\(r.touches)", 9) + pad("\(r.attractConversions)", 12) + langs)
        }
        return lines
    }
}
