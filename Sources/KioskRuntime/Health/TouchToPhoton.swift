import Geometry

/// How long a visitor's finger waits for the glass: from the kernel's timestamp of a touch
/// frame to the completion of the first page flip whose frame was drawn after the kiosk
/// handled it (the flip event's own timestamp; both on CLOCK_MONOTONIC). Kept as the last
/// `capacity` latencies for percentiles and as a histogram for the metrics.
public struct TouchToPhoton {
    /// Histogram bounds, seconds: one 60 Hz frame, two, three, and slow.
    public static let bounds = [0.008, 0.0167, 0.025, 0.0333, 0.05, 0.0667, 0.1, 0.2, 0.5]
    public static let capacity = 4096

    private var recent: [Microseconds] = []
    private var next = 0
    private(set) var buckets = [Int](repeating: 0, count: TouchToPhoton.bounds.count)
    public private(set) var count = 0
    private(set) var sumSeconds = 0.0

    public init() {}

    mutating func add(_ latency: Microseconds) {
        let l = max(0, latency)
        if recent.count < TouchToPhoton.capacity { recent.append(l) } else { recent[next] = l }
        next = (next + 1) % TouchToPhoton.capacity
        count += 1
        let seconds = Double(l) / 1_000_000
        sumSeconds += seconds
        for (i, bound) in TouchToPhoton.bounds.enumerated() where seconds <= bound { buckets[i] += 1 }
    }

    /// The `q` quantile (0…1) of the recent latencies, ms; nil before any.
    public func percentile(_ q: Double) -> Double? {
        guard !recent.isEmpty else { return nil }
        let sorted = recent.sorted()
        let i = min(sorted.count - 1, max(0, Int((Double(sorted.count) * q).rounded(.up)) - 1))
        return Double(sorted[i]) / 1000
    }

    /// "touch to photon p50 12.3 ms, p99 20.1 ms over 300 touch frames", or nil before any.
    public var summary: String? {
        guard let p50 = percentile(0.5), let p99 = percentile(0.99) else { return nil }
        return "touch to photon p50 \(fixed1(p50)) ms, p99 \(fixed1(p99)) ms over \(recent.count) touch frames"
    }
}
