#if canImport(Glibc)
import Glibc
#endif

/// Tells systemd about the service's state (sd_notify protocol, without libsystemd): one
/// datagram per message to the AF_UNIX socket named by $NOTIFY_SOCKET ("@name" = abstract).
/// Outside systemd there is no socket and every call is a no-op.
public final class SystemdNotifier: @unchecked Sendable {
    private let socketPath: String?
    private var fd: Int32 = -1
    /// Watchdog period systemd expects pings within ($WATCHDOG_USEC), if any.
    public let watchdogInterval: Int64?

    public init(environment: [String: String] = SystemdNotifier.processEnvironment()) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if pidMatches, let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0 {
            watchdogInterval = usec
        } else {
            watchdogInterval = nil
        }
    }
    deinit { if fd >= 0 { Glibc.close(fd) } }

    public var isActive: Bool { socketPath != nil }

    /// "READY=1" once the first frame is on screen.
    public func ready(status: String? = nil) throws(SystemError) {
        try send("READY=1" + (status.map { "\nSTATUS=\($0)" } ?? ""))
    }
    /// "WATCHDOG=1" from the main loop; ping at half of `watchdogInterval`.
    public func watchdog() throws(SystemError) { try send("WATCHDOG=1") }
    /// A ping that also sets the period the next one is due within (sd_notify's
    /// WATCHDOG_USEC=): `startingAgainGrace` before the process starts again in place, whose
    /// new image has fonts and a display to open before its pings resume; the configured
    /// period again once they do.
    public func watchdog(period microseconds: Int64) throws(SystemError) {
        try send("WATCHDOG=1\nWATCHDOG_USEC=\(microseconds)")
    }
    /// How long a kiosk starting again in place may take to its first ping.
    public static let startingAgainGrace: Int64 = 60_000_000
    public func stopping() throws(SystemError) { try send("STOPPING=1") }
    /// Re-reading the configuration (sd_notify(3): RELOADING with the monotonic time, then
    /// READY when done).
    public func reloading(monotonicMicroseconds: Int64) throws(SystemError) {
        try send("RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)")
    }
    public func status(_ text: String) throws(SystemError) { try send("STATUS=\(text)") }

    public func send(_ message: String) throws(SystemError) {
        guard let path = socketPath else { return }
        if fd < 0 {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { throw SystemError(errno: errno, attempt: "socket for NOTIFY_SOCKET") }
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw SystemError(errno: ENAMETOOLONG, attempt: "NOTIFY_SOCKET \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in pathBytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { ap in
            ap.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { Glibc.sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
        if sent < 0 { throw SystemError(errno: errno, attempt: "send '\(message)' to \(path)") }
    }

    public static func processEnvironment() -> [String: String] {
        var out: [String: String] = [:]
        // Optional either way: an implicitly unwrapped pointer in Glibc's overlay, an optional
        // one from the C header that Embedded builds import.
        let first: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var p = first else { return out }
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}
