import Exhibits
import OpeningHours
import Sensors

/// Everything a technician can set in /etc/motionkiosk/config.toml. Defaults are what a
/// freshly installed stand does; `ConfigSchema` documents every key and turns a file into this.
public struct KioskConfiguration: Equatable, Sendable {
    public var display = Display()
    public var input = Input()
    public var touch = Touch()
    public var sensors = Sensors()
    public var exhibits = Exhibits()
    public var text = Text()
    public var metrics = Metrics()
    public var schedule = Schedule()
    public var blackBox = BlackBox()
    public var logging = Logging()

    public init() {}

    public struct Display: Equatable, Sendable {
        public enum Backend: String, CaseIterable, Sendable { case auto, drm, virtual }
        public enum Rotation: String, CaseIterable, Sendable { case auto, r0 = "0", r90 = "90", r180 = "180", r270 = "270" }
        public enum Format: String, CaseIterable, Sendable { case auto, xrgb8888, rgb565 }

        public var backend = Backend.auto
        /// Empty: the first card with a connected display, found through udev.
        public var card = ""
        /// Empty: the first connected connector.
        public var connector = ""
        /// nil: the connector's preferred mode.
        public var mode: Mode? = nil
        public var rotation = Rotation.auto
        public var format = Format.auto
        /// Size of the virtual panel when no display can be driven.
        public var virtualSize = Size(width: 480, height: 800)
        public var maxFramesPerSecond = 60
        /// A preferred mode larger than this many pixels is passed over for the largest one
        /// within it (a 4K television would cost 4x the frame and 33 MB buffers).
        public var maxPixels = 1920 * 1200
    }

    public struct Mode: Equatable, Sendable, CustomStringConvertible {
        public var width: Int, height: Int
        public var refresh: Int?
        public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
    }

    public struct Size: Equatable, Sendable, CustomStringConvertible {
        public var width: Int, height: Int
        public var description: String { "\(width)x\(height)" }
    }

    public struct Input: Equatable, Sendable {
        public var seat = "seat0"
        public var mouseAsFinger = true
        public var arrowKeysTilt = true
        public var escapeLeaves = EscapeLeaves.terminal
    }

    /// How the touch panel's reports are put right before they meet the picture.
    public struct Touch: Equatable, Sendable {
        /// A panel mounted turned or mirrored against its display.
        public enum Transform: String, CaseIterable, Sendable {
            case none, rot90, rot180, rot270
            case flipX = "flip-x"
            case flipY = "flip-y"
        }
        public var transform = Transform.none
        /// libinput's calibration matrix [a, b, c, d, e, f] on normalised coordinates:
        /// x' = a·x + b·y + c, y' = d·x + e·y + f. nil: none (the identity).
        public var calibration: [Double]? = nil
        /// A finger held still this long is stuck and dropped until it lifts; 0: never.
        public var stuckSeconds = 600.0
    }

    /// When Escape ends the kiosk. On a stand anyone can plug in a keyboard, so by default
    /// only a run from a terminal (a technician at a shell) leaves on Escape, never the service.
    public enum EscapeLeaves: String, CaseIterable, Sendable {
        case terminal, always, never

        /// Whether Escape leaves, for a process whose standard input is (or is not) a
        /// terminal and that is (or is not) running as the systemd service.
        public func allows(standardInputIsTerminal: Bool, runningAsService: Bool) -> Bool {
            switch self {
            case .always: true
            case .never: false
            case .terminal: standardInputIsTerminal && !runningAsService
            }
        }
    }

    public struct Sensors: Equatable, Sendable {
        public enum Source: String, CaseIterable, Sendable { case auto, iio, i2c, keys, none }

        public var source = Source.auto
        /// IIO device by name ("lis3dh") or sysfs folder ("iio:device0"); empty: the first accelerometer.
        public var iioDevice = ""
        public var iioBuffered = true
        /// nil: every /dev/i2c-N is probed.
        public var i2cBus: Int? = nil
        /// nil: the chips' usual addresses are probed.
        public var i2cAddress: Int? = nil
        /// nil ("auto"): each chip the userspace drivers know is probed.
        public var chip: I2CAccelChip? = nil
        /// How the sensor board sits relative to the panel (after the IIO mount matrix).
        public var mount = BoardMount.normal
        public var gravityTimeConstantMilliseconds = 100.0
        /// m/s² above which a sample counts as a jolt (11 light, 13 normal, 15 hard).
        public var shakeThreshold = 13.0
        /// Which IIO pressure sensor gives altitude.
        public var barometer = BarometerChoice.first
    }

    public struct Exhibits: Equatable, Sendable {
        public var order = ExhibitRegistry.tiles
        /// Shown alone, without a home control; idle resets it.
        public var locked: ExhibitType? = nil
        public var idleSeconds = 90.0
        public var attractAfterSeconds = 300.0
        public var commissioningCornerPress = true
        /// Each exhibit's own table, [exhibits.NAME] (declared by the exhibit's profile).
        public var options = StandExhibitOptions()
        /// Language codes visitors can choose, the first the default (and the idle reset's).
        public var languages = ["en"]
    }

    /// Opening hours: outside them the display is off and the kiosk sleeps.
    public struct Schedule: Equatable, Sendable {
        public var hours = OpeningHours()
        /// A touch while closed turns the display on for `wakeMinutes`.
        public var wakeOnTouch = false
        public var wakeMinutes = 5
        /// While the wall clock cannot be trusted: open (a powered stand is open) or closed.
        public var whenClockUnknown = WhenClockUnknown.open
    }

    /// The health metrics file for Prometheus's node_exporter.
    public struct Metrics: Equatable, Sendable {
        /// Empty: no file.
        public var path = "/var/lib/prometheus/node-exporter/motionkiosk.prom"
        public var intervalSeconds = 60
        /// Anonymous visitor counts per exhibit and hour (`motionkiosk stats`); empty: none.
        public var visitorsPath = "/var/lib/motionkiosk/visitors.csv"
    }

    /// The black box: how far back it reaches and where dumps go.
    public struct BlackBox: Equatable, Sendable {
        /// Empty: no black box.
        public var folder = "/var/lib/motionkiosk/blackbox"
        public var minutes = 5
        public var keep = 10
        /// 0: stalls are not watched.
        public var stallMilliseconds = 1000
    }

    /// Fonts and the museum's own wording of visitor text.
    public struct Text: Equatable, Sendable {
        /// Font files tried in order for each character (regular and bold).
        public var fonts: [String] = defaultFonts
        public var boldFonts: [String] = defaultBoldFonts
        /// Language code → text key → the museum's wording.
        public var overrides: [String: [String: String]] = [:]

        public static let defaultFonts = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        ]
        public static let defaultBoldFonts = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf",
            "/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf",
            "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        ]
    }

    public struct Logging: Equatable, Sendable {
        public enum Level: String, CaseIterable, Sendable, Comparable {
            case debug, info, warning, error
            public static func < (a: Level, b: Level) -> Bool {
                allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
            }
        }
        public var level = Level.info
        public var summaryIntervalSeconds = 60
    }
}
