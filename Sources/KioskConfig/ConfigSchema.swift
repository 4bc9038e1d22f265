import Exhibits
import OpeningHours
import Diagnostics
import Sensors
import Syscalls
import VisitorText

/// One error in a configuration file, naming the file, line and key.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var key: String?
    public var message: String

    public var description: String {
        "\(file):\(line): " + (key.map { "\(echoedName($0)): " } ?? "") + message
    }
}

/// All problems found in one file; the kiosk refuses to start on any of them rather than guess.
public struct ConfigErrors: Error, CustomStringConvertible, Sendable {
    public var errors: [ConfigError]
    public var description: String { errors.map { $0.description }.joined(separator: "\n") }
}

/// A key the file may set: its documentation, its default as written in the file, and how a
/// value is checked and stored. The default config file is generated from this list, so the
/// documentation and the parser cannot drift apart.
struct ConfigKey: Sendable {
    typealias Apply = @Sendable (inout KioskConfiguration, TOMLValue) throws(ValueProblem) -> Void
    let table: String
    let name: String
    let doc: String
    let defaultText: String
    /// Still read, so old files keep working, but left out of the default file.
    var retired = false
    let apply: Apply

    var fullName: String { "\(table).\(name)" }
}

/// Why a value was refused; the schema adds file, line and key.
struct ValueProblem: Error { let message: String }

enum ConfigSchema {
    static let tableDocs: [(table: String, doc: String)] = [
        ("display", "Which screen to drive and how the portrait picture sits on it."),
        ("input", "Touchscreens, mice and keyboards (through libinput)."),
        ("touch", "How the touch panel's reports meet the picture: a panel mounted turned against its display, a calibration (`motionkiosk calibrate` finds one), a stuck finger. Applied after libinput (and any LIBINPUT_CALIBRATION_MATRIX udev rule) and before the picture's rotation. A panel that taps by itself at one spot on a steady period (the 10-inch Touch Display 2 every 12.864 s) is recognised and ignored on its own."),
        ("sensors", "The accelerometer that gives tilt and shake, and the barometer."),
        ("exhibits", "Which exhibits the launcher offers, idle reset, per-exhibit options."),
        ("text", "Fonts, and the museum's own wording: a table per language, e.g. [text.fr] with \"motion-cube.title\" = \"Cube magique\"; \\n is the one line break (control characters and U+2028/U+2029 are refused). Keys: " + ExhibitRegistry.textKeys.joined(separator: ", ") + "."),
        ("schedule", "Opening hours on the stand's local time (the system's time zone). Outside them the display is off (DPMS, or a DSI panel's backlight) and the kiosk sleeps; at opening the exhibits start fresh."),
        ("metrics", "Health metrics for Prometheus, written as a file for node_exporter's textfile collector (the kiosk opens no port)."),
        ("blackbox", "The last minutes of touches and sensor samples, kept in RAM only; SIGUSR1 (systemctl kill -s USR1 motionkiosk), a frame stall or a fatal display error writes them to a dump folder that `motionkiosk replay FOLDER` plays back to the same state."),
        ("logging", "Messages go to standard error, which systemd sends to the journal."),
    ]

    static let keys: [ConfigKey] = [
        ConfigKey(table: "display", name: "backend", doc: "auto | drm | virtual. auto drives the display when one is connected, otherwise renders to the virtual panel and says so.",
                  defaultText: "\"auto\"") { c, v throws(ValueProblem) in c.display.backend = try choice(v) },
        ConfigKey(table: "display", name: "card", doc: "DRM device, e.g. \"/dev/dri/card1\". Empty: the first card with a connected display.",
                  defaultText: "\"\"") { c, v throws(ValueProblem) in c.display.card = try string(v) },
        ConfigKey(table: "display", name: "connector", doc: "Connector name, e.g. \"DSI-1\", \"HDMI-A-1\" (see `motionkiosk devices`). Empty: the first connected one.",
                  defaultText: "\"\"") { c, v throws(ValueProblem) in c.display.connector = try string(v) },
        ConfigKey(table: "display", name: "mode", doc: "\"WIDTHxHEIGHT\" or \"WIDTHxHEIGHT@HZ\". Empty: the panel's preferred mode.",
                  defaultText: "\"\"") { c, v throws(ValueProblem) in c.display.mode = try mode(v) },
        ConfigKey(table: "display", name: "rotation", doc: "auto | 0 | 90 | 180 | 270: degrees the portrait picture is turned clockwise onto the panel. auto reads the panel's orientation property, else turns landscape panels to portrait. Touch follows the same rotation.",
                  defaultText: "\"auto\"") { c, v throws(ValueProblem) in
            if case .integer(let i) = v { c.display.rotation = try choice(.string(String(i))) } else { c.display.rotation = try choice(v) }
        },
        ConfigKey(table: "display", name: "format", doc: "auto | xrgb8888 | rgb565: scanout pixel format. auto = xrgb8888.",
                  defaultText: "\"auto\"") { c, v throws(ValueProblem) in c.display.format = try choice(v) },
        ConfigKey(table: "display", name: "virtual_size", doc: "Portrait size of the virtual panel, \"WIDTHxHEIGHT\".",
                  defaultText: "\"480x800\"") { c, v throws(ValueProblem) in c.display.virtualSize = try size(v) },
        ConfigKey(table: "display", name: "max_fps", doc: "Frame-rate cap (frames are drawn only when something moves).",
                  defaultText: "60") { c, v throws(ValueProblem) in c.display.maxFramesPerSecond = try integer(v, 1...240) },
        ConfigKey(table: "display", name: "max_pixels", doc: "When mode is empty and the panel's preferred mode has more pixels than this, the largest mode within it is taken, keeping the preferred mode's aspect and refresh where one does (default: 1920x1200's area). Scanout buffers and frame cost grow with it.",
                  defaultText: "2304000") { c, v throws(ValueProblem) in c.display.maxPixels = try integer(v, 16 * 16...8192 * 8192) },

        ConfigKey(table: "input", name: "seat", doc: "libinput/udev seat.",
                  defaultText: "\"seat0\"") { c, v throws(ValueProblem) in c.input.seat = try nonEmpty(v) },
        ConfigKey(table: "input", name: "mouse_as_finger", doc: "A mouse acts as one finger (bench setups).",
                  defaultText: "true") { c, v throws(ValueProblem) in c.input.mouseAsFinger = try boolean(v) },
        ConfigKey(table: "input", name: "arrow_keys_tilt", doc: "Kept for old files; does nothing. Arrow keys tilt only with [sensors] source = \"keys\" (bench setups); otherwise a keyboard does nothing to the exhibits.",
                  defaultText: "true", retired: true) { c, v throws(ValueProblem) in c.input.arrowKeysTilt = try boolean(v) },
        ConfigKey(table: "input", name: "escape_leaves", doc: "terminal | always | never. When Escape on a keyboard ends the kiosk: terminal = only when started from a terminal, never as the service (a visitor's keyboard cannot end it).",
                  defaultText: "\"terminal\"") { c, v throws(ValueProblem) in c.input.escapeLeaves = try choice(v) },

        ConfigKey(table: "touch", name: "transform", doc: "none | rot90 | rot180 | rot270 | flip-x | flip-y: how the touch panel is mounted against its display (turned clockwise, or mirrored left-right / top-bottom).",
                  defaultText: "\"none\"") { c, v throws(ValueProblem) in c.touch.transform = try choice(v) },
        ConfigKey(table: "touch", name: "calibration", doc: "[a, b, c, d, e, f]: libinput's calibration matrix on normalised panel coordinates (0…1), x' = a·x + b·y + c, y' = d·x + e·y + f, applied after transform. `motionkiosk calibrate --save` writes it.",
                  defaultText: "[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]") { c, v throws(ValueProblem) in c.touch.calibration = try calibration(v) },
        ConfigKey(table: "touch", name: "stuck_seconds", doc: "A finger held still (within 2 mm) this long is a stuck contact or a leaning object, not a visitor: it is dropped until it lifts. 0: never.",
                  defaultText: "600") { c, v throws(ValueProblem) in
            let seconds = try number(v, 0...86_400)
            if seconds > 0 && seconds < 10 { throw ValueProblem(message: "\(seconds) s is shorter than a visitor may hold a ball out; 10…86400, or 0 for never") }
            c.touch.stuckSeconds = seconds
        },

        ConfigKey(table: "sensors", name: "source", doc: "auto | iio | i2c | keys | none. auto tries IIO, then the userspace I2C drivers, then fixed \"down\" gravity.",
                  defaultText: "\"auto\"") { c, v throws(ValueProblem) in c.sensors.source = try choice(v) },
        ConfigKey(table: "sensors", name: "iio_device", doc: "IIO accelerometer by name (\"lis3dh\") or folder (\"iio:device0\"). Empty: the first one found.",
                  defaultText: "\"\"") { c, v throws(ValueProblem) in c.sensors.iioDevice = try string(v) },
        ConfigKey(table: "sensors", name: "iio_buffered", doc: "Read IIO through its buffer and trigger when it has one (falls back to polling).",
                  defaultText: "true") { c, v throws(ValueProblem) in c.sensors.iioBuffered = try boolean(v) },
        ConfigKey(table: "sensors", name: "i2c_bus", doc: "Bus N of /dev/i2c-N for the userspace drivers; -1 probes every bus.",
                  defaultText: "-1") { c, v throws(ValueProblem) in let b = try integer(v, -1...255); c.sensors.i2cBus = b < 0 ? nil : b },
        ConfigKey(table: "sensors", name: "i2c_address", doc: "7-bit address, e.g. 0x68; 0 probes the chips' usual addresses (ADXL345 0x53/0x1D, MPU-6050 0x68/0x69, LIS3DH 0x18/0x19).",
                  defaultText: "0") { c, v throws(ValueProblem) in
            let a = try integer(v, 0...0x7F)
            if a != 0 && a < 0x08 { throw ValueProblem(message: "0x0\(String(a, radix: 16)) is a reserved I2C address") }
            c.sensors.i2cAddress = a == 0 ? nil : a
        },
        ConfigKey(table: "sensors", name: "chip", doc: "auto | adxl345 | mpu6050 | lis3dh (userspace I2C driver).",
                  defaultText: "\"auto\"") { c, v throws(ValueProblem) in c.sensors.chip = try chip(v) },
        ConfigKey(table: "sensors", name: "mount", doc: "How the sensor board sits relative to the panel, seen from the front: " + BoardMount.names.joined(separator: " | ") + " (turned clockwise; back = chip facing away), or a 3x3 matrix [[a,b,c],[d,e,f],[g,h,i]] with panel = M · sensor (x right, y up, z out of the glass).",
                  defaultText: "\"normal\"") { c, v throws(ValueProblem) in c.sensors.mount = try mount(v) },
        ConfigKey(table: "sensors", name: "gravity_time_constant_ms", doc: "Low-pass time constant separating gravity from hand movement.",
                  defaultText: "100") { c, v throws(ValueProblem) in c.sensors.gravityTimeConstantMilliseconds = try number(v, 1...10_000) },
        ConfigKey(table: "sensors", name: "shake_threshold", doc: "m/s² a jolt must exceed to count towards a shake: 11 light, 13 normal, 15 hard.",
                  defaultText: "13.0") { c, v throws(ValueProblem) in c.sensors.shakeThreshold = try number(v, 9.9...60) },
        ConfigKey(table: "sensors", name: "barometer", doc: "auto | none | an IIO device name, for the altitude option of tilt-box.",
                  defaultText: "\"auto\"") { c, v throws(ValueProblem) in 
            let s = try nonEmpty(v)
            c.sensors.barometer = s == "auto" ? .first : s == "none" ? .none : .named(s)
        },

        ConfigKey(table: "exhibits", name: "order", doc: "Exhibits on the launcher, in order: " + ExhibitRegistry.tiles.map { $0.name }.joined(separator: ", ") + ".",
                  defaultText: "[" + ExhibitRegistry.tiles.map { "\"\($0.name)\"" }.joined(separator: ", ") + "]") { c, v throws(ValueProblem) in
            c.exhibits.order = try exhibitList(v)
        },
        ConfigKey(table: "exhibits", name: "locked", doc: "Show only this exhibit, without a home control (idle still resets it). Empty: the launcher.",
                  defaultText: "\"\"") { c, v throws(ValueProblem) in
            let s = try string(v)
            c.exhibits.locked = s.isEmpty ? nil : try exhibit(s)
        },
        ConfigKey(table: "exhibits", name: "idle_seconds", doc: "Seconds without a touch before the exhibit resets and the launcher returns.",
                  defaultText: "90") { c, v throws(ValueProblem) in c.exhibits.idleSeconds = try number(v, 5...86_400) },
        ConfigKey(table: "exhibits", name: "attract_after_seconds", doc: "Seconds on the idle launcher before the exhibits' demos start playing to invite visitors.",
                  defaultText: "300") { c, v throws(ValueProblem) in c.exhibits.attractAfterSeconds = try number(v, 5...86_400) },
        ConfigKey(table: "exhibits", name: "commissioning_corner_press", doc: "A long press (3 s) in the top-left corner opens the commissioning screen.",
                  defaultText: "true") { c, v throws(ValueProblem) in c.exhibits.commissioningCornerPress = try boolean(v) },
        ConfigKey(table: "exhibits", name: "languages", doc: "Languages visitors can choose, the first the default (idle returns to it): " + Language.shipped.map { $0.code }.joined(separator: ", ") + ". More than one shows the language buttons.",
                  defaultText: "[\"en\"]") { c, v throws(ValueProblem) in c.exhibits.languages = try languageList(v) },
    ] + exhibitOptionKeys + [

        ConfigKey(table: "text", name: "fonts", doc: "Font files tried in order for each character: DejaVu for Latin, Greek and Cyrillic, Noto for Arabic, Hebrew and Japanese (Debian: fonts-dejavu-core, fonts-noto-core, fonts-noto-cjk).",
                  defaultText: fontListText(KioskConfiguration.Text.defaultFonts)) { c, v throws(ValueProblem) in c.text.fonts = try fontList(v) },
        ConfigKey(table: "text", name: "bold_fonts", doc: "The same for bold text.",
                  defaultText: fontListText(KioskConfiguration.Text.defaultBoldFonts)) { c, v throws(ValueProblem) in c.text.boldFonts = try fontList(v) },

        ConfigKey(table: "schedule", name: "open", doc: "Weekly hours, e.g. [\"Mon-Fri 09:00-18:00\", \"Sat,Sun 10:00-17:00\"] (Daily for every day; an end before the start runs past midnight). Empty: open at every hour (of every day not in closed).",
                  defaultText: "[]") { c, v throws(ValueProblem) in
            guard case .array(let items) = v else { throw ValueProblem(message: "expected a list such as [\"Mon-Fri 09:00-18:00\"], found \(v.typeName)") }
            guard items.count <= 64 else { throw ValueProblem(message: "\(items.count) entries: at most 64") }
            var weekly: [OpeningHours.Weekly] = []
            for item in items {
                let text = try string(item)
                do throws(OpeningHoursError) { weekly.append(try OpeningHours.weekly(text)) } catch {
                    throw ValueProblem(message: error.message)
                }
            }
            c.schedule.hours.weekly = weekly
        },
        ConfigKey(table: "schedule", name: "closed", doc: "Dates closed all day, e.g. [\"2026-12-25\", \"2027-01-01\"].",
                  defaultText: "[]") { c, v throws(ValueProblem) in
            guard case .array(let items) = v else { throw ValueProblem(message: "expected a list such as [\"2026-12-25\"], found \(v.typeName)") }
            guard items.count <= 1000 else { throw ValueProblem(message: "\(items.count) dates: at most 1000") }
            var days = Set<Int>()
            for item in items {
                let text = try string(item)
                guard let d = CivilTime.date(text), let t = CivilTime(year: d.year, month: d.month, dayOfMonth: d.day) else {
                    throw ValueProblem(message: "\(echoed(text)) is not a date like \"2026-12-25\"")
                }
                days.insert(t.day)
            }
            c.schedule.hours.closedDays = days
        },
        ConfigKey(table: "schedule", name: "wake_on_touch", doc: "While closed, a touch turns the display on for wake_minutes (a technician, a late visitor).",
                  defaultText: "false") { c, v throws(ValueProblem) in c.schedule.wakeOnTouch = try boolean(v) },
        ConfigKey(table: "schedule", name: "wake_minutes", doc: "Minutes the display stays on after the last touch while closed.",
                  defaultText: "5") { c, v throws(ValueProblem) in c.schedule.wakeMinutes = try integer(v, 1...240) },
        ConfigKey(table: "schedule", name: "when_clock_unknown", doc: "open | closed: what the stand does while its clock cannot be trusted (no network time, no real-time clock that set it at boot, or a date before this kiosk was built). open: a powered stand is open (stands switched at the mains). The hours apply as soon as the clock is trusted.",
                  defaultText: "\"open\"") { c, v throws(ValueProblem) in c.schedule.whenClockUnknown = try choice(v) },

        ConfigKey(table: "metrics", name: "path", doc: "The metrics file, replaced atomically (temporary file, then rename); node_exporter reads *.prom files in its --collector.textfile.directory. Empty: none.",
                  defaultText: "\"/var/lib/prometheus/node-exporter/motionkiosk.prom\"") { c, v throws(ValueProblem) in
            let path = try absolutePathOrEmpty(v)
            if !path.isEmpty && !path.hasSuffix(".prom") { throw ValueProblem(message: "\(echoed(path)): node_exporter reads only files ending in .prom") }
            c.metrics.path = path
        },
        ConfigKey(table: "metrics", name: "visitors_path", doc: "Anonymous visitor counts per exhibit and hour (sessions, time played, touches, languages, demos turned into play), appended while people play; read them with `motionkiosk stats`. Empty: none.",
                  defaultText: "\"/var/lib/motionkiosk/visitors.csv\"") { c, v throws(ValueProblem) in
            c.metrics.visitorsPath = try absolutePathOrEmpty(v)
        },
        ConfigKey(table: "metrics", name: "interval_seconds", doc: "Seconds between two writes of the file (the display going on or off is written at once). Each write is a temporary file, fsync, rename and fsync of the folder, 120-170 kB of ext4 writes on the SD card: at 60 s about 90 MB in a 9-hour day, at 15 s 260 MB. Keep it under half the stale-metrics alert's age (120 s in board/fleet/motionkiosk-alerts.yml).",
                  defaultText: "60") { c, v throws(ValueProblem) in c.metrics.intervalSeconds = try integer(v, 1...3600) },

        ConfigKey(table: "blackbox", name: "folder", doc: "Where dump folders are written (trace.jsonl, state.json, screen.png, config.toml). Empty: no black box.",
                  defaultText: "\"/var/lib/motionkiosk/blackbox\"") { c, v throws(ValueProblem) in
            c.blackBox.folder = try absolutePathOrEmpty(v)
        },
        ConfigKey(table: "blackbox", name: "minutes", doc: "How far back a dump reaches, at least (it starts at the idle reset or attract demo before that). RAM: about 40 bytes a record, 65,536 records at most.",
                  defaultText: "5") { c, v throws(ValueProblem) in c.blackBox.minutes = try integer(v, 1...60) },
        ConfigKey(table: "blackbox", name: "keep", doc: "Dump folders kept; the oldest are removed.",
                  defaultText: "10") { c, v throws(ValueProblem) in c.blackBox.keep = try integer(v, 1...100) },
        ConfigKey(table: "blackbox", name: "stall_ms", doc: "A frame that takes longer, or waits longer after the last while something moves, writes a dump (at most one per 10 minutes). 0: not watched.",
                  defaultText: "1000") { c, v throws(ValueProblem) in
            let ms = try integer(v, 0...60_000)
            if ms != 0 && ms < 100 { throw ValueProblem(message: "\(ms) ms is shorter than a slow frame: 0 (off) or 100 to 60000") }
            c.blackBox.stallMilliseconds = ms
        },

        ConfigKey(table: "logging", name: "level", doc: "debug | info | warning | error.",
                  defaultText: "\"info\"") { c, v throws(ValueProblem) in c.logging.level = try choice(v) },
        ConfigKey(table: "logging", name: "summary_interval_s", doc: "Seconds between one-line summaries (fps, frame time, touches, exhibit); 0 turns them off.",
                  defaultText: "60") { c, v throws(ValueProblem) in c.logging.summaryIntervalSeconds = try integer(v, 0...86_400) },
    ]

    /// How many unknown keys in one file get a "did you mean" hint.
    static let hintedErrors = 100
    /// How many unknown tables of one file are listed; the rest are counted in one more line.
    static let listedTables = 100

    static var tableNames: [String] {
        var names: [String] = []
        for k in keys where !names.contains(k.table) { names.append(k.table) }
        return names
    }

    // MARK: value checks

    static func languageList(_ v: TOMLValue) throws(ValueProblem) -> [String] {
        guard case .array(let items) = v else { throw ValueProblem(message: "expected a list such as [\"en\", \"fr\"], found \(v.typeName)") }
        guard !items.isEmpty else { throw ValueProblem(message: "must name at least one language") }
        var codes: [String] = []
        for item in items {
            let code = try string(item)
            guard Language.named(code) != nil else {
                let shipped = Language.shipped.map { $0.code }
                var message = "\(echoed(code)) is not a language the kiosk has text for (" + shipped.joined(separator: ", ") + ")"
                if let near = nearest(code, in: shipped) { message += "; did you mean '\(near)'?" }
                throw ValueProblem(message: message)
            }
            if codes.contains(code) { throw ValueProblem(message: "\(echoed(code)) is listed twice") }
            codes.append(code)
        }
        return codes
    }

    static func fontList(_ v: TOMLValue) throws(ValueProblem) -> [String] {
        guard case .array(let items) = v else { throw ValueProblem(message: "expected a list of font file paths, found \(v.typeName)") }
        guard !items.isEmpty else { throw ValueProblem(message: "must name at least one font file") }
        guard items.count <= 32 else { throw ValueProblem(message: "\(items.count) fonts: at most 32") }
        var paths: [String] = []
        for item in items {
            let path = try nonEmpty(item)
            guard path.hasPrefix("/") else { throw ValueProblem(message: "\(echoed(path)) is not an absolute path") }
            // A FIFO or a device would hang the font loader: only a regular file (or none
            // yet: a fallback may be installed later) is a font.
            if let kind = FileKind.of(path), kind != .regular {
                throw ValueProblem(message: "\(echoed(path)) is \(kind), not a regular file: a font must be a file")
            }
            paths.append(path)
        }
        return paths
    }

    static func fontListText(_ paths: [String]) -> String {
        "[\n" + paths.map { "    \"\($0)\",\n" }.joined() + "]"
    }

    /// Longest museum wording of one string, in characters: a label, not a catalogue entry.
    static let longestText = 400

    /// A museum's wording for `key` in `language` (`[text.fr] "motion-cube.title" = "…"`).
    static func textOverride(language: String, key: String, _ v: TOMLValue) throws(ValueProblem) -> String {
        guard Language.named(language) != nil else {
            throw ValueProblem(message: "no language \(echoed(language)); text tables are " + Language.shipped.map { "[text.\($0.code)]" }.joined(separator: ", "))
        }
        let keys = ExhibitRegistry.textKeys
        guard keys.contains(key) else {
            var message = "no visitor text \(echoed(key))"
            if let near = nearest(key, in: keys) { message += "; did you mean '\(near)'?" }
            throw ValueProblem(message: message)
        }
        let text = try nonEmpty(v)
        guard text.unicodeScalars.count <= longestText else {
            throw ValueProblem(message: "\(text.unicodeScalars.count) characters; at most \(longestText)")
        }
        // C0 and C1 controls draw as boxes or nothing; U+2028/U+2029 (line and paragraph
        // separators) are refused rather than guessed at: "\n" is the one line break.
        if let bad = text.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                                                        || $0.value == 0x2028 || $0.value == 0x2029 }) {
            var hex = String(bad.value, radix: 16, uppercase: true)
            while hex.count < 4 { hex = "0" + hex }
            let code = "U+" + hex
            let what = bad.value == 0x2028 ? "a line separator" : bad.value == 0x2029 ? "a paragraph separator" : "a control character"
            throw ValueProblem(message: "contains \(what) (\(code)); only \\n, a line break, is allowed")
        }
        return text
    }

    /// A path the service can use whatever its working folder, or "" (the feature is off).
    static func absolutePathOrEmpty(_ v: TOMLValue) throws(ValueProblem) -> String {
        let path = try string(v)
        if !path.isEmpty && !path.hasPrefix("/") { throw ValueProblem(message: "\(echoed(path)) is not an absolute path") }
        return path
    }

    static func string(_ v: TOMLValue) throws(ValueProblem) -> String {
        guard case .string(let s) = v else { throw ValueProblem(message: "expected a string in quotes, found \(v.typeName)") }
        return s
    }
    static func nonEmpty(_ v: TOMLValue) throws(ValueProblem) -> String {
        let s = try string(v)
        if s.isEmpty { throw ValueProblem(message: "must not be empty") }
        return s
    }
    static func boolean(_ v: TOMLValue) throws(ValueProblem) -> Bool {
        guard case .boolean(let b) = v else { throw ValueProblem(message: "expected true or false, found \(v.typeName)") }
        return b
    }
    static func integer(_ v: TOMLValue, _ range: ClosedRange<Int>) throws(ValueProblem) -> Int {
        guard case .integer(let i) = v else { throw ValueProblem(message: "expected a whole number, found \(v.typeName)") }
        guard i >= Int64(range.lowerBound) && i <= Int64(range.upperBound) else {
            throw ValueProblem(message: "\(i) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return Int(i)
    }
    static func number(_ v: TOMLValue, _ range: ClosedRange<Double>) throws(ValueProblem) -> Double {
        let d: Double
        switch v {
        case .integer(let i): d = Double(i)
        case .float(let f): d = f
        default: throw ValueProblem(message: "expected a number, found \(v.typeName)")
        }
        guard d.isFinite, range.contains(d) else { throw ValueProblem(message: "\(d) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return d
    }
    static func choice<T: RawRepresentable & CaseIterable>(_ v: TOMLValue) throws(ValueProblem) -> T where T.RawValue == String {
        let s = try string(v)
        if let c = T(rawValue: s) { return c }
        let options = T.allCases.map { $0.rawValue }
        var message = "\(echoed(s)) is not one of " + options.joined(separator: ", ")
        if let near = nearest(s, in: options) { message += "; did you mean '\(near)'?" }
        throw ValueProblem(message: message)
    }
    static func size(_ v: TOMLValue) throws(ValueProblem) -> KioskConfiguration.Size {
        let s = try string(v)
        let parts = s.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValueProblem(message: "\(echoed(s)) is not a size like \"480x800\"")
        }
        return .init(width: w, height: h)
    }
    static func mode(_ v: TOMLValue) throws(ValueProblem) -> KioskConfiguration.Mode? {
        let s = try string(v)
        if s.isEmpty { return nil }
        let at = s.split(separator: "@", omittingEmptySubsequences: false)
        guard at.count <= 2 else { throw ValueProblem(message: "\(echoed(s)) is not a mode like \"800x480\" or \"800x480@60\"") }
        let sz: KioskConfiguration.Size
        do { sz = try size(.string(String(at[0]))) } catch { throw ValueProblem(message: "\(echoed(s)) is not a mode like \"800x480\" or \"800x480@60\"") }
        var refresh: Int? = nil
        if at.count == 2 {
            guard let r = Int(at[1]), (1...480).contains(r) else { throw ValueProblem(message: "\(echoed(s)): refresh after '@' must be 1…480 Hz") }
            refresh = r
        }
        return .init(width: sz.width, height: sz.height, refresh: refresh)
    }
    /// Six numbers, libinput's matrix; one that squashes the panel onto a line is refused.
    static func calibration(_ v: TOMLValue) throws(ValueProblem) -> [Double]? {
        guard case .array(let items) = v, items.count == 6 else {
            throw ValueProblem(message: "expected six numbers [a, b, c, d, e, f]")
        }
        var m: [Double] = []
        for item in items { m.append(try number(item, -100...100)) }
        let determinant = m[0] * m[4] - m[1] * m[3]
        guard abs(determinant) >= 0.01 else {
            throw ValueProblem(message: "matrix is (nearly) singular (a·e − b·d = \(determinant)): it would squash the panel onto a line")
        }
        return m == [1, 0, 0, 0, 1, 0] ? nil : m
    }

    static func mount(_ v: TOMLValue) throws(ValueProblem) -> BoardMount {
        if case .string(let name) = v {
            if let m = BoardMount(name), BoardMount.names.contains(name.lowercased()) { return m }
            var message = "\(echoed(name)) is not one of " + BoardMount.names.joined(separator: ", ")
            if let near = nearest(name, in: BoardMount.names) { message += "; did you mean '\(near)'?" }
            throw ValueProblem(message: message)
        }
        guard case .array(let rows) = v, rows.count == 3 else {
            throw ValueProblem(message: "expected a named mount or a 3x3 matrix [[a,b,c],[d,e,f],[g,h,i]]")
        }
        var cells: [String] = []
        for row in rows {
            guard case .array(let items) = row, items.count == 3 else { throw ValueProblem(message: "each matrix row needs 3 numbers") }
            cells.append(try items.map { item throws(ValueProblem) in String(try number(item, -1000...1000)) }.joined(separator: ", "))
        }
        // A mount only turns or mirrors axes; a singular matrix would throw tilt away.
        guard let m = BoardMount(cells.joined(separator: "; ")) else {
            throw ValueProblem(message: "matrix is singular (determinant 0): it would lose an axis")
        }
        return m
    }
    /// Each exhibit's options as keys of its table [exhibits.NAME], from the registry.
    static var exhibitOptionKeys: [ConfigKey] {
        var keys: [ConfigKey] = []
        for exhibit in ExhibitRegistry.all {
            for option in exhibit.profile.options {
                keys.append(ConfigKey(table: "exhibits." + exhibit.name, name: option.name, doc: option.doc,
                                      defaultText: option.defaultText) { c, v throws(ValueProblem) in
                    c.exhibits.options[exhibit].set(option, try optionValue(v, option.kind))
                })
            }
        }
        return keys
    }

    static func optionValue(_ v: TOMLValue, _ kind: ExhibitOption.Kind) throws(ValueProblem) -> ExhibitOptionValue {
        switch kind {
        case .integer(_, let range): return .integer(try integer(v, range))
        case .number(_, let range): return .number(try number(v, range))
        case .boolean: return .boolean(try boolean(v))
        }
    }

    /// An exhibit by name; an unknown name lists the known ones (and the nearest).
    static func exhibit(_ name: String) throws(ValueProblem) -> ExhibitType {
        if let type = ExhibitRegistry.named(name) { return type }
        var message = "\(echoed(name)) is not one of " + ExhibitRegistry.names.joined(separator: ", ")
        if let near = nearest(name, in: ExhibitRegistry.names) { message += "; did you mean '\(near)'?" }
        throw ValueProblem(message: message)
    }

    static func exhibitList(_ v: TOMLValue) throws(ValueProblem) -> [ExhibitType] {
        let example = ExhibitRegistry.tiles.prefix(2).map { "\"\($0.name)\"" }.joined(separator: ", ")
        guard case .array(let items) = v else { throw ValueProblem(message: "expected a list like [\(example)]") }
        var out: [ExhibitType] = []
        for item in items {
            let type = try exhibit(try string(item))
            // An installer's screen opens by a corner press or `locked`, never as a visitor's tile.
            if type.profile.isInstallerScreen { throw ValueProblem(message: "'\(type.name)' is the installer's screen, not a tile for visitors; it opens with a long press in the top-left corner (exhibits.commissioning_corner_press)") }
            if out.contains(type) { throw ValueProblem(message: "\(echoed(type.name)) is listed twice") }
            out.append(type)
        }
        if out.isEmpty { throw ValueProblem(message: "the launcher needs at least one exhibit") }
        return out
    }

    /// "auto" (nil: every chip is probed) or one chip the userspace drivers know.
    static func chip(_ v: TOMLValue) throws(ValueProblem) -> I2CAccelChip? {
        let s = try string(v)
        if s == "auto" { return nil }
        if let chip = I2CAccelChip(rawValue: s) { return chip }
        let options = ["auto"] + I2CAccelChip.allCases.map { $0.rawValue }
        var message = "\(echoed(s)) is not one of " + options.joined(separator: ", ")
        if let near = nearest(s, in: options) { message += "; did you mean '\(near)'?" }
        throw ValueProblem(message: message)
    }

    /// The closest option by edit distance, when it is close enough to be a typo.
    static func nearest(_ word: String, in options: [String]) -> String? {
        var best: (String, Int)? = nil
        for o in options {
            let d = editDistance(word.lowercased(), o.lowercased())
            if best == nil || d < best!.1 { best = (o, d) }
        }
        guard let (o, d) = best, d <= max(2, o.count / 3) else { return nil }
        return o
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
