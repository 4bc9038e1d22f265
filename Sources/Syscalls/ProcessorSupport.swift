/// Whether this processor can run this build. The armhf build is compiled for ARMv7 with NEON
/// (board/cross/build.sh: every Raspberry Pi from the Pi 2 on has it); on an ARMv7 core
/// without NEON its vector instructions would stop the kiosk with SIGILL somewhere in its
/// first frame, so it says at start, plainly, that the board is not supported.
public enum ProcessorSupport {
    /// AT_HWCAP's NEON bit on 32-bit ARM (HWCAP_NEON in the kernel's asm/hwcap.h).
    public static let neonBit: UInt64 = 1 << 12

    /// True where the build's code needs NEON (32-bit ARM builds).
    public static var buildNeedsNEON: Bool {
        #if arch(arm)
        return true
        #else
        return false
        #endif
    }

    /// Why this build cannot run on this processor; nil when it can.
    public static func problem(system: any SystemCalls, needsNEON: Bool = buildNeedsNEON) -> String? {
        guard needsNEON, system.hardwareCapabilities() & neonBit == 0 else { return nil }
        return "this board is not supported: its processor has no NEON unit, which this 32-bit (armhf) build needs "
            + "(every Raspberry Pi from the Pi 2 on has one)"
    }
}
