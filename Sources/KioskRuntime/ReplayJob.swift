import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import OpeningHours
import Platform
import Raster
import Sensors
import Syscalls
import Trace

/// A replay once its command line is read: a trace file, a black-box dump's trace (with its
/// state to compare) or a built-in demo, through `ReplayRunner` on a virtual panel; a PNG
/// and the state JSON at each checkpoint. `run` gives the exit status: 2 for a bad trace or
/// option, 1 when a dump's state differs from the replay's.
public struct ReplayJob {
    /// The trace file (for a dump, its trace.jsonl); nil with a demo.
    public var trace: String?
    /// The black-box dump folder the trace came from.
    public var dump: String?
    public var demo: String?
    /// The stand's configuration file the trace runs as.
    public var configFile: String?
    public var size: String?
    public var exhibitName: String?
    public var out = "."
    public var seed: UInt64?
    public var timeZone: String?
    public var clock: String?
    public var startTime: String?
    /// Where the summary line goes, and where problems and warnings go.
    public var say: (String) -> Void
    public var complain: (String) -> Void

    public init(say: @escaping (String) -> Void, complain: @escaping (String) -> Void) {
        self.say = say
        self.complain = complain
    }

    public func run() throws(KioskError) -> Int32 {
        var fonts: FontSet
        do { fonts = try FontSet() } catch { throw KioskError("\(error)") }
        var header = TraceHeader()
        var records: [TraceRecord] = []
        var recordCount = 0
        let source: String
        if let demo {
            guard trace == nil else { complain("give a trace file or --demo, not both"); return 2 }
            guard replayTarget(demo) != nil else {
                complain("--demo \(echoed(demo)): not one of \(replayTargetNames)")
                return 2
            }
            // Its records are made below, laid out as the replay's settings lay the screen out.
            header.exhibit = demo
            source = "demo of \(demo)"
        } else {
            guard let trace else { complain("no trace file given (or use --demo NAME)"); return 2 }
            // Read twice, a chunk at a time: checked whole first, so a bad trace writes nothing,
            // then played as it is read; memory stays flat however long the trace.
            do { (header, recordCount) = try TraceFileStream.check(path: trace, warn: { complain("warning: \($0)") }) } catch {
                complain(error.line > 0 ? error.description : "\(trace): \(error.problem)")
                return 2
            }
            source = trace
        }
        // The stand's settings from the header, unless the command line says otherwise.
        var width = header.width ?? 480, height = header.height ?? 800
        if let size {
            guard let (w, h) = parseSize(size) else {
                complain("--size \(echoed(size)): expected WIDTHxHEIGHT, e.g. 480x800")
                return 2
            }
            width = w; height = h
        }
        var stand: KioskConfiguration?
        if let file = configFile {
            let loaded: KioskConfiguration
            do { loaded = try loadConfiguration(file, warn: { complain("warning: \($0)") }) } catch {
                complain(error.description)
                return 2
            }
            stand = loaded
            do { fonts = try loaded.fonts(log: Log(minimum: .warning)) } catch { throw KioskError("\(error)") }
        }
        let target: ExhibitType?
        if let chosen = exhibitName {
            guard let t = replayTarget(chosen) else { complain("--exhibit \(echoed(chosen)): not one of \(replayTargetNames)"); return 2 }
            target = t
        } else if let locked = stand?.exhibits.locked {
            target = locked
        } else if let named = header.exhibit {
            guard let t = replayTarget(named) else { complain("\(source): the trace header's exhibit \(echoed(named)) is not one of \(replayTargetNames)"); return 2 }
            target = t
        } else {
            target = nil
        }
        if let attract = header.resuming?.unknownAttract {
            complain("\(source): the trace resumes in the attract demo of \(echoed(attract)), which is not one of \(replayTargetNames)")
            return 2
        }
        let exhibit = target?.name ?? launcherName
        var motion = header.motionSettings
        do { try makeDirectories(out) } catch { throw KioskError("--out \(out): \(error)") }

        // A recording says how the stand ran: locked to one exhibit, its idle and attract times.
        var settings = header.replaySettings(exhibit: target, width: width, height: height, seed: seed, keepLock: exhibitName == nil)
        if let stand {
            stand.applyStand(to: &settings, exhibit: target)
            stand.applyStand(to: &motion)
        }
        if let demo {
            // The exhibit is made as the attract loop makes it for its demo.
            settings.playsDemo = true
            // The stand's tiles, in its order and languages, where the replay will show them.
            records = DemoTraces.records(for: replayTarget(demo) ?? nil, settings: settings, fonts: fonts)
            recordCount = records.count
        }
        if let zone = timeZone {
            if let problem = WallClock.useTimeZone(named: zone) { complain("--timezone \(echoed(zone)): \(problem)"); return 2 }
        }
        var schedule: StandSchedule? = nil
        var clockTrust = ClockTrust.alwaysTrusted()
        if let word = clock {
            guard word == "trusted" || word == "untrusted" else {
                complain("--clock \(echoed(word)): expected trusted or untrusted")
                return 2
            }
            clockTrust = ClockTrust(fixed: word == "trusted", whenUnknown: stand?.schedule.whenClockUnknown ?? .open, reason: "--clock \(word)")
        }
        // An untrusted clock without a start time reads what a Pi without one wakes up to: 1970.
        if let text = startTime ?? (clock == nil ? nil : "1970-01-01T00:00:00") {
            guard let start = CivilTime(iso: text) else {
                complain("--start-time \(echoed(text)): expected a local time like 2026-11-23T17:59:00")
                return 2
            }
            // The wall clock runs through the zone's rules from there, as the stand's does.
            let wallClock = StandWallClock.starting(at: start, origin: 0, zone: .system)
            schedule = stand?.schedule(wallClock: wallClock, clock: clockTrust)
                ?? StandSchedule(hours: OpeningHours(), wakeFor: nil, wallClock: wallClock, clock: clockTrust)
        }
        let panel = VirtualPanel(width: width, height: height)
        let runner: ReplayRunner
        do {
            runner = try ReplayRunner(settings: settings, display: panel, fonts: fonts, log: Log(minimum: .warning), motion: motion,
                                      schedule: schedule, resuming: header.resuming, phantomsFiltered: header.phantomsFiltered == true)
        } catch {
            throw KioskError("\(error)")
        }
        var written = 0
        var failure: String?
        var dumpedState: String?
        let checkpoint = { (checkpoint: ReplayRunner.Checkpoint) in
            guard failure == nil else { return }
            if checkpoint.name == "blackbox" { dumpedState = checkpoint.state.serialized() }
            let base = out + "/" + safeFileName(checkpoint.name)
            do throws(PNGError) { try writePNG(checkpoint.frame, to: base + ".png") } catch { failure = "\(error)"; return }
            do throws(TextFileError) { try writeTextFile(base + ".json", checkpoint.state.serialized() + "\n") } catch { failure = "\(error)"; return }
            written += 1
        }
        if let trace, demo == nil {
            let stream: TraceFileStream
            do { stream = try TraceFileStream.forPlaying(checked: trace) } catch { throw KioskError("\(trace): \(error)") }
            runner.run(source: stream, checkpoint: checkpoint)
            // Only when the file changed between the check and the replay.
            if let problem = stream.failure { throw KioskError(problem.description) }
        } else {
            runner.run(records, checkpoint: checkpoint)
        }
        if let failure { throw KioskError(failure) }
        say("replayed \(recordCount) records of \(source) on \(exhibit) at \(width)x\(height): \(runner.framesRendered) frames drawn, \(written) checkpoints in \(out)")
        if let dump {
            return compareWithDump(dump, replayed: dumpedState, exact: header.resuming != nil)
        }
        return 0
    }

    /// A dump's state.json against the replay's state at its "blackbox" checkpoint: 0 when
    /// equal, 1 when not (with the first difference).
    private func compareWithDump(_ folder: String, replayed: String?, exact: Bool) -> Int32 {
        let (equal, lines) = DumpComparison.compare(stateFile: folder + "/state.json", replayed: replayed, exact: exact)
        for line in lines { if equal { say(line) } else { complain(line) } }
        return equal ? 0 : 1
    }
}

/// What --demo, --exhibit and trace headers call the whole kiosk from its launcher.
public let launcherName = "launcher"

/// The launcher (`.some(nil)`) or an exhibit (`.some(type)`) by the name a replay is given;
/// nil when the name is neither.
public func replayTarget(_ name: String) -> ExhibitType?? {
    if name == launcherName { return .some(nil) }
    guard let type = ExhibitRegistry.named(name) else { return nil }
    return .some(type)
}

/// The names a replay takes, for messages.
public var replayTargetNames: String { ([launcherName] + ExhibitRegistry.names).joined(separator: ", ") }

/// "WIDTHxHEIGHT", each 64…8192; nil otherwise.
public func parseSize(_ s: String) -> (Int, Int)? {
    let parts = s.split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w >= 64, h >= 64, w <= 8192, h <= 8192 else { return nil }
    return (w, h)
}
