import CommandLineParser
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import OpeningHours
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// `motionkiosk replay`: a trace (or a built-in demo) through the frame loop on a virtual
/// clock; a PNG and the state JSON at each checkpoint. Exit 2 for a bad trace or option.
func replay(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let trace = c.argument("trace"), demo = c.string("demo"), size = c.string("size"), chosenExhibit = c.string("exhibit")
    let out: String, seed: UInt64?
    do throws(CommandLineError) { out = try c.nonEmpty("out") ?? "."; seed = try c.unsigned("seed") } catch {
        printError(error.message)
        return 2
    }
    var fonts: FontSet
    do { fonts = try FontSet() } catch { throw KioskError("\(error)") }
    var header = TraceHeader()
    var records: [TraceRecord] = []
    var recordCount = 0
    let source: String
    if let demo {
        guard trace == nil else { printError("give a trace file or --demo, not both"); return 2 }
        var (w, h) = (480, 800)
        if let size {
            guard let s = parseSize(size) else { printError("--size '\(size)': expected WIDTHxHEIGHT, e.g. 480x800"); return 2 }
            (w, h) = s
        }
        guard let demoRecords = DemoTraces.records(for: demo, width: w, height: h, fonts: fonts) else {
            printError("--demo '\(demo)': not one of launcher, " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
            return 2
        }
        records = demoRecords
        recordCount = records.count
        header.exhibit = demo
        source = "demo of \(demo)"
    } else {
        guard let trace else { printError("no trace file given (or use --demo NAME)"); return 2 }
        // Read twice, a chunk at a time: checked whole first, so a bad trace writes nothing,
        // then played as it is read; memory stays flat however long the trace.
        do { (header, recordCount) = try TraceFileStream.check(path: trace, warn: { printError("warning: \($0)") }) } catch {
            printError(error.line > 0 ? error.description : "\(trace): \(error.problem)")
            return 2
        }
        source = trace
    }
    // The stand's settings from the header, unless the command line says otherwise.
    var width = header.width ?? 480, height = header.height ?? 800
    if let size {
        guard let (w, h) = parseSize(size) else {
            printError("--size '\(size)': expected WIDTHxHEIGHT, e.g. 480x800")
            return 2
        }
        width = w; height = h
    }
    var stand: KioskConfiguration?
    if let file = c.string("config") {
        let loaded: KioskConfiguration
        do { loaded = try loadConfiguration(file) } catch {
            printError(error.description)
            return 2
        }
        stand = loaded
        do { fonts = try loaded.fonts(log: Log(minimum: .warning)) } catch { throw KioskError("\(error)") }
    }
    let exhibit = chosenExhibit ?? stand?.exhibits.locked?.rawValue ?? header.exhibit ?? "launcher"
    guard exhibit == "launcher" || ExhibitCatalog.type(named: exhibit) != nil else {
        printError("--exhibit '\(exhibit)': not one of launcher, " + ExhibitCatalog.all.map { $0.info.name }.joined(separator: ", "))
        return 2
    }
    var motion = MotionSettings()
    if let ms = header.gravityTimeConstantMilliseconds { motion.gravityTimeConstant = ms / 1000 }
    if let threshold = header.shakeThreshold { motion.shakeThreshold = threshold }
    if let ms = header.stuckAfterMilliseconds { motion.stuckAfter = ms > 0 ? Microseconds(ms * 1000) : nil }
    do { try makeDirectories(out) } catch { throw KioskError("--out \(out): \(error)") }

    var settings = KioskApp.Settings.replay(exhibit: exhibit, width: width, height: height, seed: seed ?? header.seed ?? 1)
    // A recording says how the stand ran: locked to one exhibit, its idle and attract times.
    func duration(_ ms: Double) -> Microseconds? { ms > 0 ? Microseconds(ms * 1000) : nil }
    if header.locked == true && chosenExhibit == nil && exhibit != "launcher" {
        settings.locked = exhibit
        settings.initialExhibit = nil
    }
    if let ms = header.idleMilliseconds, header.locked == true || exhibit == "launcher" { settings.idleTimeout = duration(ms) }
    if let ms = header.attractMilliseconds, exhibit == "launcher" { settings.attractAfter = duration(ms) }
    if let stand {
        stand.applyStand(to: &settings, exhibit: exhibit)
        stand.applyStand(to: &motion)
    }
    var schedule: StandSchedule? = nil
    if let text = c.string("start-time") {
        guard let start = CivilTime(iso: text) else {
            printError("--start-time '\(text)': expected a local time like 2026-11-23T17:59:00")
            return 2
        }
        schedule = stand?.schedule(wallClock: StandSchedule.fixedStart(start, origin: 0))
            ?? StandSchedule(hours: OpeningHours(), wakeFor: nil, wallClock: StandSchedule.fixedStart(start, origin: 0))
    }
    let panel = VirtualPanel(width: width, height: height)
    let runner: ReplayRunner
    do {
        runner = try ReplayRunner(settings: settings, display: panel, fonts: fonts, log: Log(minimum: .warning), motion: motion,
                                  schedule: schedule)
    } catch {
        throw KioskError("\(error)")
    }
    var written = 0
    var failure: String?
    let checkpoint = { (checkpoint: ReplayRunner.Checkpoint) in
        guard failure == nil else { return }
        let base = out + "/" + safeFileName(checkpoint.name)
        do throws(PNGError) { try writePNG(checkpoint.frame, to: base + ".png") } catch { failure = "\(error)"; return }
        do throws(TextFileError) { try writeTextFile(base + ".json", checkpoint.state.serialized() + "\n") } catch { failure = "\(error)"; return }
        written += 1
    }
    if let trace, demo == nil {
        let stream: TraceFileStream
        do { stream = try TraceFileStream(path: trace) } catch { throw KioskError("\(trace): \(error)") }
        runner.run(source: stream, checkpoint: checkpoint)
        // Only when the file changed between the check and the replay.
        if let problem = stream.failure { throw KioskError(problem.description) }
    } else {
        runner.run(records, checkpoint: checkpoint)
    }
    if let failure { throw KioskError(failure) }
    print("replayed \(recordCount) records of \(source) on \(exhibit) at \(width)x\(height): \(runner.framesRendered) frames drawn, \(written) checkpoints in \(out)")
    return 0
}

func parseSize(_ s: String) -> (Int, Int)? {
    let parts = s.split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w >= 64, h >= 64, w <= 8192, h <= 8192 else { return nil }
    return (w, h)
}
