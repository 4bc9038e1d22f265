#if canImport(Glibc)
import Glibc
#endif

enum FileHandleStderr {
    static func write(_ s: String) {
        var s = s
        s.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// Monotonic time in seconds, for timing benchmark runs only (never in kiosk logic).
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
