import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// Runs a polled source's reads on a thread of its own; the main loop only drains what
/// arrived. Needed because a sysfs read can sleep: the kernel's st_sensors drivers
/// (LIS3DH & co.) power the chip up and sleep 2/ODR for *each* one-shot `_raw` read, i.e.
/// 3 × 40 ms per sample at 50 Hz, which would stall a 60 fps frame loop.
///
/// The wrapped source is touched only by the reader thread until `close` has joined it.
/// Timestamps come from `now`, which must be safe to call from any thread
/// (CLOCK_MONOTONIC); samples wait in a bounded queue (oldest dropped beyond `capacity`).
/// The thread keeps the object alive: `close()` is what stops it.
public final class BackgroundPolledSource: AccelerationSource, @unchecked Sendable {
    public let inner: AccelerationSource
    public var kind: AccelerationSourceKind { inner.kind }
    public let interval: Microseconds
    public let capacity: Int
    private let now: @Sendable () -> Microseconds
    private var mutex = pthread_mutex_t()
    // Guarded by `mutex`:
    private var queue: [AccelerationSample] = []
    private var failures = 0
    private var lastFailure: SensorReadError?
    private var stopping = false
    private var finished = false
    // Main thread only:
    private var thread: pthread_t?

    public var name: String { inner.name + " on a reader thread" }
    /// The main loop drains at the inner source's rate.
    public var cadence: SampleCadence { .poll(interval) }
    public var frame: SampleFrame { inner.frame }

    /// `inner` must have `.poll` cadence.
    public init(_ inner: AccelerationSource, now: @escaping @Sendable () -> Microseconds, capacity: Int = 256) {
        guard case .poll(let i) = inner.cadence else { preconditionFailure("only polled sources need a reader thread") }
        self.inner = inner
        self.interval = i
        self.now = now
        self.capacity = capacity
        pthread_mutex_init(&mutex, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let r = pthread_create(&tid, nil, { context in
            let source = Unmanaged<BackgroundPolledSource>.fromOpaque(context!).takeRetainedValue()
            source.run()
            return nil
        }, context)
        if r == 0 {
            thread = tid
        } else {
            // No thread: give the reference back and report the failure on the first read.
            Unmanaged<BackgroundPolledSource>.fromOpaque(context).release()
            finished = true
            lastFailure = .gone("cannot start a reader thread for \(inner.name): errno \(r)")
        }
    }

    deinit {
        close()
        pthread_mutex_destroy(&mutex)
    }

    private func run() {
        var local: [AccelerationSample] = []
        var next = now()
        while true {
            pthread_mutex_lock(&mutex)
            let stop = stopping
            pthread_mutex_unlock(&mutex)
            if stop { break }
            local.removeAll(keepingCapacity: true)
            var failure: SensorReadError?
            do { try inner.read(now: now(), into: &local) } catch { failure = error }
            pthread_mutex_lock(&mutex)
            queue.append(contentsOf: local)
            if queue.count > capacity { queue.removeFirst(queue.count - capacity) }
            if let failure {
                failures += 1
                lastFailure = failure
            }
            let gone: Bool
            if case .gone? = failure { gone = true; finished = true } else { gone = false }
            pthread_mutex_unlock(&mutex)
            if gone { break }
            next += interval
            let wait = next - now()
            if wait > 0 {
                var ts = timespec(tv_sec: Int(wait / 1_000_000), tv_nsec: Int(wait % 1_000_000) * 1000)
                var rest = timespec()
                while nanosleep(&ts, &rest) != 0 && errno == EINTR { ts = rest }
            } else {
                next = now()  // fell behind (slow reads): do not try to catch up
            }
        }
    }

    public func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        pthread_mutex_lock(&mutex)
        samples.append(contentsOf: queue)
        queue.removeAll(keepingCapacity: true)
        let failure = lastFailure, count = failures
        lastFailure = nil
        failures = 0
        pthread_mutex_unlock(&mutex)
        switch failure {
        case .gone(let why)?: throw .gone(why)
        case .failed(let why)?: throw .failed(count > 1 ? "\(why) (\(count) reads failed since the last drain)" : why)
        case nil: return
        }
    }

    public func close() {
        guard let t = thread else { return }
        thread = nil
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_mutex_unlock(&mutex)
        pthread_join(t, nil)
        inner.close()
    }
}
