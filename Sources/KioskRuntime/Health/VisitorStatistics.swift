#if canImport(Glibc)
import Glibc
#endif
import Exhibits
import Geometry
import OpeningHours
import Syscalls

/// Anonymous visitor counts per exhibit and local hour: sessions, time played, touches,
/// languages, demos that turned into play. Kept as lines of increments appended to a small
/// CSV file (no writes while nobody plays; each append synced), which rolls over to
/// `<file>.1` past a size so two files bound it; `motionkiosk stats` adds the lines up. Nothing in it can tell one visitor
/// from another.
public final class VisitorStatistics {
    public static let header = "hour,exhibit,sessions,play_seconds,touches,attract_conversions,languages"
    /// Past this size the file becomes `<file>.1` (the one before is dropped): about 45 days
    /// of a busy five-exhibit stand each.
    public static let rollBytes = 1 << 20

    public struct Row: Equatable, Sendable {
        public var hour: String
        public var exhibit: String
        public var sessions = 0
        public var playSeconds = 0.0
        public var touches = 0
        public var attractConversions = 0
        /// Sessions by language code.
        public var languages: [String: Int] = [:]

        public init(hour: String, exhibit: String) { self.hour = hour; self.exhibit = exhibit }

        public var csv: String {
            let langs = languages.keys.sorted().map { "\($0):\(languages[$0] ?? 0)" }.joined(separator: " ")
            return "\(hour),\(exhibit),\(sessions),\(fixed1(playSeconds)),\(touches),\(attractConversions),\(langs)"
        }

        public mutating func add(_ other: Row) {
            sessions += other.sessions; playSeconds += other.playSeconds; touches += other.touches
            attractConversions += other.attractConversions
            for (k, v) in other.languages { languages[k, default: 0] += v }
        }
    }

    private var pending: [String: Row] = [:]
    private let wallClock: (Microseconds) -> CivilTime

    public init(wallClock: @escaping (Microseconds) -> CivilTime) { self.wallClock = wallClock }

    static func hour(_ t: CivilTime) -> String { String(t.description.prefix(13)) }

    private func row(_ time: Microseconds, _ exhibit: String) -> Row {
        let h = VisitorStatistics.hour(wallClock(time))
        return pending[h + "," + exhibit] ?? Row(hour: h, exhibit: exhibit)
    }
    private func store(_ r: Row) { pending[r.hour + "," + r.exhibit] = r }

    /// Adds what the kiosk saw; a session counts in the hour it began.
    public func add(_ events: VisitorEvents) {
        for s in events.sessions {
            var r = row(s.start, s.exhibit)
            r.sessions += 1
            r.playSeconds += Double(max(0, s.end - s.start)) / 1_000_000
            r.touches += s.touches
            r.languages[s.language, default: 0] += 1
            store(r)
        }
        for c in events.conversions {
            var r = row(c.time, c.exhibit)
            r.attractConversions += 1
            store(r)
        }
    }

    public var hasPending: Bool { !pending.isEmpty }

    /// The rows gathered since the last flush, in hour and exhibit order.
    public func pendingRows() -> [Row] { pending.keys.sorted().compactMap { pending[$0] } }

    /// Written after a line that a power cut or a full disk left without its end, when the
    /// next rows are appended: readers leave that line out (`totals`).
    public static let cutShortMark = "# the line above was cut short (a power cut or a full disk) and is not counted"

    /// Appends the pending rows to `path` (rolling it first when it is large) and syncs them:
    /// after a power cut the rows are there whole, or a last line is cut short (never a row
    /// lost that an earlier flush returned from). A new file's folder is synced too, so the
    /// file itself survives the cut. A file that does not end with a newline (a write cut
    /// short) gets one and `cutShortMark` first, so that no row is glued onto the torn one.
    public func flush(to path: String, system: any SystemCalls) throws(SystemError) {
        guard hasPending else { return }
        var fd = try system.open(path, flags: O_RDWR | O_CREAT | O_APPEND, mode: 0o640)
        defer { if fd >= 0 { system.close(fd) } }   // -1: the roll failed after closing it
        var size = system.status(of: fd)?.size ?? 0
        if size >= Int64(VisitorStatistics.rollBytes) {
            system.close(fd)
            fd = -1
            // Every row of the full file was synced when it was appended: the rename and the
            // new file are what the folder's sync below makes durable.
            try system.rename(path, to: path + ".1")
            fd = try system.open(path, flags: O_RDWR | O_CREAT | O_APPEND, mode: 0o640)
            size = 0
        }
        var text = ""
        if size == 0 {
            text = VisitorStatistics.header + "\n"
        } else {
            var last: UInt8 = 0
            let n = try withUnsafeMutableBytes(of: &last) { (b) throws(SystemError) -> Int in try system.read(fd, at: size - 1, into: b) }
            if n == 1 && last != UInt8(ascii: "\n") { text = "\n" + VisitorStatistics.cutShortMark + "\n" }
        }
        for r in pendingRows() { text += r.csv + "\n" }
        try writeAll(Array(text.utf8), to: fd, named: path, system: system)
        try system.syncFile(fd, named: path)
        if size == 0 { try syncFolder(containing: path, system: system) }
        pending.removeAll()
    }

    /// A line of the file that is not one of ours, by its number.
    public struct FileProblem: Error, CustomStringConvertible, Sendable {
        public let line: Int
        public let problem: String
        public var description: String { "line \(line): \(problem)" }
    }

    /// The rows of a statistics file's text, each (hour, exhibit) summed; lines are checked
    /// before any number is believed. A line cut short (the last one without a newline, or
    /// one followed by `cutShortMark`) is left out and `skipped` is told its number: its
    /// numbers may be cut too.
    public static func totals(_ text: String, into totals: inout [String: Row],
                              skipped: (Int) -> Void = { _ in }) throws(FileProblem) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, line) in lines.enumerated() {
            if line.isEmpty || line == Substring(header) || line.hasPrefix("#") { continue }
            let lastWithoutNewline = i == lines.count - 1
            let markedCut = i + 1 < lines.count && lines[i + 1] == Substring(cutShortMark)
            if lastWithoutNewline || markedCut {
                skipped(i + 1)
                continue
            }
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == 7 else { throw FileProblem(line: i + 1, problem: "expected 7 fields, found \(f.count)") }
            guard f[0].count == 13, CivilTime(iso: String(f[0]) + ":00") != nil else {
                throw FileProblem(line: i + 1, problem: "'\(f[0])' is not an hour like 2026-11-23T14")
            }
            guard !f[1].isEmpty, f[1].count <= 64 else { throw FileProblem(line: i + 1, problem: "bad exhibit name") }
            guard let sessions = Int(f[2]), let seconds = Double(f[3]), let touches = Int(f[4]), let conversions = Int(f[5]),
                  (0...1_000_000).contains(sessions), seconds.isFinite, (0...1e9).contains(seconds),
                  (0...100_000_000).contains(touches), (0...1_000_000).contains(conversions) else {
                throw FileProblem(line: i + 1, problem: "a count is not a number in range")
            }
            var r = Row(hour: String(f[0]), exhibit: String(f[1]))
            r.sessions = sessions; r.playSeconds = seconds; r.touches = touches; r.attractConversions = conversions
            for item in f[6].split(separator: " ") {
                let kv = item.split(separator: ":")
                guard kv.count == 2, kv[0].count <= 8, let n = Int(kv[1]), (0...1_000_000).contains(n) else {
                    throw FileProblem(line: i + 1, problem: "'\(item)' is not a language count like en:3")
                }
                r.languages[String(kv[0]), default: 0] += n
            }
            totals[r.hour + "," + r.exhibit, default: Row(hour: r.hour, exhibit: r.exhibit)].add(r)
        }
    }
}
