#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The kiosk started as systemd starts it, and signalled as `motionkiosk screenshot` and
/// `systemctl reload` signal it: at once, while it is still loading.
@Suite(.serialized) struct ServiceStartTests {

    /// What /proc tells of a starting process: whether it has blocked the signals the kiosk
    /// handles (SIGHUP, SIGUSR1, SIGUSR2, SIGTERM), and whether it has a font file mapped.
    static func startingState(_ pid: pid_t) -> (signalsBlocked: Bool, fontsOpen: Bool)? {
        guard let status = readWholeFile("/proc/\(pid)/status"), let maps = readWholeFile("/proc/\(pid)/maps") else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? ""
        let mask = UInt64(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.map(String.init) ?? "", radix: 16) ?? 0
        let wanted: UInt64 = 1 << (UInt64(SIGHUP) - 1) | 1 << (UInt64(SIGUSR1) - 1) | 1 << (UInt64(SIGUSR2) - 1) | 1 << (UInt64(SIGTERM) - 1)
        return (mask & wanted == wanted, maps.contains(".ttf") || maps.contains(".ttc"))
    }

    /// The kiosk takes its signals before it loads anything: no moment of its start has a font
    /// open and SIGHUP still deadly. Before, fonts and the scene loaded first, and a reload or
    /// a screenshot sent then killed the kiosk. Signals sent from that moment on are handled.
    @Test func signalsAreTakenBeforeTheFontsLoad() throws {
        let folder = "/tmp/motionkiosk-service-order-\(getpid())"
        mkdir(folder, 0o755)
        defer { for f in ["motionkiosk.pid", "config.toml"] { unlink(folder + "/" + f) }; rmdir(folder) }
        let notify = NotifySocket(folder + ".notify")
        let config = folder + "/config.toml"
        close(open(config, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        let kiosk = try #require(SpawnedKiosk(["run", "--display", "virtual", "--seconds", "2", "--config", config],
                                              environment: ["NOTIFY_SOCKET=\(notify.path)", "RUNTIME_DIRECTORY=\(folder)"]))
        var fontsBeforeSignals = false, blocked = false
        for _ in 0..<100_000 {
            guard let state = ServiceStartTests.startingState(kiosk.pid) else { break }
            if state.fontsOpen && !state.signalsBlocked { fontsBeforeSignals = true }
            if state.signalsBlocked { blocked = true; break }
            usleep(100)
        }
        #expect(blocked, "the kiosk blocked its signals")
        #expect(!fontsBeforeSignals, "a font was open while SIGHUP could still end the kiosk")
        for i in 0..<100 {
            kill(kiosk.pid, i % 2 == 0 ? SIGHUP : SIGUSR1)
            notify.drain()
            usleep(500)
        }
        let end = kiosk.wait(seconds: 30) { notify.drain() }
        #expect(end == .exited(0), "\(String(describing: end))")
    }

    /// The pid file appears only once the kiosk handles its signals: SIGHUP (reload) and
    /// SIGUSR1 (status) sent the moment it appears, and again and again while the kiosk
    /// loads its scene, never end the process. Before, the pid file was written before the
    /// signals were blocked, and the first signal killed the kiosk.
    @Test func signalsSentAsSoonAsThePidFileAppearsDoNotEndTheKiosk() throws {
        let folder = "/tmp/motionkiosk-service-start-\(getpid())"
        mkdir(folder, 0o755)
        defer { for f in ["motionkiosk.pid", "config.toml", "out", "err"] { unlink(folder + "/" + f) }; rmdir(folder) }
        let notify = NotifySocket(folder + ".notify")
        let config = folder + "/config.toml"
        let fd = open(config, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        close(fd)
        for attempt in 0..<3 {
            unlink(folder + "/motionkiosk.pid")
            let kiosk = try #require(SpawnedKiosk(["run", "--display", "virtual", "--seconds", "2", "--config", config],
                                                  environment: ["NOTIFY_SOCKET=\(notify.path)", "RUNTIME_DIRECTORY=\(folder)"],
                                                  stdout: folder + "/out", stderr: folder + "/err"))
            var waited = 0
            while access(folder + "/motionkiosk.pid", F_OK) != 0 && waited < 20_000 { usleep(200); waited += 1 }
            #expect(waited < 20_000, "the kiosk wrote its pid file")
            for i in 0..<200 {
                kill(kiosk.pid, i % 2 == 0 ? SIGHUP : SIGUSR1)
                notify.drain()
                usleep(500)
            }
            let end = kiosk.wait(seconds: 30) { notify.drain() }
            #expect(end == .exited(0), "attempt \(attempt): \(end)")
        }
    }

    /// A reload that changes [display] starts the kiosk again in the same process while
    /// systemd's watchdog keeps counting: it asks for a long period before the exec and the
    /// configured one back once the new image runs, so a slow start is not killed.
    @Test func startingAgainInPlaceStretchesTheWatchdogAndPutsItBack() throws {
        let folder = "/tmp/motionkiosk-service-again-\(getpid())"
        mkdir(folder, 0o755)
        defer { for f in ["motionkiosk.pid", "config.toml", "out", "err"] { unlink(folder + "/" + f) }; rmdir(folder) }
        let notify = NotifySocket(folder + ".notify")
        let config = folder + "/config.toml"
        close(open(config, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        let kiosk = try #require(SpawnedKiosk(["run", "--display", "virtual", "--seconds", "3", "--config", config],
                                              environment: ["NOTIFY_SOCKET=\(notify.path)", "RUNTIME_DIRECTORY=\(folder)",
                                                            "WATCHDOG_USEC=5000000"],
                                              stdout: folder + "/out", stderr: folder + "/err"))
        var said: [String] = []
        var waited = 0
        while !said.contains(where: { $0.hasPrefix("READY=1") }) && waited < 3000 { usleep(10_000); waited += 1; said += notify.received() }
        #expect(said.contains("WATCHDOG=1\nWATCHDOG_USEC=5000000"), "the configured period at the start: \(said)")
        try "[display]\nrotation = \"90\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        kill(kiosk.pid, SIGHUP)
        let end = kiosk.wait(seconds: 60) { said += notify.received() }
        said += notify.received()
        #expect(end == .exited(0), "\(String(describing: end))")
        let stretched = try #require(said.firstIndex(of: "WATCHDOG=1\nWATCHDOG_USEC=60000000"), "\(said)")
        #expect(said[stretched...].contains("WATCHDOG=1\nWATCHDOG_USEC=5000000"), "put back after starting again: \(said)")
        #expect(said[stretched...].contains { $0.hasPrefix("READY=1") }, "\(said)")
    }

    /// A recording that cannot be written (a read-only root) does not stop the service, which
    /// systemd would only start again and again: said, and the kiosk runs without it. In a
    /// terminal the option is still an error.
    @Test func aRecordingThatCannotBeWrittenDoesNotStopTheService() throws {
        let folder = "/tmp/motionkiosk-service-record-\(getpid())"
        mkdir(folder, 0o755)
        defer { for f in ["motionkiosk.pid", "config.toml", "out", "err"] { unlink(folder + "/" + f) }; rmdir(folder) }
        let notify = NotifySocket(folder + ".notify")
        let config = folder + "/config.toml"
        close(open(config, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        let record = "/nonexistent-\(getpid())/record.jsonl"
        let service = try #require(SpawnedKiosk(["run", "--display", "virtual", "--seconds", "1", "--config", config, "--record", record],
                                                environment: ["NOTIFY_SOCKET=\(notify.path)", "RUNTIME_DIRECTORY=\(folder)"],
                                                stdout: folder + "/out", stderr: folder + "/err"))
        #expect(service.wait(seconds: 30) { notify.drain() } == .exited(0))
        let said = (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? ""
        #expect(said.contains("--record \(record): ") && said.contains("the kiosk runs without recording"), "\(said)")
        let terminal = try #require(SpawnedKiosk(["run", "--display", "virtual", "--seconds", "1", "--config", config, "--record", record],
                                                 stdout: folder + "/out", stderr: folder + "/err"))
        #expect(terminal.wait(seconds: 30) != .exited(0))
    }
}
