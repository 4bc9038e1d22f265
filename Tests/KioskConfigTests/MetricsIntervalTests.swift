import Foundation
import KioskConfig
import Testing

/// The metrics file's default pace: every write is a durable replace (temporary file, fsync,
/// rename, fsync of the folder), 120-170 kB of ext4 writes (the nights board's count: 492 kB
/// a minute at 15 s, 172 at 60 s), so the pace is the card's wear; and the fleet's
/// stale-metrics alert reads the file's age, so the pace must stay well inside it.
@Suite struct MetricsIntervalTests {
    /// The age (s) at which board/fleet/motionkiosk-alerts.yml calls the metrics stale.
    private func staleAlertSeconds() throws -> Int {
        let repo = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let rules = try String(contentsOfFile: "/" + repo + "/board/fleet/motionkiosk-alerts.yml", encoding: .utf8)
        let line = try #require(rules.split(separator: "\n").first { $0.contains("node_textfile_mtime_seconds") && $0.contains("motionkiosk") })
        return try #require(line.split(separator: ">").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
    }

    @Test func theDefaultPaceSparesTheCardAndKeepsTheStaleAlertQuiet() throws {
        let interval = KioskConfiguration().metrics.intervalSeconds
        // A 9-hour open day of writes at up to 170 kB each: about 90 MB at 60 s (it was 260 MB
        // at 15 s, 4,320 fsyncs a day, nearly all the kiosk wrote to the card at rest).
        let writesPerDay = 9 * 3600 / interval
        #expect(writesPerDay * 170 / 1000 <= 100, "\(writesPerDay) writes a day, ~\(writesPerDay * 170 / 1000) MB")
        // Two writes fit in the alert's age: one slow write does not page anybody.
        let stale = try staleAlertSeconds()
        #expect(2 * interval <= stale, "every \(interval) s against an alert at \(stale) s")
        // The default file says the same.
        #expect(KioskConfiguration.defaultFileText.contains("\ninterval_seconds = \(interval)\n"))
    }
}
