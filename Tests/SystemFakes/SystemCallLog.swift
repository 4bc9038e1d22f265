import Foundation
import Syscalls

/// The one fault mechanism of every fake below the seam (swift-system's mocking driver is the
/// model): each call a fake receives is recorded here, in order, with what it was about (a
/// path, a device, an ioctl), and a test makes chosen calls fail with an errno:
///
///     system.fail(.open, of: "/dev/dri/card0", errno: EACCES)      // the next open of the card
///     disk.fail(.write, nth: 3, errno: ENOSPC)                      // the third write from now
///     i2c.fail(.ioctl, of: "I2C_SMBUS", errno: EIO, times: .max)   // every transfer, until
///     i2c.stopFailing()                                             // the wire is mended
///
/// A failed call has no effect and throws `SystemError` with the attempt the real seam would
/// name ("open /dev/dri/card0", "DRM_IOCTL_MODE_ATOMIC"), so the message a technician would
/// read is what the test sees.
public final class SystemCallLog: @unchecked Sendable {
    /// Every kind of call a fake answers: the `SystemCalls` file and device calls, libdrm's,
    /// udev's.
    public enum Call: String, Sendable, CaseIterable {
        case open, close, read, write, ioctl, mmap, munmap, waitReadable, lock
        case readSmallFile, writeSmallFile, listDirectory
        case status, rename, removeFile, makeDirectory, makeNewDirectory, removeDirectory, setMode, syncFile, createUniqueFile
        case readCard, setMaster, dropMaster, createDumbBuffer, destroyDumbBuffer, addFramebuffer, removeFramebuffer
        case setCrtc, pageFlip, atomicCommit, setPlaneProperty, disablePlane, setConnectorProperty, createModeBlob, destroyBlob
        case udevMonitor
    }

    public struct Entry: Equatable, Sendable, CustomStringConvertible {
        public let call: Call
        /// What the call was about: a path (of the descriptor, for calls on one), an ioctl.
        public let subject: String
        public var description: String { subject.isEmpty ? call.rawValue : call.rawValue + " " + subject }
    }

    private struct Fault {
        let call: Call
        let subject: String?
        /// Matching calls still let through before this one fails.
        var skip: Int
        /// How many matching calls fail once it fires.
        var times: Int
        let errno: Int32
    }

    private let lock = NSLock()
    private var recorded: [Entry] = []
    private var failed: [Entry] = []
    private var faults: [Fault] = []

    public init() {}

    /// Makes the `nth` call of `call` from now whose subject contains `subject` (any, when
    /// nil) fail with `errno`, and `times` matching calls in all (`.max`: every one after).
    public func fail(_ call: Call, of subject: String? = nil, nth: Int = 1, errno: Int32, times: Int = 1) {
        precondition(nth >= 1 && times >= 1, "the first call is the 1st")
        lock.withLock { faults.append(Fault(call: call, subject: subject, skip: nth - 1, times: times, errno: errno)) }
    }

    /// Disarms the faults asked for `call` (every fault, when nil): the device works again.
    public func stopFailing(_ call: Call? = nil) {
        lock.withLock { faults.removeAll { call == nil || $0.call == call } }
    }

    /// Records a call; throws when a fault fires for it. `attempt` is what the error names
    /// (the call and its subject unless given).
    public func enter(_ call: Call, _ subject: String, attempt: String? = nil) throws(SystemError) {
        let errno: Int32? = lock.withLock {
            recorded.append(Entry(call: call, subject: subject))
            var firing: Int?
            for i in faults.indices where faults[i].call == call && (faults[i].subject.map { subject.contains($0) } ?? true) {
                if faults[i].skip > 0 { faults[i].skip -= 1 } else if firing == nil { firing = i }
            }
            guard let i = firing else { return nil }
            let e = faults[i].errno
            failed.append(Entry(call: call, subject: subject))
            faults[i].times -= 1
            if faults[i].times == 0 { faults.remove(at: i) }
            return e
        }
        if let errno { throw SystemError(errno: errno, attempt: attempt ?? Entry(call: call, subject: subject).description) }
    }

    /// Records a call that cannot fail (close, munmap, a release).
    public func record(_ call: Call, _ subject: String = "") {
        lock.withLock { recorded.append(Entry(call: call, subject: subject)) }
    }

    /// Every call so far, in order.
    public var entries: [Entry] { lock.withLock { recorded } }
    /// The calls that were made to fail, in order.
    public var failures: [Entry] { lock.withLock { failed } }
    /// The same as text: "open /dev/dri/card0", "syncFile /tmp/x/metrics.prom".
    public var calls: [String] { entries.map(\.description) }
    /// The subjects of one kind of call, in order.
    public func subjects(of call: Call) -> [String] { entries.filter { $0.call == call }.map(\.subject) }
    public func count(of call: Call) -> Int { entries.filter { $0.call == call }.count }
}

/// A fake that records into a `SystemCallLog`; the log's questions and switches are the
/// fake's own, so a test writes `drm.fail(.atomicCommit, errno: EACCES)`.
public protocol RecordingFake: AnyObject {
    var log: SystemCallLog { get }
}

public extension RecordingFake {
    func fail(_ call: SystemCallLog.Call, of subject: String? = nil, nth: Int = 1, errno: Int32, times: Int = 1) {
        log.fail(call, of: subject, nth: nth, errno: errno, times: times)
    }
    func stopFailing(_ call: SystemCallLog.Call? = nil) { log.stopFailing(call) }
    var calls: [String] { log.calls }
    var failures: [SystemCallLog.Entry] { log.failures }
    func subjects(of call: SystemCallLog.Call) -> [String] { log.subjects(of: call) }
    func count(of call: SystemCallLog.Call) -> Int { log.count(of: call) }
}
