#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket.
final class NotifySocket {
    let path: String
    let fd: Int32
    init(_ path: String) {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
    deinit { close(fd); unlink(path) }
    /// The messages waiting, in order.
    func received() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var messages: [String] = []
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { return messages }
            messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
    }
    /// Reads what the kiosk said (READY, RELOADING, …): systemd does, and a full queue
    /// would make the kiosk wait.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
    /// The first message waiting, left in the queue; nil when none.
    func peek() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT | MSG_PEEK))
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}
