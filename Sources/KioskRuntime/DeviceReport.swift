#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Platform
import Raster
import Sensors
import Syscalls

/// What `motionkiosk devices` tells a technician: the DRM cards with their connectors and
/// modes and which one the kiosk would use, the input devices of the seat, and the motion
/// sensors. Lines, so that the executable only prints them and tests read them.
public enum DeviceReport {
    /// "XR24" for DRM_FORMAT_XRGB8888.
    public static func fourccName(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }, as: UTF8.self)
    }

    /// The DRM part: every card, or the one `display.drm.cardPath` names.
    public static func displayLines(_ display: DisplaySettings, system: any SystemCalls, drm: any DRMCalls,
                                    udev: (any UdevCalls)?) -> [String] {
        let config = display.drm
        var out = ["DRM cards:"]
        let paths = config.cardPath.map { [$0] } ?? drmCardPaths(udev: udev, system: system)
        if paths.isEmpty { out.append("  none (no /dev/dri/card*: is the display driver loaded?)") }
        for path in paths {
            let fd: Int32
            do {
                fd = try system.open(path, flags: O_RDWR)
            } catch {
                out.append("  \(DisplaySetupError.opening(error, path: path))")
                continue
            }
            defer { system.close(fd) }
            let card: DRMCard
            do { card = try drm.readCard(fd: fd, path: path) } catch {
                out.append("  \(path): not a display controller (\(error.reason))")
                continue
            }
            out.append("  \(path): driver \(card.driver), \(card.supportsAtomic ? "atomic" : "legacy") modesetting, "
                       + "\(card.crtcs.count) CRTC, \(card.planes.count) planes, \(drm.isMaster(fd: fd) ? "free (we would be master)" : "owned by another program")")
            for c in card.connectors {
                var line = "    connector \(c.name): \(c.connection.rawValue)"
                if c.widthMillimetres > 0 { line += ", \(c.widthMillimetres)x\(c.heightMillimetres) mm" }
                if let o = c.panelOrientation { line += ", panel orientation \(o)" }
                out.append(line)
                if !c.modes.isEmpty {
                    out.append("      modes: " + c.modes.map { "\($0)\($0.isPreferred ? " (preferred)" : "")" }.joined(separator: ", "))
                }
            }
            do {
                let choice = try chooseOutput(card: card, config: config)
                let s = choice.screen
                out.append("    would use: \(choice.connector.name) \(choice.mode), rotation \(choice.rotation.rawValue) "
                           + "(\(config.orientation == .auto ? "auto" : "configured")), portrait \(s.portraitWidth)x\(s.portraitHeight), "
                           + "\(config.format.rawValue), CRTC \(choice.crtc.id)"
                           + (choice.plane.map { ", primary plane \($0.id) (formats \($0.formats.map { fourccName($0) }.joined(separator: " ")))" } ?? ""))
            } catch {
                out.append("    would not use it: \(error)")
            }
        }
        return out
    }

    /// The input part: the devices a seat announces (or why it could not be opened).
    public static func inputLines(seat: String, opening: () throws(SystemError) -> any InputEventSource) -> [String] {
        var out = ["Input devices (\(seat)):"]
        do {
            let source = try opening()
            let devices = source.readEvents(panelWidth: 1, panelHeight: 1).compactMap { e -> InputDeviceInfo? in
                if case .deviceAdded(let info) = e { return info }
                return nil
            }
            for path in source.deniedDevices { out.append("  \(InputEvent.permissionMessage(path))") }
            if devices.isEmpty && source.deniedDevices.isEmpty { out.append("  none (is udevd running?)") }
            for d in devices {
                var line = "  \(d.sysname) \"\(d.name)\": \(d.capabilities.map { $0.rawValue }.joined(separator: ", "))"
                if d.isTouchscreen { line += ", touchscreen" }
                if let w = d.widthMillimetres, let h = d.heightMillimetres, w.isFinite, h.isFinite, abs(w) < 1e6, abs(h) < 1e6 {
                    line += ", \(Int(w.rounded()))x\(Int(h.rounded())) mm"
                }
                if let m = d.calibration { line += ", calibration \(m.map { "\($0)" }.joined(separator: " "))" }
                out.append(line)
            }
        } catch {
            out.append("  libinput: \(error)")
        }
        return out
    }

    /// The sensors part, with default settings: what the kiosk finds without a config file.
    public static func sensorLines(clock: MonotonicClock = MonotonicClock()) -> [String] {
        ["Sensors:"] + MotionSensors.deviceLines(configuration: MotionSensorConfiguration(), clock: clock).map { "  \($0)" }
    }
}
