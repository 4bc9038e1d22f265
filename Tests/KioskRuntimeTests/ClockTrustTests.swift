#if canImport(Glibc)
import Glibc
#endif
import Exhibits
import Geometry
import KioskRuntime
import OpeningHours
import Syscalls
import SystemFakes
import Testing

/// A Pi without network and RTC wakes up at the last saved time (or 1970): the hours wait
/// for a clock the kiosk can trust, and meanwhile `when_clock_unknown` says open or closed.
@Suite struct ClockTrustTests {
    static let built: Int64 = 1_795_824_000   // 2026-11-28T00:00:00Z
    static let later: Int64 = built + 86_400 * 3

    @Test func theEvidenceSaysWhenAClockCanBeBelieved() {
        func verdict(_ kernel: Bool?, timesyncd: Bool = false, rtc: String? = nil, wall: Int64 = ClockTrustTests.later) -> ClockVerdict {
            ClockEvidence(kernelSynchronised: kernel, timesyncdSynchronised: timesyncd, rtcSetAtBoot: rtc,
                          wallSeconds: wall, buildSeconds: ClockTrustTests.built).verdict
        }
        #expect(!verdict(false).trusted && verdict(false).reason.contains("the kernel says unsynchronised"))
        #expect(!verdict(nil).trusted && verdict(nil).reason.contains("cannot be read"))
        #expect(verdict(true).trusted)
        #expect(verdict(nil, timesyncd: true).trusted && verdict(nil, timesyncd: true).reason.contains("systemd-timesyncd"))
        #expect(verdict(false, rtc: "rtc0").trusted && verdict(false, rtc: "rtc0").reason.contains("rtc0"))
        // Whatever says synchronised, a clock before the build date is wrong.
        let old = verdict(true, timesyncd: true, rtc: "rtc0", wall: 0)
        #expect(!old.trusted && old.reason.contains("1970-01-01T00:00:00") && old.reason.contains("2026-11-28"), "\(old.reason)")
    }

    @Test func theSystemIsReadThroughTheSeam() throws {
        let tree = TempTree()
        let system = RootedFolders(root: tree.root)
        tree.write("sys/class/rtc/rtc0/hctosys", "0\n")
        tree.write("sys/class/rtc/rtc1/hctosys", "1\n")
        var e = ClockEvidence.read(system: system, kernelSynchronised: { nil }, wallSeconds: ClockTrustTests.later, buildSeconds: ClockTrustTests.built)
        #expect(e.rtcSetAtBoot == "rtc1" && !e.timesyncdSynchronised && e.kernelSynchronised == nil)
        tree.write("sys/class/rtc/rtc1/hctosys", "0\n")
        tree.write("run/systemd/timesync/synchronized", "")
        e = ClockEvidence.read(system: system, kernelSynchronised: { false }, wallSeconds: ClockTrustTests.later, buildSeconds: ClockTrustTests.built)
        #expect(e.rtcSetAtBoot == nil && e.timesyncdSynchronised && e.verdict.trusted)
        // The real kernel answers here (this process may ask).
        #expect(KernelClock.status() != nil)
        #expect(KernelClock.buildSeconds >= KernelClock.sourcesDate)
    }

    /// Untrusted at the start: open (the default) whatever the hours say, said once; the
    /// clock looked at again every minute; trusted: the hours apply at once, said once.
    @Test func theScheduleWaitsForATrustedClockAndSwitchesWhenItIs() throws {
        var hours = OpeningHours()
        hours.weekly = [try OpeningHours.weekly("Daily 09:00-18:00")]
        let night = try #require(CivilTime(iso: "2026-11-30T22:00:00"))
        var evidence = ClockEvidence(kernelSynchronised: false, wallSeconds: ClockTrustTests.later, buildSeconds: ClockTrustTests.built)
        var looks = 0
        var told: [String] = []
        let trust = ClockTrust(whenUnknown: .open, look: { looks += 1; return evidence }, tell: { told.append($0) })
        var verdicts: [Bool] = []
        trust.verdictChanged = { verdicts.append($0.trusted) }
        let schedule = StandSchedule(hours: hours, wakeFor: nil, wallClock: StandWallClock.starting(at: night, origin: 0, zone: .utc), clock: trust)
        #expect(schedule.isOpen(at: 0), "untrusted: a powered stand is open")
        #expect(schedule.nextChange(after: 0) == nil)
        #expect(schedule.nextLook(after: 0) == ClockTrust.lookAgainEvery)
        #expect(schedule.isOpen(at: 30_000_000) && looks == 1, "looked at once a minute, not at every question")
        #expect(told.count == 1 && told[0].contains("not trusted") && told[0].contains("stays open"), "\(told)")
        evidence.timesyncdSynchronised = true
        #expect(!schedule.isOpen(at: 61_000_000), "trusted: closed at 22:00 as the hours say")
        #expect(told.count == 2 && told[1].contains("trusted (systemd-timesyncd"), "\(told)")
        #expect(schedule.nextChange(after: 61_000_000) != nil)
        #expect(schedule.nextLook(after: 61_000_000) == 61_000_000 + StandSchedule.lookAgainEvery)
        #expect(!schedule.isOpen(at: 200_000_000) && told.count == 2, "no more lines while nothing changes")
        #expect(verdicts == [false, true], "the commissioning screen's line follows each change")

        // A clock step makes the next question look again at once.
        evidence.timesyncdSynchronised = false
        trust.lookAgain()
        #expect(schedule.isOpen(at: 200_000_001) && told.count == 3)

        let closed = ClockTrust(whenUnknown: .closed, look: { evidence }, tell: { _ in })
        var dark = schedule
        dark.clock = closed
        #expect(!dark.isOpen(at: 0), "when_clock_unknown = \"closed\"")
    }

    @Test func theMetricsSayWhetherTheClockIsTrusted() {
        let health = StandHealth(processStartTime: 0)
        #expect(!health.metrics(now: 0, visitors: nil, accelerometer: nil).contains("motionkiosk_clock_trusted"))
        health.clock = ClockTrust(fixed: false, whenUnknown: .open)
        #expect(health.metrics(now: 0, visitors: nil, accelerometer: nil).contains("\nmotionkiosk_clock_trusted 0\n"))
        health.clock = ClockTrust(fixed: true, whenUnknown: .open)
        #expect(health.metrics(now: 0, visitors: nil, accelerometer: nil).contains("\nmotionkiosk_clock_trusted 1\n"))
    }

    // MARK: replay --clock untrusted, as the command runs it

    let folder: String
    init() {
        folder = "/tmp/motionkiosk-clock-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
    }

    /// `motionkiosk replay --demo launcher` of a stand open 09:00–18:00, from 22:00 (closed);
    /// the first checkpoint's state.
    func replayed(_ extra: [String], unknown: String?) throws -> (display: Bool?, clock: String?) {
        let config = folder + "/config.toml"
        var text = "[schedule]\nopen = [\"Daily 09:00-18:00\"]\n"
        if let unknown { text += "when_clock_unknown = \"\(unknown)\"\n" }
        try writeFileAtomically(config, text, system: LinuxSystem.shared)
        let out = folder + "/out-\(extra.joined(separator: "-"))-\(unknown ?? "default")"
        let err = folder + "/stderr"
        let kiosk = try #require(SpawnedKiosk(["replay", "--demo", "launcher", "--config", config, "--timezone", "UTC",
                                               "--start-time", "2026-11-30T22:00:00", "--out", out] + extra, stderr: err))
        let end = kiosk.wait(seconds: 60)
        #expect(end == .exited(0), "\(readWholeFile(err) ?? "")")
        let json = try #require(readWholeFile(out + "/00-launcher.json"))
        let display: Bool? = json.contains("\"display_on\":true") ? true : json.contains("\"display_on\":false") ? false : nil
        let clock: String? = json.contains("\"clock\":\"untrusted\"") ? "untrusted" : json.contains("\"clock\":\"trusted\"") ? "trusted" : nil
        return (display, clock)
    }

    @Test func replayWithAnUntrustedClockKeepsAClosedStandOpenByDefault() throws {
        let seen = try replayed(["--clock", "untrusted"], unknown: nil)
        #expect(seen.display == true && seen.clock == "untrusted")
    }

    @Test func replayWithAnUntrustedClockAndWhenClockUnknownClosedIsDark() throws {
        let seen = try replayed(["--clock", "untrusted"], unknown: "closed")
        #expect(seen.display == false && seen.clock == "untrusted")
    }

    @Test func replayWithoutTheFlagFollowsTheHoursAsBefore() throws {
        let seen = try replayed([], unknown: "closed")
        #expect(seen.display == false && seen.clock == "trusted")
        let open = try replayed([], unknown: nil)
        #expect(open.display == false, "22:00 is closed")
    }

    @Test func aClockWordThatIsNeitherIsRefused() throws {
        let err = folder + "/stderr"
        let kiosk = try #require(SpawnedKiosk(["replay", "--demo", "launcher", "--clock", "maybe", "--out", folder + "/x"], stderr: err))
        #expect(kiosk.wait(seconds: 30) == .exited(2))
        #expect((readWholeFile(err) ?? "").contains("--clock 'maybe': expected trusted or untrusted"))
    }
}
