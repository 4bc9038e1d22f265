#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Geometry
import Platform
import Raster
import KioskRuntime
import Syscalls

/// Lines on stdout, written at once (print() buffers when stdout is a pipe or a file, and
/// the board test reads the log while the kiosk runs).
func log(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { try? LinuxSystem.shared.write(1, from: $0) }
}

/// A failure at run time, said in plain words (no usage text: the command line was fine).
struct DisplayFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension DisplayKind: ExpressibleByArgument {}

/// The display options shared by the kiosk and the installer commands.
struct DisplayOptions: ParsableArguments {
    @Option(help: "auto (DRM when a connected display can be driven, else the virtual panel), drm or virtual.")
    var display: DisplayKind = .auto

    @Option(help: "DRM card device node, e.g. /dev/dri/card1 (default: found through udev).")
    var card: String?

    @Option(help: "Connector name, e.g. DSI-1, HDMI-A-1, Virtual-1 (default: the first connected).")
    var connector: String?

    @Option(help: "Mode WIDTHxHEIGHT[@HZ] (default: the connector's preferred mode).")
    var mode: String?

    @Option(help: "auto, 0, 90, 180 or 270: how the portrait picture is turned onto the panel.")
    var rotation: String = "auto"

    @Option(help: "Scanout format: auto (xrgb8888), xrgb8888 or rgb565.")
    var format: String = "auto"

    @Option(help: "Scanout buffers: 2 or 3.")
    var buffers: Int = 2

    @Flag(help: "Use legacy SetCrtc + PageFlip even where the driver offers atomic commits.")
    var legacyModeset = false

    @Option(help: "libinput seat.")
    var seat: String = "seat0"

    func validate() throws {
        guard OrientationSetting(rotation) != nil else { throw ValidationError("--rotation must be auto, 0, 90, 180 or 270 (got \(rotation))") }
        guard format == "auto" || PixelFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be auto, xrgb8888 or rgb565 (got \(format))")
        }
        guard buffers == 2 || buffers == 3 else { throw ValidationError("--buffers must be 2 or 3 (got \(buffers))") }
    }

    /// What the runtime takes; `--mode` also sizes the virtual panel (default portrait 480x800).
    var settings: DisplaySettings {
        var s = DisplaySettings()
        s.kind = display
        s.drm = DRMDisplayConfiguration(cardPath: card, connectorName: connector, mode: mode,
                                        orientation: OrientationSetting(rotation) ?? .auto,
                                        format: PixelFormat(rawValue: format) ?? .xrgb8888, bufferCount: buffers,
                                        allowAtomic: !legacyModeset)
        if let mode {
            let size = mode.split(separator: "@")[0].split(separator: "x").compactMap { Int($0) }
            if size.count == 2, (1...8192).contains(size[0]), (1...8192).contains(size[1]) {
                s.virtualWidth = size[0]; s.virtualHeight = size[1]
            }
        }
        return s
    }
}
