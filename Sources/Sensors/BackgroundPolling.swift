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
    /// Wakes the reader early: a new pace, or closing.
    private var wake = pthread_cond_t()
    // Guarded by `mutex`:
    private var pace: Microseconds
    private var paceChanges = 0
    private var queue: [AccelerationSample] = []
    private var failures = 0
    private var lastFailure: SensorReadError?
    private var stopping = false
    private var finished = false
    // Main thread only:
    private var thread: pthread_t?
    public private(set) var failuresInLastError = 1

    public var name: String { inner.name + " on a reader thread" }
    /// The main loop drains at the inner source's rate (`MotionSensors` slows both at rest).
    public var cadence: SampleCadence { .poll(interval) }
    public var frame: SampleFrame { inner.frame }

    /// `inner` must have `.poll` cadence.
    public init(_ inner: AccelerationSource, now: @escaping @Sendable () -> Microseconds, capacity: Int = 256) {
        guard case .poll(let i) = inner.cadence else { preconditionFailure("only polled sources need a reader thread") }
        self.inner = inner
        self.interval = i
        pace = i
        self.now = now
        self.capacity = capacity
        pthread_mutex_init(&mutex, nil)
        // Timed waits on the monotonic clock, the one `now` reads.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&wake, &attributes)
        pthread_condattr_destroy(&attributes)
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
        pthread_cond_destroy(&wake)
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
            pthread_mutex_lock(&mutex)
            next += pace
            let seen = paceChanges
            // Sleep until the next read, or until the pace changes (a stand at rest starts
            // moving: read at once) or the source closes.
            while !stopping && paceChanges == seen {
                let wait = next - now()
                if wait <= 0 { break }
                let deadline = now() + wait
                var ts = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1000)
                _ = pthread_cond_timedwait(&wake, &mutex, &ts)
            }
            if paceChanges != seen || next < now() { next = now() }  // never try to catch up
            pthread_mutex_unlock(&mutex)
        }
    }

    /// Reads every `microseconds` from now on (at least the source's own interval); a
    /// change wakes the reader at once.
    public func setPace(_ microseconds: Microseconds) {
        pthread_mutex_lock(&mutex)
        let new = max(interval, microseconds)
        if new != pace {
            pace = new
            paceChanges += 1
            pthread_cond_signal(&wake)
        }
        pthread_mutex_unlock(&mutex)
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
        case .failed(let why)?:
            failuresInLastError = max(1, count)
            throw .failed(count > 1 ? "\(why) (\(count) reads failed since the last drain)" : why)
        case nil: return
        }
    }

    public func close() {
        guard let t = thread else { return }
        thread = nil
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_signal(&wake)
        pthread_mutex_unlock(&mutex)
        pthread_join(t, nil)
        inner.close()
    }
}
