#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Geometry
import KioskRuntime
import OpeningHours
import Platform
import Syscalls
import SystemFakes
import Testing

/// What a stand does before it is up (its first frame on screen, READY said) and what waits
/// until then: a cold boot's first frame must not wait for touch input or the metrics file.
@Suite struct StandUpTests {
    /// A frame loop on a fake DRM display showing `CountingContent`; with `stopAfter`, it
    /// leaves after that long (the metrics timer would otherwise wake it every 15 s for ever).
    func stand(_ settings: FrameLoopSettings, animatingFrames: Int, stopAfter: Microseconds? = nil) throws -> FrameLoop {
        let events = VirtualEvents()
        let (display, _, _) = try fakeScanout(events: events)
        let frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: quietLog(),
                               content: CountingContent(animatingFrames: animatingFrames), settings: settings)
        if let stopAfter {
            let end = try frames.loop.addTimer { frames.loop.stop() }
            try end.arm(after: stopAfter)   // the loop holds its timerfd: no need to keep `end`
        }
        try frames.start(display: display)
        return frames
    }

    /// On a DRM display the first frame is on screen when its flip event comes: what waits
    /// for the stand to be up (touch input on a stand) runs then, once, not while the frame
    /// is still on its way, so READY does not wait for opening the input devices.
    @Test func touchInputWaitsForTheFirstFrameOnScreen() throws {
        let frames = try stand(quietSettings(), animatingFrames: 3)
        var ran: [Bool] = []
        frames.whenUp { ran.append(frames.firstFrameShown) }
        #expect(ran.isEmpty, "the first frame was handed over but its flip has not completed")
        try frames.run()
        #expect(ran == [true], "once, with the first frame on screen")
        // Asked again once it is up: at once.
        frames.whenUp { ran.append(true) }
        #expect(ran.count == 2)
    }

    /// READY goes to systemd before the metrics file (a temporary file, fsync, rename, fsync
    /// of the folder on the SD card) is written: the card's write is no part of starting.
    /// The file still gets the start-to-first-frame figure right after.
    @Test func readyGoesOutBeforeTheMetricsFileIsWritten() throws {
        let folder = "/tmp/motionkiosk-standup-\(getpid())"
        mkdir(folder, 0o755)
        defer { unlink(folder + "/motionkiosk.prom"); unlink(folder + "/notify"); rmdir(folder) }
        let notify = NotifySocket(folder + "/notify")
        let disk = FileSystemWithFaults()
        var settings = quietSettings()
        settings.notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": notify.path])
        settings.system = disk
        settings.metricsFile = folder + "/motionkiosk.prom"
        let frames = try stand(settings, animatingFrames: 1, stopAfter: 1_000_000)
        var whenUp: (ready: String?, metricsWrites: Int)?
        frames.whenUp { whenUp = (notify.peek(), disk.log.count(of: .createUniqueFile)) }
        try frames.run()
        let up = try #require(whenUp)
        #expect(up.ready?.hasPrefix("READY=1") == true, "READY was sent: \(up.ready ?? "nothing")")
        #expect(up.metricsWrites == 0, "no metrics file was written before the stand was up")
        let written = try #require(readWholeFile(folder + "/motionkiosk.prom"))
        #expect(written.contains("motionkiosk_start_to_first_frame_seconds "))
        #expect(disk.log.subjects(of: .syncFile).contains { $0.contains("motionkiosk.prom") }, "still written durably")
    }

    /// A stand closed from the start shows no frame but is up (READY, "closed: display off"):
    /// touch input joins then, for a touch may wake a closed stand.
    @Test func aStandClosedFromTheStartIsUpWithoutAFrame() throws {
        var settings = quietSettings()
        var hours = OpeningHours()
        hours.weekly.append(try OpeningHours.weekly("Daily 09:00-18:00"))
        let night = try #require(CivilTime(iso: "2026-11-23T22:00:00"))
        settings.schedule = StandSchedule(hours: hours, wakeFor: 300_000_000, wallClock: StandWallClock.starting(at: night, origin: 0, zone: .utc))
        let frames = try stand(settings, animatingFrames: 1, stopAfter: 1_000_000)
        var ran = 0
        frames.whenUp { ran += 1 }
        try frames.run()
        #expect(ran == 1)
        #expect(!frames.firstFrameShown)
    }

    /// The first-frame line's "ms after process start" comes from /proc/self/stat and the boot
    /// clock. The service's ProcSubset=pid hides /proc/uptime, which it used to need: every
    /// stand's line lost the figure.
    @Test func processAgeNeedsNoProcUptime() throws {
        let tree = TempTree()
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        // Started 12.34 s after boot (1234 ticks at 100 Hz), asked 15 s after boot.
        let ticks = Int((12.34 * hz).rounded())
        tree.write("proc/self/stat", "4242 (motion kiosk) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 \(ticks) 1000 10 0\n")
        let system = RootedFolders(root: tree.root)
        #expect(try system.readSmallFile("/proc/uptime") == nil, "no /proc/uptime, as under ProcSubset=pid")
        let age = try #require(millisecondsSinceProcessStart(system: system, sinceBoot: 15_000_000))
        #expect(abs(age - (15_000 - Double(ticks) / hz * 1000)) < 0.001, "\(age)")
        // A start later than now (a stat from elsewhere) or no stat: no figure, no nonsense.
        #expect(millisecondsSinceProcessStart(system: system, sinceBoot: 1_000_000) == nil)
        tree.remove("proc/self/stat")
        #expect(millisecondsSinceProcessStart(system: system, sinceBoot: 15_000_000) == nil)
        // This process, for real: a small positive age.
        let own = try #require(millisecondsSinceProcessStart())
        #expect(own > 0 && own < 86_400_000)
    }
}
