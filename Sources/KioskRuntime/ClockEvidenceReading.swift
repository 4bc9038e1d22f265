import OpeningHours
import Syscalls

extension ClockEvidence {
    /// systemd-timesyncd creates this once NTP has set the clock (a tmpfs: gone at boot).
    public static let timesyncdFlag = "/run/systemd/timesync/synchronized"
    public static let rtcFolder = "/sys/class/rtc"

    /// What this system says about its wall clock now: the kernel's synchronisation status,
    /// timesyncd's flag, an RTC that set the clock at boot, the clock itself.
    public static func read(system: any SystemCalls, kernelSynchronised: () -> Bool? = { KernelClock.synchronised() },
                            wallSeconds: Int64, buildSeconds: Int64 = KernelClock.buildSeconds) -> ClockEvidence {
        var rtc: String?
        for name in system.listDirectory(rtcFolder) where name.hasPrefix("rtc") && name.utf8.count <= 16 {
            // A sysfs attribute: "1" when this RTC set the system clock at boot.
            let said = (try? system.readSmallFile(rtcFolder + "/" + name + "/hctosys")) ?? nil
            if said?.split(separator: "\n").first == "1" { rtc = name; break }
        }
        return ClockEvidence(kernelSynchronised: kernelSynchronised(), timesyncdSynchronised: system.fileExists(timesyncdFlag),
                             rtcSetAtBoot: rtc, wallSeconds: wallSeconds, buildSeconds: buildSeconds)
    }
}
