#if canImport(Glibc)
import Glibc
#endif
import Exhibits
import Geometry
import Raster
import Sensors
import Syscalls
import Trace

/// How the black box keeps the last minutes and where it writes them.
public struct BlackBoxSettings {
    /// Dump folders go here, one per dump, named by a sequence number, local time and reason
    /// (`DumpName`). The folder may hold other things: only the kiosk's own dumps are pruned.
    public var folder = "/var/lib/motionkiosk/blackbox"
    /// How far back a dump reaches (at least; it starts at a restart point before this).
    public var window: Microseconds = 300_000_000
    /// Records kept at most (40 bytes each): 5 minutes of a 100 Hz accelerometer and a
    /// busy pair of fingers.
    public var capacity = 65_536
    /// Dump folders kept; the oldest go first.
    public var keep = 10
    /// Dumps asked for (SIGUSR1) are written at most once per this time: a script or a held
    /// key sending hundreds a second must not fill the disk or stall the stand.
    public var askedQuiet: Microseconds = 10_000_000
    /// A frame that took longer, or a wait this long for a frame while something moved, is
    /// a stall and writes a dump (at most one per `stallQuiet`); nil: stalls are not watched.
    public var stall: Microseconds? = 1_000_000
    public var stallQuiet: Microseconds = 600_000_000
    /// The trace header's settings part (exhibit, size, rotation, filters).
    public var header = TraceHeader()
    /// The configuration the stand runs with, copied into each dump as config.toml.
    public var configurationText: String?
    /// Seconds since 1970, for the folder names.
    public var wallClock: () -> Double = { WallClock.now() }

    public init() {}
}

/// A written dump: its folder and how many records its trace holds.
public struct BlackBoxDump: Equatable {
    public var folder: String
    public var records: Int
    /// Whether its trace starts at a restart point (it replays to the stand's state).
    public var replaysExactly: Bool
}

/// The kiosk's flight recorder: `BlackBoxRing` in RAM, and on request (SIGUSR1, a stall,
/// a fatal error) a dump folder with trace.jsonl (header and records from the oldest
/// restart point kept, a "blackbox" checkpoint at the dump), state.json (the state at that
/// moment, as `replay` writes it), screen.png (the screen as it was) and config.toml.
/// `motionkiosk replay FOLDER` plays it and compares the state.
final class BlackBox {
    var settings: BlackBoxSettings
    private(set) var ring: BlackBoxRing
    private var lastUnaskedDump: Microseconds?
    private var lastAskedDump: Microseconds?
    /// The last sequence number this process gave a dump: never handed out again, even if
    /// its folder is gone.
    private var lastSequence = 0

    init(settings: BlackBoxSettings) {
        self.settings = settings
        ring = BlackBoxRing(window: settings.window, capacity: settings.capacity)
    }

    /// Whether a dump nobody asked for (a stall, a lost flip) may be written at `now`: at most
    /// one per `settings.stallQuiet`, so that a stand stuck in a fault does not fill its disk.
    /// True takes the turn.
    func takesUnaskedDump(at now: Microseconds) -> Bool {
        if let last = lastUnaskedDump, now - last < settings.stallQuiet { return false }
        lastUnaskedDump = now
        return true
    }

    /// Whether a dump asked for (SIGUSR1) may be written at `now`: at most one per
    /// `settings.askedQuiet`. True takes the turn; false says how long until the next may be.
    func takesAskedDump(at now: Microseconds) -> (granted: Bool, wait: Microseconds) {
        if let last = lastAskedDump, now - last < settings.askedQuiet { return (false, settings.askedQuiet - (now - last)) }
        lastAskedDump = now
        return (true, 0)
    }

    func begin(_ start: BlackBoxRing.Start) { ring.begin(start) }
    func record(_ payload: TraceRecord.Payload, at time: Microseconds) { ring.record(payload, at: time) }

    /// Writes a dump of everything kept up to `now` (content time) into a new folder, then
    /// removes the oldest of the kiosk's own dump folders beyond `keep`. The folder appears
    /// whole and durable: written under a hidden name, every file synced, then renamed and
    /// the parent folder synced.
    func dump(reason: String, now: Microseconds, state: String, screen: PixelBuffer?, system: any SystemCalls) throws(SystemError) -> BlackBoxDump {
        try system.makeDirectory(settings.folder, mode: 0o750)
        let existing = system.listDirectory(settings.folder)
        lastSequence = max(lastSequence, existing.compactMap { DumpName(parsing: $0.hasPrefix(".") ? String($0.dropFirst()) : $0)?.sequence }.max() ?? 0)
        // A hidden folder of that name already there (planted, or left by a crash) is never
        // written into: the next number is taken.
        var name = ""
        var temporary = ""
        for attempt in 1...100 {
            lastSequence += 1
            name = DumpName(sequence: lastSequence, time: WallClock.local(Int64(settings.wallClock())), reason: reason).text
            temporary = settings.folder + "/." + name
            do throws(SystemError) {
                try system.makeNewDirectory(temporary, mode: 0o750)
                break
            } catch where error.errno == EEXIST && attempt < 100 {
                continue
            }
        }
        let final = settings.folder + "/" + name
        var written = 0
        var exact = false
        do throws(SystemError) {
            (written, exact) = try writeTrace(to: temporary + "/trace.jsonl", now: now, system: system)
            try writeFileAtomically(temporary + "/state.json", state + "\n", system: system)
            if let text = settings.configurationText { try writeFileAtomically(temporary + "/config.toml", text, system: system) }
            if let screen {
                let png: [UInt8]
                do throws(PNGError) { png = try encodePNG(screen, name: temporary + "/screen.png") } catch {
                    throw SystemError(errno: EIO, attempt: "encode \(error)")
                }
                try writeFileAtomically(temporary + "/screen.png", bytes: png, system: system)
            }
            try syncFolder(temporary, system: system)
            try system.rename(temporary, to: final)
            try syncFolder(settings.folder, system: system)
        } catch {
            removeDumpFolder(temporary, system: system)
            throw error
        }
        prune(keeping: name, system: system)
        return BlackBoxDump(folder: final, records: written, replaysExactly: exact)
    }

    /// The trace: header, records in 64 kB writes, and the checkpoint at `now`.
    private func writeTrace(to path: String, now: Microseconds, system: any SystemCalls) throws(SystemError) -> (records: Int, exact: Bool) {
        guard let segment = ring.segments.first else {
            var header = settings.header
            header.resuming = nil
            try writeFileAtomically(path, header.line + "\n" + "{\"t\":0,\"type\":\"checkpoint\",\"name\":\"blackbox\"}\n", system: system)
            return (0, false)
        }
        var header = settings.header
        var text = ""
        if let start = segment.start {
            header.seed = start.point.seed
            header.resuming = TraceResumePoint(start, origin: segment.time)
            text = header.line + "\n"
        } else {
            header.resuming = nil
            text = header.line + "\n# partial: the oldest records were dropped; a replay shows these inputs but starts from a fresh kiosk\n"
        }
        let fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o640)
        var count = 0
        do throws(SystemError) {
            try ring.forEachRecord(from: segment) { (record: TraceRecord) throws(SystemError) in
                // Records came from the loop, which only hands out finite numbers.
                guard let line = try? TraceWriter.line(for: record) else { return }
                text += line + "\n"
                count += 1
                if text.utf8.count >= 65_536 {
                    try writeAll(Array(text.utf8), to: fd, named: path, system: system)
                    text = ""
                }
            }
            let end = TraceRecord(microseconds: max(0, now - segment.time), .checkpoint(name: "blackbox"))
            if let line = try? TraceWriter.line(for: end) { text += line + "\n" }
            try writeAll(Array(text.utf8), to: fd, named: path, system: system)
            try system.syncFile(fd, named: path)
        } catch {
            system.close(fd)
            throw error
        }
        system.close(fd)
        return (count, segment.start != nil)
    }

    /// Keeps the newest `keep` of the kiosk's own dump folders (by sequence number, not by
    /// the wall clock, which a stand without a clock source may turn back) and removes hidden
    /// ones a crash left half-written. Nothing else in the folder is touched.
    private func prune(keeping newest: String, system: any SystemCalls) {
        var dumps: [DumpName] = []
        for entry in system.listDirectory(settings.folder) {
            if entry.hasPrefix("."), entry != "." + newest, DumpName(parsing: String(entry.dropFirst())) != nil {
                removeDumpFolder(settings.folder + "/" + entry, system: system)
            } else if let dump = DumpName(parsing: entry) {
                dumps.append(dump)
            }
        }
        guard dumps.count > settings.keep else { return }
        dumps.sort { ($0.sequence, $0.text) < ($1.sequence, $1.text) }
        for dump in dumps.prefix(dumps.count - settings.keep) { removeDumpFolder(settings.folder + "/" + dump.text, system: system) }
    }

    /// Removes the files a dump holds, then the folder if nothing else is left in it (what
    /// someone put there stays, and so does the folder).
    private func removeDumpFolder(_ path: String, system: any SystemCalls) {
        // A symbolic link named like a dump is not ours: never followed.
        guard system.status(of: path)?.kind == .directory else { return }
        for name in system.listDirectory(path) where BlackBox.dumpFiles.contains(name) || BlackBox.isTemporaryOfDumpFile(name) {
            system.removeFile(path + "/" + name)
        }
        system.removeDirectory(path)
    }

    /// The files a dump folder holds.
    static let dumpFiles: Set<String> = ["trace.jsonl", "state.json", "config.toml", "screen.png"]

    /// `.state.json.Ab12Cd`: a dump file's temporary name (a write that failed half-way).
    private static func isTemporaryOfDumpFile(_ name: String) -> Bool {
        dumpFiles.contains { name.hasPrefix("." + $0 + ".") && name.utf8.count == $0.utf8.count + 8 }
    }
}

extension TraceResumePoint {
    /// A restart point as a trace carries it, its times counted from `origin`.
    init(_ start: BlackBoxRing.Start, origin: Microseconds) {
        self.init()
        let r = start.point.resumption
        elapsed = r.elapsed
        idleFor = r.idleFor
        attract = r.attract?.name
        language = r.language
        tiltReference = r.tiltReference
        appGravity = r.gravity
        if let m = start.motion {
            filteredGravity = m.gravity.map { Reading($0.x, $0.y, $0.z) }
            filteredGravityTime = m.gravity == nil ? nil : m.gravityTime.map { $0 - origin }
            repeatedReading = m.repeatedVector.map { Reading($0.x, $0.y, $0.z) }
            repeatedSince = m.repeatedSince - origin
            shakeQuietUntil = m.shakeQuietUntil.map { $0 - origin }
        }
    }

    /// The kiosk's side, for `KioskApp.Settings.resuming`. An attract demo the kiosk has no
    /// exhibit for is a trace error (`unknownAttract`), found before this is asked for.
    public var kioskResumption: KioskApp.Resumption {
        KioskApp.Resumption(elapsed: elapsed, idleFor: idleFor, attract: attract.flatMap(ExhibitRegistry.named), language: language,
                            tiltReference: tiltReference, gravity: appGravity)
    }

    /// The attract demo this restart point names when no exhibit has that name (a trace from
    /// another build): the replay refuses it rather than start somewhere else.
    public var unknownAttract: String? {
        guard let attract, ExhibitRegistry.named(attract) == nil else { return nil }
        return attract
    }

    /// The motion pipeline's side, on the trace's clock.
    public var motionSnapshot: MotionPipeline.Snapshot {
        MotionPipeline.Snapshot(gravity: filteredGravity.map { Vec3($0.x, $0.y, $0.z) }, gravityTime: filteredGravityTime,
                                repeatedVector: repeatedReading.map { Vec3($0.x, $0.y, $0.z) }, repeatedSince: repeatedSince,
                                shakeQuietUntil: shakeQuietUntil)
    }
}
