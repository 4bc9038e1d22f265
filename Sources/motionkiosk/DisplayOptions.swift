#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Geometry
import Platform
import Raster
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

/// Where frames go.
enum DisplayKind: String, ExpressibleByArgument, CaseIterable {
    /// DRM when a connected display can be driven, otherwise the virtual panel.
    case auto
    case drm
    case virtual
}

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

    var drmConfiguration: DRMDisplayConfiguration {
        DRMDisplayConfiguration(cardPath: card, connectorName: connector, mode: mode,
                                orientation: OrientationSetting(rotation) ?? .auto,
                                format: PixelFormat(rawValue: format) ?? .xrgb8888, bufferCount: buffers,
                                allowAtomic: !legacyModeset)
    }
}

extension DisplayOptions {
    /// The in-memory panel: `--mode` sets its native size (default portrait 480x800), and
    /// `--rotation` turns it as it would a real panel.
    func virtualPanel() -> VirtualPanel {
        var width = 480, height = 800
        if let mode {
            let size = mode.split(separator: "@")[0].split(separator: "x").compactMap { Int($0) }
            if size.count == 2, size[0] > 0, size[1] > 0 { width = size[0]; height = size[1] }
        }
        let rotation = panelRotation(OrientationSetting(self.rotation) ?? .auto, panelOrientation: nil, width: width, height: height)
        let format = PixelFormat(rawValue: self.format) ?? .xrgb8888
        return VirtualPanel(screen: ScreenTransform(panelWidth: width, panelHeight: height, rotation: rotation), scanoutFormat: format)
    }
}

/// The outcome of choosing a display under `--display`.
enum DisplayChoice {
    case drm(DumbBufferDisplay)
    /// `--display drm` and nothing connected yet: wait for a hotplug.
    case waitForHotplug(DisplaySetupError)
    case virtual(reason: String)
}

func chooseDisplay(_ options: DisplayOptions, udev: (any UdevCalls)?, clock: any Clock) throws -> DisplayChoice {
    if options.display == .virtual { return .virtual(reason: "--display virtual") }
    do {
        let d = try openDRMDisplay(config: options.drmConfiguration, system: LinuxSystem.shared, drm: LibDRM(),
                                   udev: udev, clock: clock)
        return .drm(d)
    } catch {
        if options.display == .drm {
            if isWaitingForHotplug(error) { return .waitForHotplug(error) }
            throw DisplayFailure(error.description)
        }
        return .virtual(reason: error.description)
    }
}

/// Ends `loop` on SIGTERM or SIGINT (saying which) and, when `seconds` is given, after that
/// long. Returns the timer, which must stay alive as long as the loop runs.
func leaveOnSignals(_ loop: EventLoop, orAfter seconds: Double?, say: @escaping (String) -> Void) throws -> LoopTimer? {
    try loop.onSignals([SIGTERM, SIGINT]) { signal in
        say("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): leaving")
        loop.stop()
    }
    guard let seconds else { return nil }
    let timer = try loop.addTimer { loop.stop() }
    try timer.arm(after: .fromSeconds(seconds))
    return timer
}

/// Nothing connected yet: waits for udev to announce a display, opens it and hands it to
/// `start`. The returned wait must stay alive as long as the loop runs.
func waitForDisplay(_ why: DisplaySetupError, options: DisplayOptions, udev: (any UdevCalls)?, loop: EventLoop,
                    clock: any Clock, say: @escaping (String) -> Void,
                    start: @escaping (DumbBufferDisplay) throws -> Void) throws -> DRMHotplugWait {
    guard let udev else { throw DisplayFailure("\(why); udev is not available to wait for a display") }
    say("\(why); waiting for a display to be connected")
    let config = options.drmConfiguration
    return try DRMHotplugWait(
        udev: udev, loop: loop,
        open: { () throws(DisplaySetupError) -> DumbBufferDisplay in
            try openDRMDisplay(config: config, system: LinuxSystem.shared, drm: LibDRM(), udev: udev, clock: clock)
        },
        ready: { display in
            say("a display was connected")
            do { try start(display) } catch { say("\(error)"); loop.stop() }
        },
        failed: { error in say("\(error)"); loop.stop() })
}
