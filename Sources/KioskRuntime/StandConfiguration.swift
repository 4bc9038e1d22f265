import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import OpeningHours
import Platform
import Raster
import Sensors
import Trace
import VisitorText

/// What a stand's configuration file means to the runtime.
extension KioskConfiguration {
    /// The app's settings: exhibits in order, locked exhibit, idle and attract times.
    public var kioskSettings: KioskApp.Settings {
        var s = KioskApp.Settings()
        s.order = exhibits.order
        s.locked = exhibits.locked
        s.idleTimeout = .fromSeconds(exhibits.idleSeconds)
        s.attractAfter = .fromSeconds(exhibits.attractAfterSeconds)
        s.options = exhibits.options
        s.commissioningPress = exhibits.commissioningCornerPress ? 3_000_000 : nil
        s.languages = exhibits.languages
        s.textOverrides = text.overrides
        s.stuckTouchAfter = touch.stuckSeconds > 0 ? .fromSeconds(touch.stuckSeconds) : nil
        s.touchCalibration = touchCalibration
        return s
    }

    /// A replay as this stand would run it (`replay --config`): its exhibit order, options,
    /// corner press, stuck-finger time, and — for the launcher or the stand's locked exhibit — its idle and
    /// attract times. Size, seed and which exhibit (nil: the launcher) stay the replay's.
    public func applyStand(to settings: inout KioskApp.Settings, exhibit: ExhibitType?) {
        let stand = kioskSettings
        settings.order = stand.order
        settings.options = stand.options
        settings.commissioningPress = stand.commissioningPress
        settings.languages = stand.languages
        settings.textOverrides = stand.textOverrides
        settings.stuckTouchAfter = stand.stuckTouchAfter
        if let locked = stand.locked, locked == exhibit {
            settings.locked = locked
            settings.initialExhibit = nil
        }
        if exhibit == nil || settings.locked != nil {
            settings.idleTimeout = stand.idleTimeout
            settings.attractAfter = exhibit == nil ? stand.attractAfter : nil
        }
    }

    /// The stand's fonts: the fallbacks only when its text has characters the first fonts
    /// lack. A font file that cannot be opened is a note; text that no font then draws (a
    /// language without its font, emoji, private-use characters) is a warning naming the
    /// language and key and what to install, once each (`FontSet.coverageProblems`).
    public func fonts(log: Log) throws(FontError) -> FontSet {
        let shown = TextBook(languages: exhibits.languages, overrides: text.overrides).everyString
        let set = try FontSet(regularPaths: text.fonts, boldPaths: text.boldFonts, showing: shown) { problem in log.info("\(problem)") }
        set.coverageProblems = fontCoverage(of: set)
        let told = 20
        for problem in set.coverageProblems.prefix(told) { log.warning("\(problem)") }
        if set.coverageProblems.count > told {
            log.warning("\(set.coverageProblems.count - told) more keys have text no configured font draws (motionkiosk check-config lists them)")
        }
        return set
    }

    /// The stand's text (every language, the museum's wording) that `set` cannot draw.
    public func fontCoverage(of set: FontSet) -> [FontCoverageProblem] {
        FontCoverage.problems(in: TextBook(languages: exhibits.languages, overrides: text.overrides),
                              chains: [FontCoverage.Chain(name: "[text] fonts", paths: text.fonts, fonts: set.typesetter.regular, bold: false),
                                       FontCoverage.Chain(name: "[text] bold_fonts", paths: text.boldFonts, fonts: set.typesetter.bold, bold: true)])
    }

    /// What `check-config` says about the fonts: text they cannot draw, or that none opens.
    public var fontWarnings: [String] {
        let shown = TextBook(languages: exhibits.languages, overrides: text.overrides).everyString
        do throws(FontError) {
            return fontCoverage(of: try FontSet(regularPaths: text.fonts, boldPaths: text.boldFonts, showing: shown)).map { "\($0)" }
        } catch {
            return ["\(error); no configured font can be opened, so no visitor text can be drawn "
                    + "(Debian: apt-get install fonts-dejavu-core fonts-noto-core fonts-noto-cjk)"]
        }
    }

    /// The stand's opening hours on `wallClock`, believed as far as `clock` says; nil when it
    /// is always open.
    public func schedule(wallClock: StandWallClock, clock: ClockTrust = .alwaysTrusted()) -> StandSchedule? {
        if schedule.hours.isAlwaysOpen { return nil }
        return StandSchedule(hours: schedule.hours, wakeFor: schedule.wakeOnTouch ? Microseconds(schedule.wakeMinutes) * 60_000_000 : nil,
                             wallClock: wallClock, clock: clock)
    }

    /// The stand's motion filtering, for a replay.
    public func applyStand(to motion: inout MotionSettings) {
        motion.gravityTimeConstant = sensors.gravityTimeConstantMilliseconds / 1000
        motion.shakeThreshold = sensors.shakeThreshold
    }

    /// Which accelerometer and how it is mounted and filtered (the panel rotation is added
    /// once the display is known).
    public var motionSensors: MotionSensorConfiguration {
        var c = MotionSensorConfiguration()
        let s = sensors
        switch s.source {
        case .auto: c.accelerometer = .auto
        case .none: c.accelerometer = .fixedDown
        case .keys: c.accelerometer = .arrowKeys
        case .iio: c.accelerometer = s.iioDevice.isEmpty ? .auto : .iio(s.iioDevice)
        case .i2c:
            let bus = s.i2cBus.map { "/dev/i2c-\($0)" } ?? ""
            c.accelerometer = bus.isEmpty ? .auto : .i2c(bus: bus, chip: s.chip, address: s.i2cAddress.map { UInt8(truncatingIfNeeded: $0) })
        }
        c.iioMode = s.iioBuffered ? .auto : .polled
        c.board = s.mount
        c.gravityTimeConstant = s.gravityTimeConstantMilliseconds / 1000
        c.shakeThreshold = s.shakeThreshold
        c.barometer = s.barometer
        return c
    }

    /// `[touch] transform` then `calibration` (checked when the file was read).
    public var touchCalibration: TouchCalibration {
        TouchCalibration(transform: touch.transform.rawValue, calibration: touch.calibration) ?? .identity
    }

    /// Where frames go, as the file says; the virtual panel has the configured size (a
    /// `--mode` on the command line overrides it).
    public var displaySettings: DisplaySettings {
        var s = DisplaySettings()
        switch display.backend {
        case .auto: s.kind = .auto
        case .drm: s.kind = .drm
        case .virtual: s.kind = .virtual
        }
        if !display.card.isEmpty { s.drm.cardPath = display.card }
        if !display.connector.isEmpty { s.drm.connectorName = display.connector }
        if let m = display.mode { s.drm.mode = m.description }
        s.drm.maxPixels = display.maxPixels
        s.drm.orientation = OrientationSetting(display.rotation.rawValue) ?? .auto
        if display.format != .auto { s.drm.format = PixelFormat(rawValue: display.format.rawValue) ?? .xrgb8888 }
        s.virtualWidth = display.virtualSize.width
        s.virtualHeight = display.virtualSize.height
        s.seat = input.seat
        return s
    }
}

extension KioskConfiguration {
    /// The black box as `[blackbox]` sets it, its traces headed for `kiosk` (the screen is
    /// added when the display is chosen); nil when it is off. `text`: the file as read, copied
    /// into each dump.
    public func blackBoxSettings(kiosk: KioskApp.Settings, text: String?) -> BlackBoxSettings? {
        guard !blackBox.folder.isEmpty else { return nil }
        var b = BlackBoxSettings()
        b.folder = blackBox.folder
        b.window = Microseconds(blackBox.minutes) * 60_000_000
        b.keep = blackBox.keep
        b.stall = blackBox.stallMilliseconds == 0 ? nil : Microseconds(blackBox.stallMilliseconds) * 1000
        b.header = TraceHeader(kiosk: kiosk, motion: motionSensors)
        b.configurationText = text
        return b
    }
}

extension TraceHeader {
    /// What a recording must carry for `replay` to run as the stand ran: the exhibit, its
    /// timers and seed, and the settings that shape motion (the screen is added once the
    /// display is chosen).
    public init(kiosk settings: KioskApp.Settings, motion: MotionSensorConfiguration) {
        self.init()
        exhibit = settings.locked?.name ?? "launcher"
        locked = settings.locked != nil
        idleMilliseconds = settings.idleTimeout.map { Double($0) / 1000 } ?? 0
        attractMilliseconds = settings.attractAfter.map { Double($0) / 1000 } ?? 0
        seed = settings.seed
        mount = motion.board.description
        gravityTimeConstantMilliseconds = motion.gravityTimeConstant * 1000
        shakeThreshold = motion.shakeThreshold
        stuckAfterMilliseconds = motion.stuckAfter.map { Double($0) / 1000 } ?? 0
        touchStuckMilliseconds = settings.stuckTouchAfter.map { Double($0) / 1000 } ?? 0
        phantomsFiltered = true
    }
}

extension TraceHeader {
    /// The kiosk as the header says the stand ran `exhibit` (nil: the whole kiosk):
    /// locked or not (`keepLock`: false when someone chose the exhibit), its idle and
    /// attract times, its stuck-finger time, its seed (unless `seed` overrides it).
    public func replaySettings(exhibit: ExhibitType?, width: Int, height: Int, seed override: UInt64? = nil, keepLock: Bool = true) -> KioskApp.Settings {
        var settings = KioskApp.Settings.replay(exhibit: exhibit, width: width, height: height, seed: override ?? seed ?? 1)
        func duration(_ ms: Double) -> Microseconds? { ms > 0 ? Microseconds(ms * 1000) : nil }
        if locked == true && keepLock, let exhibit {
            settings.locked = exhibit
            settings.initialExhibit = nil
        }
        if let ms = idleMilliseconds, locked == true || exhibit == nil { settings.idleTimeout = duration(ms) }
        if let ms = attractMilliseconds, exhibit == nil { settings.attractAfter = duration(ms) }
        if let ms = touchStuckMilliseconds { settings.stuckTouchAfter = duration(ms) }
        return settings
    }

    /// The motion filtering the header names (defaults for what it does not).
    public var motionSettings: MotionSettings {
        var motion = MotionSettings()
        if let ms = gravityTimeConstantMilliseconds { motion.gravityTimeConstant = ms / 1000 }
        if let threshold = shakeThreshold { motion.shakeThreshold = threshold }
        if let ms = stuckAfterMilliseconds { motion.stuckAfter = ms > 0 ? Microseconds(ms * 1000) : nil }
        return motion
    }
}
