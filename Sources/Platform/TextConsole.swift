#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The virtual terminal under the picture. While the kiosk runs, the VT is in KD_GRAPHICS
/// (the console neither draws over the picture nor blinks its cursor) and the cursor is
/// hidden; `restore()` puts back the previous mode and shows the cursor. Without a VT
/// (serial console only, containers) there is nothing to do.
public final class TextConsole {
    private let system: any SystemCalls
    private var fd: Int32 = -1
    private var previousMode: Int32 = 0
    public let path: String
    public private(set) var note: String?

    // linux/kd.h
    static let getMode: UInt = 0x4B3B
    static let setMode: UInt = 0x4B3A
    static let text: Int32 = 0
    static let graphics: Int32 = 1

    public init(system: any SystemCalls, path: String = "/dev/tty0") {
        self.system = system
        self.path = path
        do {
            fd = try system.open(path, flags: O_RDWR | O_NOCTTY)
            var mode: Int32 = 0
            _ = try system.ioctl(fd, Self.getMode, &mode, what: "KDGETMODE \(path)")
            previousMode = mode
            // KDSETMODE takes the mode itself as the argument, not a pointer to it.
            _ = try system.ioctl(fd, Self.setMode, UnsafeMutableRawPointer(bitPattern: Int(Self.graphics)), what: "KDSETMODE KD_GRAPHICS \(path)")
            write("\u{1B}[?25l")
        } catch {
            note = "console left as it is (\(error))"
            if fd >= 0 { system.close(fd); fd = -1 }
        }
    }

    deinit { restore() }

    public var isGraphics: Bool { fd >= 0 }

    public func restore() {
        guard fd >= 0 else { return }
        _ = try? system.ioctl(fd, Self.setMode, UnsafeMutableRawPointer(bitPattern: Int(previousMode)), what: "KDSETMODE \(path)")
        write("\u{1B}[?25h")
        system.close(fd)
        fd = -1
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = try? bytes.withUnsafeBytes { (b) throws(SystemError) -> Int in try system.write(fd, from: b) }
    }
}
