#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import OpeningHours
import Platform
import Raster
import Testing

/// `systemctl reload` on a running stand: SIGHUP re-reads the file; a good file is applied,
/// a bad one refused with its line while the stand runs on unchanged.
@Suite struct ConfigurationReloadTests {
    func writeConfig(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    /// `text` written to `path` and parsed, and a stand running it whose log lines land in
    /// `said`.
    func standRunning(_ text: String, at path: String) throws -> (stand: Stand, configuration: KioskConfiguration, said: Locked<[String]>) {
        writeConfig(path, text)
        let configuration = try KioskConfiguration.parse(text, file: path)
        let said = Locked<[String]>([])
        let stand = try Stand(path: path, configuration: configuration,
                              log: Log(minimum: .info, sink: { _, line in said.withLock { $0.append(line) } }))
        return (stand, configuration, said)
    }

    /// A stand on a virtual panel running `configuration` from `path` for 10 s, reloading on
    /// SIGHUP, with timers to act at given moments.
    final class Stand {
        let events = VirtualEvents()
        let scene: KioskScene
        let frames: FrameLoop
        let reload: ConfigurationReload
        private var timers: [LoopTimer] = []

        init(path: String, configuration: KioskConfiguration, log: Log) throws {
            scene = KioskScene(settings: configuration.kioskSettings, fonts: try FontSet(), log: Log(minimum: .error))
            frames = FrameLoop(loop: try EventLoop(events: events), clock: MonotonicClock(events: events), log: Log(minimum: .error),
                               content: scene, settings: quietSettings())
            try frames.leaveOnSignals(orAfter: 10)
            try frames.start(display: VirtualPanel(width: 480, height: 800, clock: MonotonicClock(events: events)))
            reload = ConfigurationReload(path: path, current: configuration, scene: scene, frames: frames, log: log, notifier: nil,
                                         wallClock: StandWallClock.starting(at: CivilTime(day: 20_000, second: 43_200), origin: 0, zone: .utc))
            frames.onReload = { [unowned(unsafe) reload] in reload.reload() }
        }

        func at(_ t: Microseconds, _ action: @escaping () -> Void) throws {
            let timer = try frames.loop.addTimer(action)
            try timer.arm(after: t)
            timers.append(timer)
        }
    }

    func controls(_ scene: KioskScene) -> [String] {
        guard case .array(let list)? = scene.app.state()["controls"] else { return [] }
        return list.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }
    }

    @Test func aGoodFileIsAppliedAndABadOneRefusedWithItsLine() throws {
        let path = "/tmp/motionkiosk-reload-\(getpid()).toml"
        defer { unlink(path) }
        let first = "[exhibits]\norder = [\"grid-block\"]\n"
        let (stand, _, said) = try standRunning(first, at: path)
        let (events, scene, frames, reload) = (stand.events, stand.scene, stand.frames, stand.reload)
        var afterGood: [String] = [], afterBad: [String] = []
        let at = stand.at
        try at(1_000_000) {
            self.writeConfig(path, "[exhibits]\norder = [\"tilt-box\", \"grid-block\"]\nlanguages = [\"en\", \"fr\"]\n")
            events.deliver(signal: SIGHUP)
        }
        try at(2_000_000) { afterGood = self.controls(scene) }
        try at(3_000_000) {
            self.writeConfig(path, "[exhibits]\norder = [\"tilt-box\"]\nidle_seconds = \"soon\"\n")
            events.deliver(signal: SIGHUP)
        }
        try at(4_000_000) { afterBad = self.controls(scene) }
        try frames.run()

        let lines = said.withLock { $0 }
        // SIGHUP did not end the stand: it ran to its 10 s.
        #expect(events.now >= 10_000_000)
        #expect(afterGood.contains("exhibit.tilt-box") && afterGood.contains("exhibit.grid-block") && afterGood.contains("language.fr"))
        #expect(lines.contains { $0.contains("reload: \(path) applied") })
        // The bad file: refused, named with its line, the running settings unchanged.
        #expect(lines.contains { $0.contains("\(path):3: exhibits.idle_seconds:") })
        #expect(lines.contains { $0.contains("reload refused") })
        #expect(afterBad == afterGood)
        #expect(reload.current.exhibits.order.count == 2)
    }

    /// A changed [display] re-opens the output: the loop leaves to start again in the same
    /// process (systemd hears no STOPPING and no READY from the old image); exhibit-only
    /// changes never do.
    @Test func aDisplayChangeLeavesToStartAgainInTheSameProcess() throws {
        let path = "/tmp/motionkiosk-reload-display-\(getpid()).toml"
        defer { unlink(path) }
        let first = "[display]\nrotation = \"0\"\n"
        writeConfig(path, first)
        let configuration = try KioskConfiguration.parse(first, file: path)
        let stand = try Stand(path: path, configuration: configuration, log: Log(minimum: .error))
        let (events, frames, reload) = (stand.events, stand.frames, stand.reload)
        var asked = 0
        reload.startAgainInPlace = { asked += 1; frames.leaveToStartAgain() }
        let at = stand.at
        try at(1_000_000) {
            self.writeConfig(path, first + "[exhibits]\norder = [\"tilt-box\"]\n")
            events.deliver(signal: SIGHUP)
        }
        try at(2_000_000) {
            self.writeConfig(path, "[display]\nrotation = \"90\"\n[exhibits]\norder = [\"tilt-box\"]\n")
            events.deliver(signal: SIGHUP)
        }
        try frames.run()
        #expect(asked == 1, "only the display change starts the kiosk again")
        #expect(frames.startsAgain)
        #expect(events.now >= 2_000_000 && events.now < 10_000_000, "the loop left at the reload, not at its end")
        #expect(reload.current.display.rotation == .r90)
    }

    /// A reload that reads the file while it is being written (or after a full disk cut it)
    /// must not put the stand on the defaults: each such file is refused, the running
    /// settings stay, and the journal says to write and rename.
    @Test func aFileCaughtBeingWrittenIsRefusedAndTheRunningSettingsStay() throws {
        let path = "/tmp/motionkiosk-reload-cut-\(getpid()).toml"
        defer { unlink(path) }
        let running = "[exhibits]\norder = [\"tilt-box\", \"grid-block\"]\nidle_seconds = 120\n"
        let (stand, configuration, said) = try standRunning(running, at: path)
        let cuts: [(String, String)] = [
            ("", "is empty"),
            ("\n  \n", "is empty"),
            ("# MotionKiosk configuration. Every key is optional: the value shown is the default.\n", "only comments"),
            ("[exhibits]\norder = [\"tilt-box\", \"grid-block\"]\nidle_seconds = 12", "does not end with a newline"),
        ]
        var results: [Bool] = []
        for (text, _) in cuts {
            writeConfig(path, text)
            results.append(stand.reload.reload())
        }
        // A writer still at work: the file grows between the two reads.
        writeConfig(path, "[exhibits]\norder = [\"grid-block\"]\n")
        stand.reload.pause = { _ in self.writeConfig(path, "[exhibits]\norder = [\"grid-block\"]\nidle_seconds = 30\n") }
        results.append(stand.reload.reload())
        let lines = said.withLock { $0 }
        #expect(results == [false, false, false, false, false], "\(lines)")
        #expect(stand.reload.current == configuration, "the running settings stay")
        #expect(stand.scene.settings.idleTimeout == configuration.kioskSettings.idleTimeout)
        for (_, why) in cuts { #expect(lines.contains { $0.contains("reload refused") && $0.contains(why) }, "\(why): \(lines)") }
        #expect(lines.contains { $0.contains("changed while it was read") })
        #expect(lines.allSatisfy { !$0.contains("reload refused") || $0.contains("rename") }, "each refusal says how to write the file")
        // Once the writer is done, the same reload applies the whole file.
        stand.reload.pause = { _ in }
        #expect(stand.reload.reload())
        #expect(stand.reload.current.exhibits.idleSeconds == 30)
    }

    /// A font path that is a FIFO arriving by reload: refused with its line, the stand runs on
    /// (before, the reload hung in FreeType's fopen with every signal blocked).
    @Test func aReloadNamingAFIFOAsAFontIsRefusedAndTheStandRunsOn() throws {
        let path = "/tmp/motionkiosk-reload-fifo-\(getpid()).toml"
        let fifo = "/tmp/motionkiosk-reload-fifo-\(getpid()).ttf"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(path); unlink(fifo) }
        let first = "[exhibits]\norder = [\"grid-block\"]\n"
        let (stand, configuration, said) = try standRunning(first, at: path)
        let (events, frames, reload) = (stand.events, stand.frames, stand.reload)
        try stand.at(1_000_000) {
            self.writeConfig(path, "[exhibits]\norder = [\"tilt-box\"]\nlanguages = [\"en\", \"ja\"]\n[text]\nfonts = [\"\(fifo)\"]\n")
            events.deliver(signal: SIGHUP)
        }
        try frames.run()
        let lines = said.withLock { $0 }
        #expect(events.now >= 10_000_000, "the stand ran on to its end")
        #expect(lines.contains { $0.contains("\(path):5: text.fonts: '\(fifo)' is a FIFO, not a regular file") })
        #expect(lines.contains { $0.contains("reload refused") })
        #expect(reload.current == configuration)
    }
}
