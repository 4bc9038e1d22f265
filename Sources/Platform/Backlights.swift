import Syscalls

/// The panels' backlights in /sys/class/backlight (a DSI panel has one; HDMI monitors do
/// not): off outside opening hours, so that a panel whose DPMS leaves it lit goes dark too.
public struct Backlights {
    public let system: any SystemCalls
    public let root: String

    public init(system: any SystemCalls, root: String = "/sys/class/backlight") { self.system = system; self.root = root }

    /// Writes bl_power of every backlight (0 on, 4 off, the kernel's FB_BLANK values);
    /// returns a problem per backlight that refused.
    @discardableResult
    public func setPower(_ on: Bool) -> [String] {
        var problems: [String] = []
        for name in system.listDirectory(root).sorted() {
            let path = "\(root)/\(name)/bl_power"
            do throws(SystemError) { try system.writeSmallFile(path, on ? "0" : "4") } catch {
                problems.append("backlight \(name): \(error)")
            }
        }
        return problems
    }
}
