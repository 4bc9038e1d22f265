import Diagnostics
import Geometry
import Trace

/// `--record`: what the frame loop handled, at the content time it handled it, so that a
/// replay meets every event at the same moment. Samples are written as read (before
/// validation); a trace never goes back in time.
final class TraceRecorder {
    private var writer: TraceWriter?
    private let log: Log
    private var start: Microseconds = 0
    private var last: Microseconds = 0

    init(writer: TraceWriter, log: Log) { self.writer = writer; self.log = log }

    func begin(at time: Microseconds) { start = time }

    func record(_ payload: TraceRecord.Payload, at time: Microseconds) {
        guard let writer, !writer.isStopped else { return }
        last = max(last, time - start)
        do { _ = try writer.append(TraceRecord(microseconds: last, payload)) } catch {
            log.error("recording stopped: \(error)")
            self.writer = nil
        }
    }

    /// Makes what was recorded so far durable (every minute and at closing time); a sync
    /// that fails stops the recording, as a write that fails does.
    func sync() {
        guard let writer else { return }
        do { try writer.sync() } catch {
            log.error("recording stopped: \(error)")
            self.writer = nil
        }
    }

    /// A last checkpoint, so that a replay can be compared with where the stand stopped.
    func finish(at time: Microseconds) {
        record(.checkpoint(name: "end"), at: time)
        sync()
        writer = nil
    }
}
