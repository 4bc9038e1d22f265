import Diagnostics
import Geometry

/// Frames and touches between two summary lines.
struct FrameSummary {
    var frames = 0
    var touches = 0
    var frameTimes: [Microseconds] = []

    mutating func frame(took: Microseconds) {
        frames += 1
        if frameTimes.count < 20_000 { frameTimes.append(took) }
    }

    func line(seconds: Int, showing: String) -> String {
        let sorted = frameTimes.sorted()
        let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return "summary: \(fixed1(Double(frames) / Double(max(1, seconds)))) fps, frame p99 \(fixed2(Double(p99) / 1000)) ms, \(touches) touches, \(showing)"
    }
}
