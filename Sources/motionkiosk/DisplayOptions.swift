import CommandLineParser
import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Raster

/// The display options of `run`, `pattern` and `devices`, checked; options not given keep
/// `base` (built-in defaults, or the configuration file's for `run`).
func displaySettings(_ c: ParsedCommand, base: DisplaySettings = DisplaySettings()) throws(KioskError) -> DisplaySettings {
    var s = base
    do throws(CommandLineError) {
        if let kind = try c.choice("display", ["auto", "drm", "virtual"]) {
            s.kind = kind == "drm" ? .drm : kind == "virtual" ? .virtual : .auto
        }
        if let card = try c.nonEmpty("card") { s.drm.cardPath = card }
        if let connector = try c.nonEmpty("connector") { s.drm.connectorName = connector }
        if let mode = try c.nonEmpty("mode") {
            s.drm.mode = mode
            guard let size = DisplaySettings.modeSize(mode) else { throw CommandLineError("--mode \(echoed(mode)): expected WIDTHxHEIGHT[@HZ], each side 1…8192") }
            (s.virtualWidth, s.virtualHeight) = size
        }
        if let rotation = c.string("rotation") {
            guard let r = OrientationSetting(rotation) else { throw CommandLineError("--rotation must be auto, 0, 90, 180 or 270 (got \(rotation))") }
            s.drm.orientation = r
        }
        if let format = c.string("format") {
            // auto is xrgb8888, as in the configuration file: given, it overrides the file too.
            guard let f = format == "auto" ? .xrgb8888 : PixelFormat(rawValue: format) else {
                throw CommandLineError("--format must be auto, xrgb8888 or rgb565 (got \(format))")
            }
            s.drm.format = f
        }
        if let buffers = try c.integer("buffers", in: 2...3) { s.drm.bufferCount = buffers }
        if c.flag("legacy-modeset") { s.drm.allowAtomic = false }
        if let seat = try c.nonEmpty("seat") { s.seat = seat }
    } catch {
        throw KioskError(error.message)
    }
    return s
}
