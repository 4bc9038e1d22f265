import Exhibits
import Geometry
import Sensors
import Trace

/// The black box's memory: what the frame loop handled (touches, motion samples, pressure)
/// over the last few minutes, in RAM only, as one stream cut into segments. Each segment
/// starts at a restart point of the kiosk with what a replay needs to start there (`Start`),
/// so a dump that begins with a segment replays to the state the stand had.
///
/// Bounded twice: segments wholly older than `window` are dropped, and so is the oldest
/// segment while the records exceed `capacity`. A single segment longer than `capacity`
/// (someone played for an hour without an idle reset) loses its oldest records and with
/// them its starting point: a dump of it still holds the inputs, but is marked partial.
struct BlackBoxRing {
    /// Where a replay can start: the app's restart point and the motion pipeline there.
    struct Start {
        var point: KioskApp.RestartPoint
        /// nil: the stand had no motion sensors.
        var motion: MotionPipeline.Snapshot?
    }

    /// One record, 40 bytes: kind, touch phase and slot, up to three numbers.
    struct Entry {
        var time: Microseconds
        var kind: Kind
        var phase: TouchPhase
        var slot: Int32
        var a: Double, b: Double, c: Double
    }

    enum Kind: UInt8 { case touch, accel, gravity, pressure }

    struct Segment {
        /// The stream index of its first record.
        var firstIndex: Int
        var time: Microseconds
        /// nil: its first records were dropped (a partial segment).
        var start: Start?
    }

    let window: Microseconds
    let capacity: Int
    private(set) var entries: [Entry] = []
    /// The stream index of `entries[0]`.
    private(set) var dropped = 0
    private(set) var segments: [Segment] = []

    init(window: Microseconds, capacity: Int) {
        self.window = max(1, window)
        self.capacity = max(16, capacity)
        // Room for the most it ever holds (a record appended before the trim), reserved once:
        // pages are touched only as records arrive, and it never grows by doubling (a copy
        // beside the old array, 2 × 2.6 MB for a moment at the default capacity).
        entries.reserveCapacity(self.capacity + 1)
    }

    var recordCount: Int { entries.count }

    /// A new segment from the next record on.
    mutating func begin(_ start: Start) {
        segments.append(Segment(firstIndex: dropped + entries.count, time: start.point.time, start: start))
        trim(now: start.point.time)
    }

    mutating func record(_ payload: TraceRecord.Payload, at time: Microseconds) {
        var e = Entry(time: time, kind: .touch, phase: .down, slot: 0, a: 0, b: 0, c: 0)
        switch payload {
        case let .touch(phase, id, x, y):
            e.phase = phase; e.slot = Int32(truncatingIfNeeded: id); e.a = x; e.b = y
        case let .accel(x, y, z):
            e.kind = .accel; e.a = x; e.b = y; e.c = z
        case let .gravity(x, y, z):
            e.kind = .gravity; e.a = x; e.b = y; e.c = z
        case let .pressure(kpa):
            e.kind = .pressure; e.a = kpa
        case .checkpoint:
            return
        }
        if segments.isEmpty { segments.append(Segment(firstIndex: dropped, time: time, start: nil)) }
        entries.append(e)
        trim(now: time)
    }

    private mutating func trim(now: Microseconds) {
        // Whole segments the window no longer needs: the next one starts early enough.
        var firstKept = 0
        while firstKept + 1 < segments.count, segments[firstKept + 1].time <= now - window { firstKept += 1 }
        while entries.count > capacity, firstKept + 1 < segments.count { firstKept += 1 }
        if firstKept > 0 {
            let cut = segments[firstKept].firstIndex - dropped
            segments.removeFirst(firstKept)
            entries.removeFirst(cut)
            dropped += cut
        }
        if entries.count > capacity {
            // One long segment: drop a quarter of it at a time (not one record per record).
            let cut = entries.count - capacity * 3 / 4
            entries.removeFirst(cut)
            dropped += cut
            segments[0].firstIndex = dropped
            segments[0].time = entries.first?.time ?? now
            segments[0].start = nil
        }
    }

    /// Each record from `segment` on, timed from its start (one at a time: a dump never
    /// holds a second copy of the ring).
    func forEachRecord<E: Error>(from segment: Segment, _ body: (TraceRecord) throws(E) -> Void) throws(E) {
        for i in (segment.firstIndex - dropped)..<entries.count {
            let e = entries[i]
            let payload: TraceRecord.Payload
            switch e.kind {
            case .touch: payload = .touch(phase: e.phase, id: Int(e.slot), x: e.a, y: e.b)
            case .accel: payload = .accel(x: e.a, y: e.b, z: e.c)
            case .gravity: payload = .gravity(x: e.a, y: e.b, z: e.c)
            case .pressure: payload = .pressure(kpa: e.a)
            }
            try body(TraceRecord(microseconds: e.time - segment.time, payload))
        }
    }
}
