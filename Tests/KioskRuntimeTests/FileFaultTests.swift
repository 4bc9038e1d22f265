#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import OpeningHours
import KioskRuntime
import Platform
import Syscalls
import SystemFakes
import Testing
import Trace

/// The files the kiosk reads and writes (configurations, traces, state files, visitor
/// statistics, metrics), each call failed through SystemFakes' one mechanism: the error names
/// the file, nothing is left open, and the kiosk goes on as each says.
@Suite struct TextFileFaultTests {
    @Test(arguments: [(SystemCallLog.Call.open, "Permission denied"), (.status, "fstat "), (.read, "Input/output error")])
    func aConfigurationThatCannotBeReadSaysWhyAndIsClosed(_ call: SystemCallLog.Call, _ said: String) throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        tree.write("stand.toml", "[display]\nrotation = 90\n")
        disk.fail(call, errno: call == .open ? EACCES : EIO)
        var reason: String?
        do { _ = try readTextFile(tree.path("stand.toml"), system: disk) } catch { reason = error.reason }
        #expect(reason.map { call == .status ? $0 == "Input/output error" : $0 == said } == true, "\(reason ?? "read")")
        #expect(disk.count(of: .close) == (call == .open ? 0 : 1), "\(disk.calls)")
        // The same file reads whole once the disk answers again.
        #expect(try readTextFile(tree.path("stand.toml"), system: disk) == "[display]\nrotation = 90\n")
    }

    @Test func aStateFileOnAFullDiskNamesTheFile() {
        let tree = TempTree(), disk = FileSystemWithFaults()
        disk.fail(.write, errno: ENOSPC)
        let path = tree.path("state.json")
        #expect(throws: (any Error).self) { try writeTextFile(path, "{}\n", system: disk) }
        var reason = ""
        disk.fail(.write, errno: ENOSPC)
        do { try writeTextFile(path, "{}\n", system: disk) } catch { reason = error.reason }
        #expect(reason == "\(path): No space left on device")
        #expect(disk.count(of: .open) == disk.count(of: .close))
    }

    @Test func aFolderThatCannotBeMadeIsNamed() {
        let tree = TempTree(), disk = FileSystemWithFaults()
        disk.fail(.makeDirectory, of: "replay/out", errno: EACCES)
        var reason = ""
        do { try makeDirectories(tree.path("replay/out/frames"), system: disk) } catch { reason = error.reason }
        #expect(reason.hasPrefix("cannot create /") && reason.hasSuffix("/replay/out/: Permission denied"), "\(reason)")
        #expect(isFolder(tree.path("replay")) && !isFolder(tree.path("replay/out")))
    }
}

@Suite struct TraceFileFaultTests {
    /// A trace longer than the stream's first 64 kB chunk, so that a later read fails.
    func longTrace(_ tree: TempTree) -> String {
        var text = "{\"trace\":\"motionkiosk\",\"version\":1,\"width\":480,\"height\":800}\n"
        for i in 0..<4000 { text += "{\"t\":\(i),\"type\":\"checkpoint\",\"name\":\"visit\"}\n" }
        tree.write("visit.jsonl", text)
        return tree.path("visit.jsonl")
    }

    @Test func aReadErrorPartWayNamesTheTraceAndTheLineAndClosesIt() throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let path = longTrace(tree)
        let clean = try TraceFileStream.check(path: path)
        disk.fail(.read, nth: 2, errno: EIO)
        var failure: TraceError?
        do { _ = try TraceFileStream.check(path: path, system: disk) } catch { failure = error }
        let error = try #require(failure)
        #expect(error.source == path && error.line > 1 && error.line < clean.records)
        #expect("\(error)".contains("read: Input/output error"), "\(error)")
        #expect(disk.count(of: .open) == 1 && disk.count(of: .close) == 1)
    }

    @Test func aTraceThatCannotBeOpenedIsRefusedByName() {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let path = longTrace(tree)
        disk.fail(.open, errno: EACCES)
        var failure: TraceError?
        do { _ = try TraceFileStream.check(path: path, system: disk) } catch { failure = error }
        #expect(failure?.source == path && failure?.line == 0 && "\(failure.map { "\($0)" } ?? "")".contains("Permission denied"))
    }
}

@Suite struct VisitorStatisticsFaultTests {
    func statistics() throws -> VisitorStatistics {
        let stats = VisitorStatistics(wallClock: StandSchedule.fixedStart(try #require(CivilTime(iso: "2026-11-23T14:00:00")), origin: 0))
        var events = VisitorEvents()
        events.sessions.append(VisitorSession(exhibit: "tilt-box", start: 1_000_000, end: 9_000_000, touches: 3, language: "en"))
        stats.add(events)
        return stats
    }

    @Test(arguments: [SystemCallLog.Call.open, .write])
    func rowsThatCannotBeWrittenAreKeptForTheNextFlush(_ call: SystemCallLog.Call) throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let stats = try statistics()
        let path = tree.path("visitors.csv")
        disk.fail(call, errno: ENOSPC)
        var failure: SystemError?
        do { try stats.flush(to: path, system: disk) } catch { failure = error }
        #expect(failure?.attempt.contains(path) == true && failure?.errno == ENOSPC, "\(String(describing: failure))")
        #expect(stats.hasPending, "nothing is lost")
        try stats.flush(to: path, system: disk)
        #expect(!stats.hasPending)
        var totals: [String: VisitorStatistics.Row] = [:]
        let written = try readTextFile(path)
        try VisitorStatistics.totals(written, into: &totals)
        #expect(totals.values.map(\.sessions).reduce(0, +) == 1 && written.split(separator: "\n").count == 2, "one header, one row: \(written)")
        #expect(disk.count(of: .open) - disk.failures.filter { $0.call == .open }.count == disk.count(of: .close))
    }
}

extension VisitorStatisticsFaultTests {
    /// A full file that cannot be moved aside (or its successor not created) keeps the
    /// rows for the next flush, and closes only what it opened.
    @Test(arguments: [(SystemCallLog.Call.rename, 1), (.open, 2)])
    func aRollThatFailsKeepsTheRowsAndClosesOnlyWhatItOpened(_ fault: (call: SystemCallLog.Call, nth: Int)) throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let stats = try statistics()
        let path = tree.path("visitors.csv")
        tree.write("visitors.csv", VisitorStatistics.header + "\n" + String(repeating: "#\n", count: VisitorStatistics.rollBytes / 2))
        disk.fail(fault.call, nth: fault.nth, errno: EIO)
        var failure: SystemError?
        do { try stats.flush(to: path, system: disk) } catch { failure = error }
        #expect(failure?.errno == EIO, "\(String(describing: failure))")
        #expect(stats.hasPending, "nothing is lost")
        let closed = disk.subjects(of: .close)
        #expect(disk.count(of: .open) - disk.failures.filter { $0.call == .open }.count == disk.count(of: .close), "\(disk.calls)")
        #expect(!closed.contains("fd -1"), "never close(-1): \(closed)")
        try stats.flush(to: path, system: disk)
        #expect(!stats.hasPending)
    }
}

@Suite struct MetricsFaultTests {
    /// A metrics file that cannot be replaced is a warning said once, naming the file and the
    /// failed step; the stand runs on.
    @Test(arguments: [SystemCallLog.Call.createUniqueFile, .write, .syncFile, .rename])
    func aMetricsFileThatCannotBeWrittenIsSaidOnceAndTheStandRunsOn(_ call: SystemCallLog.Call) throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        let scene = KioskScene(settings: KioskApp.Settings(), fonts: try FontSet(), log: quietLog())
        var loopSettings = quietSettings()
        let path = tree.path("motionkiosk.prom")
        loopSettings.metricsFile = path
        loopSettings.metricsIntervalSeconds = 1
        loopSettings.system = disk
        disk.fail(call, errno: EIO, times: .max)
        let said = Locked<[(LogLevel, String)]>([])
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events),
                               log: Log(minimum: .debug, sink: { level, line in said.withLock { $0.append((level, line)) } }),
                               content: scene, settings: loopSettings)
        try frames.leaveOnSignals(orAfter: 5)
        try frames.start(display: display)
        try frames.run()
        let about = said.withLock { $0 }.filter { $0.1.contains("metrics") }
        #expect(about.count == 1 && about.first?.0 == .warning, "\(about)")
        #expect(about.first?.1.hasPrefix("metrics: cannot write \(path): ") == true && about.first?.1.contains("Input/output error") == true)
        #expect(disk.failures.count >= 4, "tried every second, not given up")
        #expect(LinuxSystem.shared.listDirectory(tree.root).isEmpty, "no temporary file left behind")
    }
}
