#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import KioskRuntime
import Geometry
import Platform
import Raster
import Sensors
import Syscalls

/// "XR24" for DRM_FORMAT_XRGB8888.
func fourccName(_ code: UInt32) -> String {
    String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }, as: UTF8.self)
}

/// `motionkiosk devices`: what the kiosk would find and choose.
func devices(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    let display = try displaySettings(c)
    let system = LinuxSystem.shared
    let drm = LibDRM()
    let udev = try? LibUdev()
    let config = display.drm

    print("DRM cards:")
    let paths = config.cardPath.map { [$0] } ?? drmCardPaths(udev: udev, system: system)
    if paths.isEmpty { print("  none (no /dev/dri/card*: is the display driver loaded?)") }
    for path in paths {
        let fd: Int32
        do {
            fd = try system.open(path, flags: O_RDWR)
        } catch {
            print("  \(DisplaySetupError.opening(error, path: path))")
            continue
        }
        defer { system.close(fd) }
        let card: DRMCard
        do { card = try drm.readCard(fd: fd, path: path) } catch {
            print("  \(path): not a display controller (\(error.reason))")
            continue
        }
        print("  \(path): driver \(card.driver), \(card.supportsAtomic ? "atomic" : "legacy") modesetting, "
              + "\(card.crtcs.count) CRTC, \(card.planes.count) planes, \(drm.isMaster(fd: fd) ? "free (we would be master)" : "owned by another program")")
        for c in card.connectors {
            var line = "    connector \(c.name): \(c.connection.rawValue)"
            if c.widthMillimetres > 0 { line += ", \(c.widthMillimetres)x\(c.heightMillimetres) mm" }
            if let o = c.panelOrientation { line += ", panel orientation \(o)" }
            print(line)
            if !c.modes.isEmpty {
                print("      modes: " + c.modes.map { "\($0)\($0.isPreferred ? " (preferred)" : "")" }.joined(separator: ", "))
            }
        }
        do {
            let choice = try chooseOutput(card: card, config: config)
            let s = choice.screen
            print("    would use: \(choice.connector.name) \(choice.mode), rotation \(choice.rotation.rawValue) "
                  + "(\(config.orientation == .auto ? "auto" : "configured")), portrait \(s.portraitWidth)x\(s.portraitHeight), "
                  + "\(config.format.rawValue), CRTC \(choice.crtc.id)"
                  + (choice.plane.map { ", primary plane \($0.id) (formats \($0.formats.map { fourccName($0) }.joined(separator: " ")))" } ?? ""))
        } catch {
            print("    would not use it: \(error)")
        }
    }

    print("Input devices (\(display.seat)):")
    do {
        let seat = try LibInputSeat(seat: display.seat)
        let devices = seat.readEvents(panelWidth: 1, panelHeight: 1).compactMap { e -> InputDeviceInfo? in
            if case .deviceAdded(let info) = e { return info }
            return nil
        }
        for path in seat.deniedDevices { print("  \(InputEvent.permissionMessage(path))") }
        if devices.isEmpty && seat.deniedDevices.isEmpty { print("  none (is udevd running?)") }
        for d in devices {
            var line = "  \(d.sysname) \"\(d.name)\": \(d.capabilities.map { $0.rawValue }.joined(separator: ", "))"
            if d.isTouchscreen { line += ", touchscreen" }
            if let w = d.widthMillimetres, let h = d.heightMillimetres { line += ", \(Int(w.rounded()))x\(Int(h.rounded())) mm" }
            if let m = d.calibration { line += ", calibration \(m.map { "\($0)" }.joined(separator: " "))" }
            print(line)
        }
    } catch {
        print("  libinput: \(error)")
    }

    print("Sensors:")
    // Default sensor settings: what the kiosk would find without a config file.
    for line in MotionSensors.deviceLines(configuration: MotionSensorConfiguration(), clock: MonotonicClock()) {
        print("  \(line)")
    }
    return 0
}
