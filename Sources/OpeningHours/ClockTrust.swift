/// What a powered stand does while its wall clock cannot be believed (`[schedule]
/// when_clock_unknown`): a Pi without network and without a real-time clock boots at the
/// last time it saved, or 1970, and its opening hours would be read off that.
public enum WhenClockUnknown: String, CaseIterable, Equatable, Sendable {
    /// Powered means open: right for museums that switch stands at the mains.
    case open
    /// Dark until the clock is known.
    case closed
}

/// What the system says about its wall clock, read at one moment.
public struct ClockEvidence: Equatable, Sendable {
    /// The kernel's word (adjtimex): true when a time service disciplines the clock (no
    /// STA_UNSYNC), false when it says unsynchronised, nil when it could not be asked (a
    /// service whose system call filter denies the clock calls).
    public var kernelSynchronised: Bool?
    /// systemd-timesyncd's /run/systemd/timesync/synchronized exists: NTP set the clock
    /// since boot.
    public var timesyncdSynchronised = false
    /// An RTC that set the system clock at boot (its `hctosys` is 1), e.g. "rtc0".
    public var rtcSetAtBoot: String?
    /// The wall clock now, seconds since 1970.
    public var wallSeconds: Int64
    /// The kiosk's build date, seconds since 1970: no clock can be right before it.
    public var buildSeconds: Int64

    public init(kernelSynchronised: Bool?, timesyncdSynchronised: Bool = false, rtcSetAtBoot: String? = nil,
                wallSeconds: Int64, buildSeconds: Int64) {
        self.kernelSynchronised = kernelSynchronised
        self.timesyncdSynchronised = timesyncdSynchronised
        self.rtcSetAtBoot = rtcSetAtBoot
        self.wallSeconds = wallSeconds
        self.buildSeconds = buildSeconds
    }

    /// Trusted or not, and why, in words for the journal and the commissioning screen.
    public var verdict: ClockVerdict {
        if wallSeconds < buildSeconds {
            return ClockVerdict(trusted: false, reason: "it reads \(CivilTime.utc(wallSeconds)) UTC, before this kiosk was built (\(CivilTime.utc(buildSeconds)) UTC)")
        }
        if timesyncdSynchronised { return ClockVerdict(trusted: true, reason: "systemd-timesyncd synchronised it") }
        if kernelSynchronised == true { return ClockVerdict(trusted: true, reason: "the kernel says a time service synchronises it") }
        if let rtc = rtcSetAtBoot { return ClockVerdict(trusted: true, reason: "the real-time clock \(rtc) set it at boot") }
        let kernel = kernelSynchronised == nil ? "the kernel's status cannot be read here" : "the kernel says unsynchronised"
        return ClockVerdict(trusted: false, reason: "no network time (\(kernel), no systemd-timesyncd sync) and no real-time clock set it at boot")
    }
}

public struct ClockVerdict: Equatable, Sendable {
    public var trusted: Bool
    public var reason: String
    public init(trusted: Bool, reason: String) { self.trusted = trusted; self.reason = reason }
    public var word: String { trusted ? "trusted" : "untrusted" }
}

/// Whether the stand's wall clock can be believed, kept up to date: looked at again when
/// asked after `lookAgainEvery` (or at once after `lookAgain()`, e.g. on a clock step).
/// Shared by reference between the schedule, the metrics and the commissioning line.
public final class ClockTrust {
    /// What the stand does meanwhile (a reload may change it).
    public var whenUnknown: WhenClockUnknown
    /// Evidence read from the system; nil: the verdict is fixed (a replay's `--clock`).
    private let look: (() -> ClockEvidence)?
    /// Told once when the verdict is first known, and at each change of trust.
    private let tell: (String) -> Void
    public private(set) var verdict: ClockVerdict
    /// Called with the verdict when it is first known and at each change of trust.
    public var verdictChanged: (ClockVerdict) -> Void = { _ in }
    private var lookedAt: Int64?
    private var told = false

    /// The loop looks at the clock again this often while it is not trusted.
    public static let lookAgainEvery: Int64 = 60_000_000

    /// A verdict read from the system through `look`.
    public init(whenUnknown: WhenClockUnknown, look: @escaping () -> ClockEvidence, tell: @escaping (String) -> Void) {
        self.whenUnknown = whenUnknown
        self.look = look
        self.tell = tell
        verdict = ClockVerdict(trusted: false, reason: "not looked at yet")
    }

    /// A verdict that never changes.
    public init(fixed trusted: Bool, whenUnknown: WhenClockUnknown, reason: String? = nil) {
        self.whenUnknown = whenUnknown
        look = nil
        tell = { _ in }
        verdict = ClockVerdict(trusted: trusted, reason: reason ?? (trusted ? "taken as right" : "taken as unknown"))
    }

    /// Always trusted: a schedule's default (replays and tests without `--clock`).
    public static func alwaysTrusted() -> ClockTrust { ClockTrust(fixed: true, whenUnknown: .open) }

    /// Whether the verdict can change (it is read from the system).
    public var followsTheSystem: Bool { look != nil }

    /// The verdict at monotonic `now` (microseconds), looked at again when due.
    public func isTrusted(at now: Int64) -> Bool {
        refresh(at: now)
        return verdict.trusted
    }

    /// The next `isTrusted` reads the system again (the wall clock was stepped).
    public func lookAgain() { lookedAt = nil }

    /// Reads the system if due; tells the first verdict and every change of trust.
    public func refresh(at now: Int64) {
        guard let look else { return }
        if let at = lookedAt, now >= at, now - at < ClockTrust.lookAgainEvery { return }
        lookedAt = now
        let next = look().verdict
        let changed = next.trusted != verdict.trusted
        verdict = next
        guard changed || !told else { return }
        told = true
        verdictChanged(next)
        tell(next.trusted ? "clock: trusted (\(next.reason)): opening hours apply"
                          : "clock: not trusted (\(next.reason)): the stand stays \(whenUnknown == .open ? "open" : "closed") "
                            + "([schedule] when_clock_unknown) until it is")
    }
}

extension CivilTime {
    /// The UTC date and time of `seconds` since 1970, for messages.
    static func utc(_ seconds: Int64) -> String {
        LocalTimeZone.utc.civil(at: seconds).description
    }
}
