import Testing
@testable import Syscalls
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemdNotifierTests {
    /// A datagram socket standing in for systemd's notify socket.
    final class FakeSystemd {
        let fd: Int32
        let path: String
        init() throws {
            path = "/tmp/motionkiosk-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(r == 0)
        }
        deinit { close(fd); unlink(path) }
        func receive() -> String {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
        }
    }

    @Test func sendsReadyAndWatchdog() throws {
        let systemd = try FakeSystemd()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "5000000"])
        #expect(notifier.isActive)
        #expect(notifier.watchdogInterval == 5_000_000)
        try notifier.ready(status: "first frame on DSI-1")
        #expect(systemd.receive() == "READY=1\nSTATUS=first frame on DSI-1")
        try notifier.watchdog()
        #expect(systemd.receive() == "WATCHDOG=1")
        try notifier.watchdog(period: SystemdNotifier.startingAgainGrace)
        #expect(systemd.receive() == "WATCHDOG=1\nWATCHDOG_USEC=60000000")
    }

    @Test func silentOutsideSystemd() throws {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isActive)
        #expect(notifier.watchdogInterval == nil)
        try notifier.ready()
    }

    @Test func watchdogForAnotherProcessIsIgnored() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "100", "WATCHDOG_PID": "1"])
        #expect(getpid() == 1 || notifier.watchdogInterval == nil)
    }

    @Test func missingSocketIsAnErrorNamingIt() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/tmp/motionkiosk-no-such-socket"])
        #expect {
            try notifier.ready()
        } throws: { error in
            (error as? SystemError)?.description.hasPrefix("send 'READY=1' to /tmp/motionkiosk-no-such-socket:") == true
        }
    }
}
