#if canImport(Glibc)
import Glibc
#endif
import KioskConfig
import KioskRuntime
import Testing

/// `motionkiosk replay` and `calibrate --save` once their flags are read: what they write,
/// what they refuse and the exit status they give.
@Suite struct ReplayJobTests {
    private func folder(_ name: String) -> String {
        let path = "/tmp/motionkiosk-replayjob-\(getpid())-\(name)"
        _ = system("rm -rf '\(path)'")
        return path
    }

    private func files(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func aDemoWritesAPictureAndAStateAtEachCheckpointTheSameEachTime() throws {
        var states: [String] = []
        for run in 0..<2 {
            let out = folder("demo\(run)")
            defer { _ = system("rm -rf '\(out)'") }
            var said: [String] = [], complaints: [String] = []
            var job = ReplayJob(say: { said.append($0) }, complain: { complaints.append($0) })
            job.demo = "grid-block"
            job.out = out
            #expect(try job.run() == 0)
            #expect(complaints.isEmpty)
            let written = files(in: out)
            let pictures = written.filter { $0.hasSuffix(".png") }.count
            #expect(pictures > 1 && pictures == written.filter { $0.hasSuffix(".json") }.count)
            #expect(said == ["replayed 28 records of demo of grid-block on grid-block at 480x800: 25 frames drawn, \(pictures) checkpoints in \(out)"])
            states.append(try readTextFile(out + "/grid-block-10.json"))
        }
        #expect(states[0] == states[1])
    }

    @Test func aBadOptionIsNamedAndNothingIsWritten() throws {
        let out = folder("bad")
        for (change, problem) in [({ (j: inout ReplayJob) in j.size = "3x3" }, "--size '3x3': expected WIDTHxHEIGHT, e.g. 480x800"),
                                  ({ (j: inout ReplayJob) in j.exhibitName = "nope" }, "--exhibit 'nope': not one of \(replayTargetNames)")] {
            var complaints: [String] = []
            var job = ReplayJob(say: { _ in }, complain: { complaints.append($0) })
            job.demo = "launcher"
            job.out = out
            change(&job)
            #expect(try job.run() == 2)
            #expect(complaints == [problem])
        }
        var complaints: [String] = []
        let job = ReplayJob(say: { _ in }, complain: { complaints.append($0) })
        #expect(try job.run() == 2)
        #expect(complaints == ["no trace file given (or use --demo NAME)"])
        #expect(access(out, F_OK) != 0)
        complaints = []
        var clocked = ReplayJob(say: { _ in }, complain: { complaints.append($0) })
        clocked.demo = "launcher"
        clocked.out = out
        defer { _ = system("rm -rf '\(out)'") }
        clocked.clock = "maybe"
        #expect(try clocked.run() == 2)
        #expect(complaints == ["--clock 'maybe': expected trusted or untrusted"])
    }

    @Test func aDumpWhoseStateDiffersGivesOne() throws {
        let dump = folder("dump"), out = folder("dumpout")
        defer { _ = system("rm -rf '\(dump)' '\(out)'") }
        mkdir(dump, 0o700)
        // A trace without a "blackbox" checkpoint has no state to compare: not equal.
        try writeTextFile(dump + "/trace.jsonl", "{\"trace\":\"motionkiosk\",\"version\":1,\"exhibit\":\"tilt-box\"}\n{\"t\":500,\"type\":\"checkpoint\",\"name\":\"end\"}\n")
        try writeTextFile(dump + "/state.json", "{}\n")
        var complaints: [String] = []
        var job = ReplayJob(say: { _ in }, complain: { complaints.append($0) })
        job.trace = dump + "/trace.jsonl"
        job.dump = dump
        job.out = out
        #expect(try job.run() == 1)
        #expect(complaints == ["the trace has no \"blackbox\" checkpoint to compare with \(dump)/state.json"])
    }

    @Test func aCalibrationIsSavedOnlyIntoAFileThatStillChecks() throws {
        let path = "/tmp/motionkiosk-calibration-\(getpid()).toml"
        defer { unlink(path) }
        let line = "calibration = [1.02, 0.0, -0.01, 0.0, 0.99, 0.005]"
        try writeTextFile(path, "[display]\nmax_fps = 30\n")
        if case .failure(let error) = saveCalibration(line, to: path) { Issue.record("\(error)") }
        let saved = try loadConfiguration(path, warn: { _ in })
        #expect(saved.touch.calibration == [1.02, 0.0, -0.01, 0.0, 0.99, 0.005] && saved.display.maxFramesPerSecond == 30)
        // A file a reload would refuse stays as it was.
        try writeTextFile(path, "[display]\nmax_fps = \"fast\"\n")
        guard case .failure(let error) = saveCalibration(line, to: path) else { Issue.record("saved into a bad file"); return }
        #expect(error.description.hasPrefix(path))
        #expect(try readTextFile(path) == "[display]\nmax_fps = \"fast\"\n")
    }
}
