#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex: what `Synchronization.Mutex` gives, in a form Embedded
/// Swift (which has no `Mutex`) builds too. Log sinks and levels are shared with sensor
/// reader threads.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
