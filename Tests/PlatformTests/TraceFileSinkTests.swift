import Testing
import Geometry
import Trace
import SystemFakes
@testable import Platform
#if canImport(Glibc)
import Glibc
#endif

@Suite struct TraceFileSinkTests {
    func read(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true { let n = fread(&buf, 1, buf.count, f); if n == 0 { break }; out += buf[0..<n] }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func recordsRollIntoTwoBoundedFilesThatReadBack() throws {
        let dir = "/tmp/motionkiosk-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(dir, 0o755)
        let path = dir + "/floor.jsonl"
        defer { unlink(path); unlink(path + ".1"); rmdir(dir) }
        let writer = try TraceWriter(sink: try TraceFileSink(path: path), bound: .roll(atBytes: 4096))
        var rolls = 0
        for i in 0..<400 {
            let outcome = try writer.append(TraceRecord(t: Double(i) * 10, .touch(phase: i % 2 == 0 ? .down : .up, id: 0, x: 240, y: Double(i))))
            if case .rolled = outcome { rolls += 1 }
        }
        #expect(rolls >= 2)
        let current = try #require(read(path)), previous = try #require(read(path + ".1"))
        #expect(current.utf8.count <= 4096 && previous.utf8.count <= 4096)
        // Both files are whole traces: the newest one ends with the last record.
        let newest = try TraceReader.records(in: current, source: path)
        #expect(newest.last == TraceRecord(t: 3990, .touch(phase: .up, id: 0, x: 240, y: 399)))
        #expect(try !TraceReader.records(in: previous, source: path + ".1").isEmpty)
    }

    /// A recording's header (the first file's and each rolled one's) is synced as soon as it
    /// is written: a power cut before the first periodic sync leaves a trace that replays.
    @Test func eachFilesHeaderIsOnTheStorageAtOnce() throws {
        let dir = "/tmp/motionkiosk-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(dir, 0o755)
        let path = dir + "/floor.jsonl"
        defer { unlink(path); unlink(path + ".1"); rmdir(dir) }
        let disk = FileSystemWithFaults()
        let writer = try TraceWriter(sink: try TraceFileSink(path: path, system: disk), bound: .roll(atBytes: 4096))
        // The file's creation, writes and syncs (the folder's open and close left out).
        func steps(_ calls: [String]) -> [String] {
            calls.filter { $0 == "open \(path)" || $0.hasPrefix("write ") || $0.hasPrefix("syncFile ") || $0.hasPrefix("rename ") }
        }
        let created = ["open \(path)", "write \(path)", "syncFile \(path)", "syncFile \(dir)"]
        #expect(steps(disk.calls) == created, "\(disk.calls)")
        var rolled = false
        var i = 0
        while !rolled {
            if case .rolled = try writer.append(TraceRecord(t: Double(i), .checkpoint(name: "c\(i)"))) { rolled = true }
            i += 1
        }
        // After the roll: the new file created, its header written and synced before any record.
        let afterRoll = Array(steps(disk.calls).drop { $0 != "rename \(path) \(path).1" }.dropFirst())
        #expect(Array(afterRoll.prefix(5)) == ["syncFile \(dir)"] + created, "\(afterRoll)")
        #expect(try TraceReader.records(in: try #require(read(path)), source: path).count == 1, "the header, then the record that rolled it")
    }

    @Test func anExistingFileOrLinkIsNeverOverwrittenButTheNextFreeNameTaken() throws {
        let dir = "/tmp/motionkiosk-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(dir, 0o755)
        let path = dir + "/floor.jsonl"
        let target = dir + "/precious.txt"
        defer { for f in [path, dir + "/floor-1.jsonl", dir + "/floor-2.jsonl", target] { unlink(f) }; rmdir(dir) }
        let f = fopen(path, "wb"); fputs("yesterday\n", f); fclose(f)
        let first = try TraceFileSink(path: path)
        #expect(first.path == dir + "/floor-1.jsonl" && first.takenPath == path)
        try first.write("{\"t\":0,\"type\":\"checkpoint\",\"name\":\"a\"}\n")
        #expect(read(path) == "yesterday\n")
        // A second kiosk asking for the same file gets a third, its own.
        let second = try TraceFileSink(path: path)
        #expect(second.path == dir + "/floor-2.jsonl")
        // A symbolic link planted at the path is not followed.
        unlink(dir + "/floor-2.jsonl")
        symlink(target, dir + "/floor-2.jsonl")
        let g = fopen(target, "wb"); fputs("keep\n", g); fclose(g)
        unlink(path); unlink(dir + "/floor-1.jsonl")
        symlink(target, path)
        let third = try TraceFileSink(path: path)
        try third.write("x\n")
        #expect(read(target) == "keep\n")
        #expect(third.path == dir + "/floor-1.jsonl")
        unlink(dir + "/floor-1.jsonl")
    }

    @Test func freeNamesKeepTheExtension() {
        #expect(TraceFileSink.name("/var/log/floor.jsonl", 3) == "/var/log/floor-3.jsonl")
        #expect(TraceFileSink.name("/var/lo.g/floor", 1) == "/var/lo.g/floor-1")
        #expect(TraceFileSink.name(".hidden", 2) == ".hidden-2")
    }

    @Test func unwritableFolderIsAnErrorNamingThePath() {
        #expect {
            _ = try TraceFileSink(path: "/nonexistent-folder/trace.jsonl")
        } throws: { error in
            "\(error)".contains("/nonexistent-folder/trace.jsonl")
        }
    }

    /// A recording is synced when asked (every minute and at closing time by the loop):
    /// the file, and its folder the first time; nothing when nothing was written since.
    @Test func aSyncMakesWhatWasWrittenDurableAndCostsNothingAtRest() throws {
        let dir = "/tmp/motionkiosk-record-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(dir, 0o755)
        let path = dir + "/floor.jsonl"
        defer { unlink(path); rmdir(dir) }
        let system = FileSystemWithFaults()
        let writer = try TraceWriter(sink: try TraceFileSink(path: path, system: system))
        func syncs() -> [String] { system.subjects(of: .syncFile) }
        try writer.sync()
        #expect(syncs() == [path, dir], "the header: the file, then its folder")
        try writer.sync()
        #expect(syncs().count == 2, "nothing written since: no sync")
        try writer.append(TraceRecord(t: 10, .touch(phase: .down, id: 0, x: 1, y: 2)))
        try writer.sync()
        #expect(syncs() == [path, dir, path])
        try writer.append(TraceRecord(t: 20, .touch(phase: .up, id: 0, x: 1, y: 2)))
        system.fail(.syncFile, errno: EIO)
        #expect(throws: TraceWriteError.self) { try writer.sync() }
    }
}
