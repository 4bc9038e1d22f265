import Geometry

/// Velocity of a sampled quantity (a translation, a scale, an angle) by a least-squares line
/// through the samples of the last `window`, measured back from the moment asked about.
/// A fit over ~100 ms keeps ±2 px jitter at 120 Hz from turning into ±500 px/s, and still
/// has three samples at the FT5406's 25 Hz. A finger that stopped before lifting has no
/// samples in the window and reads zero, as in UIKit.
struct VelocityEstimator {
    var window: Microseconds = 100_000
    private var times: [Microseconds] = []
    private var values: [Vec2] = []

    mutating func reset() { times.removeAll(keepingCapacity: true); values.removeAll(keepingCapacity: true) }

    /// The quantity was re-based (`setTranslation`, `rotation = 0`): move the history along so
    /// the velocity is unchanged.
    mutating func shift(by offset: Vec2) {
        for i in values.indices { values[i] += offset }
    }
    /// The same for a multiplicative quantity (`scale = 1`).
    mutating func multiply(by factor: Double) {
        for i in values.indices { values[i] *= factor }
    }

    mutating func add(_ value: Vec2, at time: Microseconds) {
        // Events delivered late (a debounced lift) may carry an earlier time than the last
        // sample; keep the series ordered.
        let t = max(time, times.last ?? time)
        if let last = times.last, last == t {
            values[values.count - 1] = value
            return
        }
        times.append(t); values.append(value)
        // Keep what the window can use, plus one older sample for the two-point fallback.
        while times.count > 2, times[1] < t - window {
            times.removeFirst(); values.removeFirst()
        }
    }

    /// Units per second at `now`.
    func velocity(at now: Microseconds) -> Vec2 {
        guard let lastTime = times.last, now - lastTime <= window else { return .zero }
        var first = times.count - 1
        while first > 0, times[first - 1] >= now - window { first -= 1 }
        if times.count - first < 2 {
            // One sample in the window (sparse sampling): the slope to the one before it.
            guard times.count >= 2 else { return .zero }
            let i = times.count - 1
            let dt = Double(times[i] - times[i - 1]) / 1_000_000
            return dt > 0 ? (values[i] - values[i - 1]) / dt : .zero
        }
        let n = Double(times.count - first)
        var meanT = 0.0, meanV = Vec2.zero
        for i in first..<times.count {
            meanT += Double(times[i] - lastTime) / 1_000_000
            meanV += values[i]
        }
        meanT /= n; meanV = meanV / n
        var stt = 0.0, stv = Vec2.zero
        for i in first..<times.count {
            let dt = Double(times[i] - lastTime) / 1_000_000 - meanT
            stt += dt * dt
            stv += (values[i] - meanV) * dt
        }
        return stt > 0 ? stv / stt : .zero
    }
}
