import ArgumentParser
import Diagnostics
import Exhibits
import Geometry
import KioskRuntime
import Sensors
import Platform
import Raster
import Trace
#if canImport(Glibc)
import Glibc
#endif

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace on the virtual panel with a virtual clock; write a PNG and a state JSON at each checkpoint.",
        discussion: "Exit status: 0 when the trace is done, 2 for a bad trace (the message names the line).")

    @Argument(help: "Trace file (JSON Lines), or with --demo nothing.")
    var trace: String?

    @Option(help: "Replay a built-in trace instead of a file: an exhibit's attract demo with a checkpoint every 0.5 s, or 'launcher' (each tile tapped in turn). For comparing builds and CPUs.")
    var demo: String?

    @Option(help: "Exhibit to run, or 'launcher' for the whole kiosk from its launcher (idle timer included) (default: the trace header's, else launcher).")
    var exhibit: String?

    @Option(help: "Portrait size WIDTHxHEIGHT (default: the trace header's, else 480x800).")
    var size: String?

    @Option(help: "Seed of the kiosk's random generator (default: the trace header's, else 1).")
    var seed: UInt64?

    @Option(help: "Folder for <checkpoint>.png and <checkpoint>.json (created if missing).")
    var out: String

    func run() throws {
        var header = TraceHeader()
        var records: [TraceRecord] = []
        let source: String
        if let demo {
            guard trace == nil else { printError("give a trace file or --demo, not both"); throw ExitCode(2) }
            var (w, h) = (480, 800)
            if let size { guard let s = parseSize(size) else { printError("--size '\(size)': expected WIDTHxHEIGHT, e.g. 480x800"); throw ExitCode(2) }; (w, h) = s }
            guard let demoRecords = DemoTraces.records(for: demo, width: w, height: h, fonts: try FontSet()) else {
                printError("--demo '\(demo)': not one of launcher, " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
                throw ExitCode(2)
            }
            records = demoRecords
            header.exhibit = demo
            source = "demo of \(demo)"
        } else {
            guard let trace else { printError("no trace file given (or use --demo NAME)"); throw ExitCode(2) }
            let text: String
            do { text = try readTextFile(trace) } catch {
                printError("\(trace): \(error)")
                throw ExitCode(2)
            }
            do { (header, records) = try TraceReader.trace(in: text, source: trace) } catch {
                printError(error.description)
                throw ExitCode(2)
            }
            source = trace
        }
        // The stand's settings from the header, unless the command line says otherwise.
        var width = header.width ?? 480, height = header.height ?? 800
        if let size {
            guard let (w, h) = parseSize(size) else {
                printError("--size '\(size)': expected WIDTHxHEIGHT, e.g. 480x800")
                throw ExitCode(2)
            }
            width = w; height = h
        }
        let exhibit = self.exhibit ?? header.exhibit ?? "launcher"
        guard exhibit == "launcher" || ExhibitCatalog.type(named: exhibit) != nil else {
            printError("--exhibit '\(exhibit)': not one of launcher, " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
            throw ExitCode(2)
        }
        var motion = MotionSettings()
        if let ms = header.gravityTimeConstantMilliseconds { motion.gravityTimeConstant = ms / 1000 }
        if let threshold = header.shakeThreshold { motion.shakeThreshold = threshold }
        if let ms = header.stuckAfterMilliseconds { motion.stuckAfter = ms > 0 ? Microseconds(ms * 1000) : nil }
        try makeDirectories(out)

        var settings = KioskApp.Settings.replay(exhibit: exhibit, width: width, height: height, seed: seed ?? header.seed ?? 1)
        // A recording says how the stand ran: locked to one exhibit, its idle and attract times.
        func duration(_ ms: Double) -> Microseconds? { ms > 0 ? Microseconds(ms * 1000) : nil }
        if header.locked == true && self.exhibit == nil && exhibit != "launcher" {
            settings.locked = exhibit
            settings.initialExhibit = nil
        }
        if let ms = header.idleMilliseconds, header.locked == true || exhibit == "launcher" { settings.idleTimeout = duration(ms) }
        if let ms = header.attractMilliseconds, exhibit == "launcher" { settings.attractAfter = duration(ms) }
        let log = Log(minimum: .warning)
        let fonts = try FontSet()
        let panel = VirtualPanel(width: width, height: height)
        let runner = try ReplayRunner(settings: settings, display: panel, fonts: fonts, log: log, motion: motion)
        var written = 0
        try runner.run(records) { checkpoint in
            let base = out + "/" + safeFileName(checkpoint.name)
            try writePNG(checkpoint.frame, to: base + ".png")
            try writeTextFile(base + ".json", checkpoint.state.serialized() + "\n")
            written += 1
        }
        print("replayed \(records.count) records of \(source) on \(exhibit) at \(width)x\(height): \(runner.framesRendered) frames drawn, \(written) checkpoints in \(out)")
    }
}

func parseSize(_ s: String) -> (Int, Int)? {
    let parts = s.split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w >= 64, h >= 64, w <= 8192, h <= 8192 else { return nil }
    return (w, h)
}

