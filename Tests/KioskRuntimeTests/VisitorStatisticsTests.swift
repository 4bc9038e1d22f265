#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import OpeningHours
import Raster
import Syscalls
import SystemFakes
import Testing

@Suite struct VisitorStatisticsTests {
    func tap(_ app: KioskApp, _ p: Vec2, at t: Microseconds) {
        app.advance(to: t)
        app.handle(TouchFrame([TouchEvent(slot: 0, phase: .down, position: p, time: t, device: 1)]))
        app.advance(to: t + 60_000)
        app.handle(TouchFrame([TouchEvent(slot: 0, phase: .up, position: p, time: t + 60_000, device: 1)]))
        // Past the lift debounce: the tap is recognised, as the loop's deadline timer would.
        app.advance(to: t + 200_000)
    }

    @Test func aVisitIsCountedInItsHourAndTheFileAddsUp() throws {
        var settings = KioskApp.Settings()
        settings.order = ["grid-block", "tilt-box"]
        settings.languages = ["en", "fr"]
        settings.attractAfter = nil
        let app = KioskApp(settings: settings, fonts: try FontSet(), log: Log(minimum: .error))
        guard case .array(let controls)? = app.state()["controls"],
              let tile = controls.first(where: { $0["id"] == .string("exhibit.grid-block") }),
              let french = controls.first(where: { $0["id"] == .string("language.fr") }),
              case .number(let tx)? = tile["x"], case .number(let ty)? = tile["y"],
              case .number(let fx)? = french["x"], case .number(let fy)? = french["y"] else {
            Issue.record("no controls"); return
        }
        tap(app, Vec2(fx, fy), at: 500_000)
        tap(app, Vec2(tx, ty), at: 1_000_000)
        for k in 0..<3 { tap(app, Vec2(240, 500), at: 2_000_000 + Microseconds(k) * 1_000_000) }
        tap(app, app.homeControlFrame.center, at: 10_000_000)
        app.advance(to: 11_000_000)
        let events = app.takeVisitorEvents()
        #expect(events.sessions.count == 1)
        let s = try #require(events.sessions.first)
        #expect(s.exhibit == "grid-block" && s.language == "fr")
        #expect(s.touches == 4, "three on the grid and the home tap")
        // From the tap that opened it (recognised at the lift) to the visitor's last touch.
        #expect(s.start > 1_000_000 && s.start <= 1_200_000, "\(s.start)")
        #expect(s.end >= 10_000_000 && s.end <= 10_200_000, "\(s.end)")
        let played = Double(s.end - s.start) / 1_000_000
        #expect(app.takeVisitorEvents().sessions.isEmpty, "taken once")

        let stats = VisitorStatistics(wallClock: StandSchedule.fixedStart(try #require(CivilTime(iso: "2026-11-23T14:59:59")), origin: 0))
        stats.add(events)
        let path = "/tmp/motionkiosk-visitors-\(getpid()).csv"
        defer { unlink(path); unlink(path + ".1") }
        try stats.flush(to: path, system: LinuxSystem.shared)
        #expect(!stats.hasPending)
        try stats.flush(to: path, system: LinuxSystem.shared)   // nothing new: nothing written
        var again = VisitorEvents()
        again.sessions = [VisitorSession(exhibit: "grid-block", start: 1_800_000_000, end: 1_830_000_000, touches: 7, language: "en")]
        again.conversions = [("tilt-box", 1_900_000_000)]
        stats.add(again)
        try stats.flush(to: path, system: LinuxSystem.shared)
        let text = try #require(try LinuxSystem.shared.readSmallFile(path))
        #expect(text.hasPrefix(VisitorStatistics.header + "\n"))
        #expect(text.split(separator: "\n").count == 4, "the header, one row, then two rows")
        var totals: [String: VisitorStatistics.Row] = [:]
        try VisitorStatistics.totals(text, into: &totals)
        let grid = try #require(totals["2026-11-23T15,grid-block"])
        #expect(grid.sessions == 2 && grid.touches == 11 && abs(grid.playSeconds - (played + 30)) < 0.1)
        #expect(grid.languages == ["fr": 1, "en": 1])
        #expect(totals["2026-11-23T15,tilt-box"]?.attractConversions == 1)

        // A line that is not ours is named by its number; nothing is believed from it.
        var ignored: [String: VisitorStatistics.Row] = [:]
        #expect(throws: VisitorStatistics.FileProblem.self) {
            try VisitorStatistics.totals(VisitorStatistics.header + "\n2026-11-23T15,grid-block,1e99,0,0,0,\n", into: &ignored)
        }
        do {
            try VisitorStatistics.totals("2026-11-23T15,grid-block,1,2,3,4,en:x\n", into: &ignored)
            Issue.record("a language count of 'x' was believed")
        } catch {
            #expect(error.line == 1 && error.problem.contains("en:x"))
        }
    }

    /// A power cut or a full disk leaves the last row without its end: `stats` leaves that
    /// row out and says so instead of refusing the file; the kiosk's next append starts a
    /// new line (and marks the torn one) instead of gluing its row onto it.
    @Test func aTornLastLineIsLeftOutAndTheNextAppendStartsANewLine() throws {
        let tree = TempTree()
        let path = tree.path("visitors.csv")
        let whole = VisitorStatistics.header + "\n2026-11-23T14,grid-block,2,30.0,11,0,en:2\n"
        tree.write("visitors.csv", whole + "2026-11-23T15,tilt-box,1,12.5,4")
        var totals: [String: VisitorStatistics.Row] = [:]
        var skipped: [Int] = []
        try VisitorStatistics.totals(try #require(try LinuxSystem.shared.readSmallFile(path)), into: &totals, skipped: { skipped.append($0) })
        #expect(skipped == [3])
        #expect(totals.count == 1 && totals["2026-11-23T14,grid-block"]?.sessions == 2)

        let stats = VisitorStatistics(wallClock: StandSchedule.fixedStart(try #require(CivilTime(iso: "2026-11-23T16:00:00")), origin: 0))
        var events = VisitorEvents()
        events.sessions = [VisitorSession(exhibit: "tilt-box", start: 0, end: 20_000_000, touches: 3, language: "de")]
        stats.add(events)
        try stats.flush(to: path, system: LinuxSystem.shared)
        let text = try #require(try LinuxSystem.shared.readSmallFile(path))
        #expect(text == whole + "2026-11-23T15,tilt-box,1,12.5,4\n" + VisitorStatistics.cutShortMark + "\n2026-11-23T16,tilt-box,1,20.0,3,0,de:1\n", "\(text)")
        totals = [:]
        skipped = []
        try VisitorStatistics.totals(text, into: &totals, skipped: { skipped.append($0) })
        #expect(skipped == [3], "the torn row is still left out, once marked")
        #expect(totals.count == 2 && totals["2026-11-23T16,tilt-box"]?.touches == 3)

        // A whole file gets no mark.
        stats.add(events)
        try stats.flush(to: path, system: LinuxSystem.shared)
        let after = try #require(try LinuxSystem.shared.readSmallFile(path))
        #expect(after == text + "2026-11-23T16,tilt-box,1,20.0,3,0,de:1\n")
    }


    /// Each append is synced before flush returns, and a file that was created (or rolled)
    /// has its folder synced too: a power cut after a flush loses none of its rows.
    @Test func everyAppendIsSyncedAndANewFileItsFolderToo() throws {
        let tree = TempTree()
        let path = tree.path("visitors.csv")
        let system = FileSystemWithFaults()
        let stats = VisitorStatistics(wallClock: StandSchedule.fixedStart(try #require(CivilTime(iso: "2026-11-23T16:00:00")), origin: 0))
        var events = VisitorEvents()
        events.sessions = [VisitorSession(exhibit: "tilt-box", start: 0, end: 20_000_000, touches: 3, language: "de")]
        stats.add(events)
        try stats.flush(to: path, system: system)
        let first = system.calls.filter { $0.hasPrefix("write ") || $0.hasPrefix("syncFile ") }
        #expect(first == ["write \(path)", "syncFile \(path)", "syncFile \(tree.root)"], "\(first)")

        stats.add(events)
        try stats.flush(to: path, system: system)
        let second = system.calls.filter { $0.hasPrefix("write ") || $0.hasPrefix("syncFile ") }.dropFirst(first.count)
        #expect(Array(second) == ["write \(path)", "syncFile \(path)"], "an append to a file that was there: the file only")

        // A sync that fails is an error of the flush (said by the loop), and the rows stay
        // pending for the next one.
        stats.add(events)
        system.fail(.syncFile, errno: EIO)
        #expect(throws: SystemError.self) { try stats.flush(to: path, system: system) }
        #expect(stats.hasPending)

        // The roll: the full file moves aside, the new one and the move are made durable by
        // the folder's sync.
        tree.write("visitors.csv", VisitorStatistics.header + "\n" + String(repeating: "#\n", count: VisitorStatistics.rollBytes / 2))
        let before = system.calls.count
        try stats.flush(to: path, system: system)
        let roll = system.calls.dropFirst(before).filter { $0.hasPrefix("rename ") || $0.hasPrefix("write ") || $0.hasPrefix("syncFile ") }
        #expect(Array(roll) == ["rename \(path) \(path).1", "write \(path)", "syncFile \(path)", "syncFile \(tree.root)"], "\(roll)")
    }
}
