import Platform
import Syscalls

/// A udev monitor whose descriptor is readable (on a `VirtualEvents` kernel) while events
/// are queued.
public final class FakeUdevMonitor: UdevMonitoring {
    public let fd: Int32
    let events: VirtualEvents
    public var queued: [UdevDevice] = []
    public init(events: VirtualEvents) { self.events = events; fd = events.makeDescriptor() }
    public func push(_ d: UdevDevice) { queued.append(d); events.makeReadable(fd) }
    public func receive() -> UdevDevice? {
        if queued.isEmpty { events.consumed(fd); return nil }
        return queued.removeFirst()
    }
}

/// udev with a fixed device list and one monitor; calls recorded in `log`, a monitor that
/// cannot be made failed through it (as a fake made without `events` always does).
public final class FakeUdev: UdevCalls, RecordingFake {
    public let log = SystemCallLog()
    public let monitor: FakeUdevMonitor?
    public var listed: [UdevDevice]
    public init(events: VirtualEvents? = nil, devices: [UdevDevice] = []) {
        monitor = events.map { FakeUdevMonitor(events: $0) }
        listed = devices
    }
    public func devices(subsystem: String) -> [UdevDevice] {
        log.record(.listDirectory, "udev " + subsystem)
        return listed.filter { $0.subsystem == subsystem }
    }
    public func monitor(subsystems: [String]) throws(SystemError) -> any UdevMonitoring {
        try log.enter(.udevMonitor, subsystems.joined(separator: " "), attempt: "udev monitor")
        guard let monitor else { throw SystemError(errno: 38, attempt: "udev monitor") }
        return monitor
    }
}
