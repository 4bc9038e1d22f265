#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// The virtual terminal under the picture. While the kiosk runs, the VT is in KD_GRAPHICS
/// (the console neither draws over the picture nor blinks its cursor), the cursor is
/// hidden, and the VT's keyboard is off (K_OFF), so keys typed for the kiosk — read by
/// libinput — are not echoed onto the console or left for a login prompt. `restore()` puts
/// back the previous modes and shows the cursor. Without a VT (serial console only,
/// containers) there is nothing to do.
public final class TextConsole {
    private let system: any SystemCalls
    private var fd: Int32 = -1
    private var previousMode: Int32 = 0
    private var previousKeyboardMode: Int32?
    public let path: String
    public private(set) var note: String?

    // linux/kd.h
    static let getMode: UInt = 0x4B3B
    static let setMode: UInt = 0x4B3A
    static let text: Int32 = 0
    static let graphics: Int32 = 1
    static let getKeyboardMode: UInt = 0x4B44
    static let setKeyboardMode: UInt = 0x4B45
    static let keyboardOff: Int32 = 0x04

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
            var keyboard: Int32 = 0
            if (try? system.ioctl(fd, Self.getKeyboardMode, &keyboard, what: "KDGKBMODE \(path)")) != nil,
               (try? system.ioctl(fd, Self.setKeyboardMode, UnsafeMutableRawPointer(bitPattern: Int(Self.keyboardOff)),
                                  what: "KDSKBMODE K_OFF \(path)")) != nil {
                previousKeyboardMode = keyboard
            }
        } catch {
            note = "console left as it is (\(error))"
            if fd >= 0 { system.close(fd); fd = -1 }
        }
    }

    deinit { restore() }

    public var isGraphics: Bool { fd >= 0 }

    public func restore() {
        guard fd >= 0 else { return }
        if let k = previousKeyboardMode {
            _ = try? system.ioctl(fd, Self.setKeyboardMode, UnsafeMutableRawPointer(bitPattern: Int(k)), what: "KDSKBMODE \(path)")
        }
        _ = try? system.ioctl(fd, Self.setMode, UnsafeMutableRawPointer(bitPattern: Int(previousMode)), what: "KDSETMODE \(path)")
        write("\u{1B}[?25h")
        system.close(fd)
        fd = -1
    }

    private func write(_ text: String) {
        let bytes = Array(text.utf8)
        let system = self.system, fd = self.fd
        _ = bytes.withUnsafeBytes { b in Result { () throws(SystemError) -> Int in try system.write(fd, from: b) } }
    }
}
