import Diagnostics
import Geometry
import OpeningHours
import Platform
import Syscalls

/// How a `FrameLoop` behaves around its content.
public struct FrameLoopSettings {
    /// Write the first frame that reached the screen here (binary PPM, portrait).
    public var frameFile: String?
    /// A summary line this often (0: never).
    public var summaryIntervalSeconds = 0
    /// systemd's notify socket (READY after the first frame, WATCHDOG, STOPPING).
    public var notifier: SystemdNotifier?
    /// Whether a display without flip events (the virtual panel) is READY at once.
    public var announceReadyAtStart = true
    /// Whether Escape ends the loop.
    public var escapeLeaves = true
    /// A mouse acts as one finger (`[input] mouse_as_finger`).
    public var mouseIsFinger = true
    /// `[touch] transform` and `calibration`, applied to touch before the screen's rotation.
    public var touchCalibration = TouchCalibration.identity
    /// Whether a touch panel's phantom taps are held back (Platform/PhantomTapFilter.swift);
    /// off for a replay of what a stand recorded, which they never reached.
    public var filtersPhantomTaps = true
    /// Where the loop's own lines go (the test pattern writes them to stdout at once);
    /// nil: the log at info level.
    public var say: ((String) -> Void)?
    /// The start of the line that says the first frame reached the screen, given the
    /// milliseconds since the loop started (the board tests read it).
    public var firstFrameLine: (Double) -> String = { "first frame on screen \(fixed1($0)) ms after start" }
    /// Frames while something moves on a display that lets every frame out at once.
    public static let unpacedFrameInterval: Microseconds = 16_667
    /// The Prometheus metrics file (node_exporter's textfile collector), written this often.
    public var metricsFile: String?
    /// Where the metrics file goes when its folder cannot be written (a read-only root):
    /// the service's runtime directory in /run; nil: nowhere.
    public var metricsFallbackFolder: String?
    public var metricsIntervalSeconds = 60
    /// Where the metrics file is written through (tests use a fake).
    public var system: any SystemCalls = LinuxSystem.shared
    /// The process's start, seconds since 1970; nil: read the wall clock when the loop is made.
    public var processStartTime: Double?
    /// Opening hours; nil: always open.
    public var schedule: StandSchedule?
    /// Where SIGUSR2 writes a PNG of the screen (`motionkiosk screenshot` asks for it).
    public var screenshotFile: String?
    /// The black box (last minutes in RAM, dumps on SIGUSR1, stalls and fatal errors); nil: off.
    public var blackBox: BlackBoxSettings?
    /// Backlights switched with the display (a DSI panel's); nil: none.
    public var backlights: Backlights?
    /// Where the anonymous visitor statistics are appended (every minute while people
    /// play, and on leaving), and the wall clock their hours are counted on.
    public var visitorStatisticsFile: String?
    public var visitorStatisticsWallClock: ((Microseconds) -> CivilTime)?
    /// How often statistics are appended and appends synced (a power cut loses at most this).
    public static let visitorStatisticsInterval: Microseconds = 60_000_000

    public init() {}
}
