#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import OpeningHours
import Raster
import Syscalls

/// `systemctl reload motionkiosk` (SIGHUP): the configuration file is read again. A valid
/// file is applied (the exhibits start again with the new order, options, languages and
/// wording; opening hours and the metrics file change at once); a file with a mistake is
/// refused, every problem logged with its line, and the running settings stay. systemd hears
/// RELOADING, then READY, as sd_notify(3) describes.
public final class ConfigurationReload {
    public let path: String
    public private(set) var current: KioskConfiguration
    private let scene: KioskScene
    private let frames: FrameLoop
    private let log: Log
    private let notifier: SystemdNotifier?
    private let wallClock: StandWallClock
    /// What the command line set over the file (`--exhibit`), applied again after a reload.
    private let commandLine: (inout KioskApp.Settings) -> Void
    /// Called when [display], [input], [sensors] or [logging] changed: the kiosk starts
    /// again in the same process (same pid, so systemd sees one reload) to re-open its
    /// output and devices; nil: such changes wait for the next restart.
    public var startAgainInPlace: (() -> Void)?
    /// The stand's clock trust, kept across reloads (only `when_clock_unknown` follows the file).
    public var clock = ClockTrust.alwaysTrusted()
    /// How long the file must stay the same between two reads before a reload believes it
    /// (a writer still at work changes it), and how that time is waited.
    public var settleTime: Microseconds = 100_000
    public var pause: (Microseconds) -> Void = { _ = usleep(UInt32(clamping: $0)) }

    public init(path: String, current: KioskConfiguration, scene: KioskScene, frames: FrameLoop, log: Log,
                notifier: SystemdNotifier?, wallClock: StandWallClock,
                commandLine: @escaping (inout KioskApp.Settings) -> Void = { _ in }) {
        self.path = path; self.current = current; self.scene = scene; self.frames = frames; self.log = log
        self.notifier = notifier; self.wallClock = wallClock; self.commandLine = commandLine
    }

    /// Why `text` looks like a configuration file caught while it was being written (or cut
    /// by a full disk), or nil. Applied, such a file would put the stand on the defaults: an
    /// empty file, one with nothing but comments (a new file's header, cut), one whose last
    /// line has no newline (cut inside a line: `idle_seconds = 12` of `= 120` still parses).
    /// A file cut at a line boundary after some settings cannot be told from a whole one:
    /// hence the rename.
    static func looksCutShort(_ text: String) -> String? {
        let lines = text.split(separator: "\n")
        let settings = lines.filter { line in
            let t = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
            return !t.isEmpty && t.first != "#"
        }
        if text.utf8.isEmpty || lines.allSatisfy({ $0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }) {
            return "is empty"
        }
        if settings.isEmpty { return "holds only comments, no settings (a file cut short? to run on the defaults, restart the service)" }
        if text.utf8.last != UInt8(ascii: "\n") { return "does not end with a newline: its last line may be cut short" }
        return nil
    }

    /// Reads and applies the file; false when it was refused (the old settings run on).
    @discardableResult
    public func reload() -> Bool {
        try? notifier?.reloading(monotonicMicroseconds: frames.clock.now)
        // Starting again, the new process says READY after its first frame.
        var startingAgain = false
        defer { if !startingAgain { try? notifier?.ready(status: "configuration \(path)") } }
        let text: String
        do throws(TextFileError) {
            text = try readTextFile(path)
            pause(settleTime)
            guard try readTextFile(path) == text else { throw TextFileError(reason: "changed while it was read: it is being written") }
            if let problem = ConfigurationReload.looksCutShort(text) { throw TextFileError(reason: problem) }
        } catch {
            log.error("reload refused: \(path): \(error); the running settings stay. "
                      + "Write the new file under another name in the same folder and rename it over this one (mv), then reload")
            return false
        }
        let next: KioskConfiguration
        do throws(ConfigErrors) { next = try KioskConfiguration.parse(text, file: path, warn: { log.warning("\($0)") }) } catch {
            for e in error.errors { log.error("\(e)") }
            log.error("reload refused: \(path) has \(error.errors.count) problem\(error.errors.count == 1 ? "" : "s"); the running settings stay")
            return false
        }
        if next == current {
            log.info("reload: \(path) is unchanged")
            return true
        }
        var fonts: FontSet? = nil
        // New text or languages may need a fallback font the running set did not open.
        if next.text != current.text || next.exhibits.languages != current.exhibits.languages {
            do { fonts = try next.fonts(log: log) } catch {
                log.error("reload refused: \(error); the running settings stay")
                return false
            }
        }
        var settings = next.kioskSettings
        settings.seed = scene.settings.seed
        settings.devices = scene.settings.devices
        commandLine(&settings)
        let restarted = next.exhibits != current.exhibits || fonts != nil || next.text != current.text
        if restarted {
            scene.reconfigure(settings: settings, fonts: fonts)
            log.info("reload: exhibits start again with the new settings")
        }
        clock.whenUnknown = next.schedule.whenClockUnknown
        frames.update(blackBox: next.blackBoxSettings(kiosk: settings, text: text), restarted: restarted)
        frames.update(metricsFile: next.metrics.path.isEmpty ? nil : next.metrics.path,
                      metricsIntervalSeconds: next.metrics.intervalSeconds,
                      schedule: next.schedule(wallClock: wallClock, clock: clock))
        var later: [String] = []
        if next.display != current.display { later.append("[display]") }
        if next.input != current.input { later.append("[input]") }
        if next.sensors != current.sensors { later.append("[sensors]") }
        if next.logging != current.logging { later.append("[logging]") }
        current = next
        if !later.isEmpty, let startAgainInPlace {
            log.info("reload: " + later.joined(separator: ", ") + " changed: the kiosk starts again in the same process to re-open its output and devices")
            startingAgain = true
            startAgainInPlace()
            return true
        }
        if !later.isEmpty {
            log.warning("reload: " + later.joined(separator: ", ") + " changed: applied at the next restart (systemctl restart motionkiosk)")
        }
        log.info("reload: \(path) applied")
        return true
    }
}
