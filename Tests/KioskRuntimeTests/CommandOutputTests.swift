#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import KioskRuntime
import Platform
import Testing

/// What the command line's users see: a full disk behind stdout, a time zone that is a FIFO,
/// a counts file saved by another system.
@Suite struct CommandOutputTests {
    let folder: String
    init() {
        folder = "/tmp/motionkiosk-command-output-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
    }

    func write(_ name: String, _ text: String) -> String {
        let path = folder + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
        return path
    }

    /// Runs the kiosk with `arguments`; its exit and what it wrote to stderr.
    func run(_ arguments: [String], stdout: String = "/dev/null", environment: [String] = []) throws -> (SpawnedKiosk.End?, String) {
        let err = folder + "/stderr"
        let kiosk = try #require(SpawnedKiosk(arguments, environment: environment, stdout: stdout, stderr: err))
        let end = kiosk.wait(seconds: 30)
        return (end, readWholeFile(err) ?? "")
    }

    @Test(arguments: [["default-config"], ["version"], ["--help"], ["stats", "--csv"]])
    func aCommandWhoseOutputCannotBeWrittenFails(_ arguments: [String]) throws {
        var args = arguments
        if args.first == "stats" { args += ["--file", write("visitors.csv", "2026-11-23T14,tilt-box,3,120.0,40,1,en:3\n")] }
        let (fine, _) = try run(args)
        #expect(fine == .exited(0), "to /dev/null it succeeds")
        let (full, said) = try run(args, stdout: "/dev/full")
        #expect(full == .exited(1))
        #expect(said.hasPrefix("Error: writing standard output failed"), "\(said)")
    }

    /// Values given on the command line come back escaped and cut, never as raw terminal
    /// control sequences or megabytes of text.
    @Test(arguments: [["replay", "--demo"], ["replay", "--demo", "tilt-box", "--size"], ["replay", "--exhibit"],
                      ["replay", "--demo", "tilt-box", "--start-time"], ["screenshot", "--pid"]])
    func optionValuesAreEchoedEscapedAndCut(_ arguments: [String]) throws {
        let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}" + String(repeating: "x", count: 5000)
        let (end, said) = try run(arguments + [hostile])
        #expect(end == .exited(2) || end == .exited(1), "\(said)")
        #expect(!said.unicodeScalars.contains("\u{1B}"), "\(said.prefix(200))")
        #expect(said.utf8.count < 1000, "cut: \(said.utf8.count) bytes")
        #expect(!said.contains("[2J") || said.contains("\\u{1B}[2J"), "shown escaped where it is shown: \(said.prefix(200))")
    }

    @Test func aTimeZoneThatIsAFIFOIsRefusedAndTheKioskRunsOnUTC() throws {
        let fifo = folder + "/zone"
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        // Opening hours read the wall clock at the first frame.
        let config = write("config.toml", "[schedule]\nopen = [\"Daily 00:00-23:59\"]\n[metrics]\npath = \"\"\n")
        let (end, said) = try run(["run", "--display", "virtual", "--seconds", "1", "--config", config],
                                  environment: ["TZ=:\(fifo)"])
        #expect(end == .exited(0), "the kiosk did not hang on its first wall-clock read")
        #expect(said.contains("warning: TZ=:\(fifo) names \(fifo), which is a FIFO, not a zone file; local time is UTC"), "\(said)")
    }

    @Test func statsSaysWhatIsWrongWithAFile() throws {
        let row = "2026-11-23T14,tilt-box,3,120.0,40,1,en:3"
        let bom = write("bom.csv", "\u{FEFF}" + row + "\n")
        let crlf = write("crlf.csv", row + "\r\n" + row + "\r\n")
        for (file, expected) in [(bom, "\(bom): starts with a byte-order mark (U+FEFF): save it as UTF-8 without one"),
                                 (crlf, "\(crlf): line 1 ends in CR LF (Windows line ends): the counts file has LF line ends only"),
                                 ("\(bom)/visitors.csv", "\(bom)/visitors.csv.1: Not a directory")] {
            let (end, said) = try run(["stats", "--file", file])
            #expect(end == .exited(1))
            #expect(said == expected + "\n", "\(file)")
        }
    }

    /// A file whose name is not UTF-8 (Latin-1 "café") is used as given, not as "caf\u{FFFD}".
    @Test func aPathThatIsNotUTF8IsUsedByteForByte() throws {
        let name = Array((folder + "/caf").utf8) + [0xE9] + Array(".toml".utf8)
        let fd = open(name.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        _ = "[exhibits]\nidle_seconds = 45\n".withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
        defer { _ = unlink(name.map { CChar(bitPattern: $0) } + [0]) }
        let out = folder + "/check"
        let kiosk = try #require(SpawnedKiosk([Array("check-config".utf8), name], stdout: out, stderr: folder + "/stderr"))
        let end = kiosk.wait(seconds: 30)
        #expect(end == .exited(0), "\(readWholeFile(folder + "/stderr") ?? "")")
        #expect(readWholeFile(out)?.hasSuffix(": OK\n") == true)
    }

    @Test func runHelpSaysWhatEachSignalDoes() throws {
        let out = folder + "/help"
        let (end, _) = try run(["run", "--help"], stdout: out)
        #expect(end == .exited(0))
        let help = readWholeFile(out) ?? ""
        for signal in ["SIGHUP", "SIGUSR1", "SIGUSR2", "SIGTERM"] { #expect(help.contains(signal), "\(signal)") }
        #expect(help.contains("systemctl reload"))
        #expect(help.contains("motionkiosk screenshot"))
    }
}
