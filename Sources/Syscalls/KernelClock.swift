import CSystem

/// The kernel's view of the wall clock, and the date this kiosk was built: what tells a clock
/// a stand can go by from one that woke up at the last saved time (or 1970).
public enum KernelClock {
    /// adjtimex's status bits (read only: nothing is changed); nil when the call is refused
    /// (a service whose system call filter denies the clock calls, as ProtectClock= does).
    public static func status() -> Int32? {
        let s = motionkiosk_clock_status()
        return s < 0 ? nil : s
    }

    /// The status bit saying no time service disciplines the clock.
    public static var unsynchronisedBit: Int32 { motionkiosk_sta_unsync() }

    /// Whether the kernel says a time service synchronises the clock; nil when it cannot be
    /// asked.
    public static func synchronised() -> Bool? { status().map { $0 & unsynchronisedBit == 0 } }

    /// The build's date, seconds since 1970 (SOURCE_DATE_EPOCH or the last commit's date,
    /// passed by board/cross/build.sh); a build that passed none (SwiftPM's: passing it there
    /// would rebuild everything whenever it changes) counts from `sourcesDate`.
    public static var buildSeconds: Int64 { max(Int64(motionkiosk_build_epoch()), sourcesDate) }

    /// 2026-11-28 00:00 UTC: no build of these sources is older.
    public static let sourcesDate: Int64 = 1_795_824_000
}
