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
    /// Dump folders go here, one per dump, named by local time and reason.
    public var folder = "/var/lib/motionkiosk/blackbox"
    /// How far back a dump reaches (at least; it starts at a restart point before this).
    public var window: Microseconds = 300_000_000
    /// Records kept at most (40 bytes each): 5 minutes of a 100 Hz accelerometer and a
    /// busy pair of fingers.
    public var capacity = 65_536
    /// Dump folders kept; the oldest go first.
    public var keep = 10
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

    func begin(_ start: BlackBoxRing.Start) { ring.begin(start) }
    func record(_ payload: TraceRecord.Payload, at time: Microseconds) { ring.record(payload, at: time) }

    /// Writes a dump of everything kept up to `now` (content time) into a new folder, then
    /// removes the oldest folders beyond `keep`. The folder appears whole (it is written
    /// under a hidden name and renamed).
    func dump(reason: String, now: Microseconds, state: String, screen: PixelBuffer?, system: any SystemCalls) throws(SystemError) -> BlackBoxDump {
        try system.makeDirectory(settings.folder, mode: 0o750)
        let name = folderName(reason: reason, system: system)
        let final = settings.folder + "/" + name
        let temporary = settings.folder + "/." + name
        try system.makeDirectory(temporary, mode: 0o750)
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
            try system.rename(temporary, to: final)
        } catch {
            removeFolder(temporary, system: system)
            throw error
        }
        prune(system: system)
        return BlackBoxDump(folder: final, records: written, replaysExactly: exact)
    }

    private func folderName(reason: String, system: any SystemCalls) -> String {
        let t = WallClock.local(Int64(settings.wallClock()))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let stamp = "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour))-\(two(t.minute))-\(two(t.second))"
        let existing = Set(system.listDirectory(settings.folder))
        var name = stamp + "-" + reason
        var n = 2
        while existing.contains(name) { name = stamp + "-" + reason + "-\(n)"; n += 1 }
        return name
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
        let fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o640)
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
        } catch {
            system.close(fd)
            throw error
        }
        system.close(fd)
        return (count, segment.start != nil)
    }

    /// Keeps the newest `keep` dump folders (their names sort by time).
    private func prune(system: any SystemCalls) {
        let dumps = system.listDirectory(settings.folder).filter { !$0.hasPrefix(".") }.sorted()
        guard dumps.count > settings.keep else { return }
        for name in dumps.prefix(dumps.count - settings.keep) { removeFolder(settings.folder + "/" + name, system: system) }
    }

    /// A dump folder holds plain files only.
    private func removeFolder(_ path: String, system: any SystemCalls) {
        for name in system.listDirectory(path) { system.removeFile(path + "/" + name) }
        system.removeDirectory(path)
    }
}

extension TraceResumePoint {
    /// A restart point as a trace carries it, its times counted from `origin`.
    init(_ start: BlackBoxRing.Start, origin: Microseconds) {
        self.init()
        let r = start.point.resumption
        elapsed = r.elapsed
        idleFor = r.idleFor
        attract = r.attract
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

    /// The kiosk's side, for `KioskApp.Settings.resuming`.
    public var kioskResumption: KioskApp.Resumption {
        KioskApp.Resumption(elapsed: elapsed, idleFor: idleFor, attract: attract, language: language,
                            tiltReference: tiltReference, gravity: appGravity)
    }

    /// The motion pipeline's side, on the trace's clock.
    public var motionSnapshot: MotionPipeline.Snapshot {
        MotionPipeline.Snapshot(gravity: filteredGravity.map { Vec3($0.x, $0.y, $0.z) }, gravityTime: filteredGravityTime,
                                repeatedVector: repeatedReading.map { Vec3($0.x, $0.y, $0.z) }, repeatedSince: repeatedSince,
                                shakeQuietUntil: shakeQuietUntil)
    }
}
