import Geometry
import Syscalls

/// The state the kiosk puts its plane in, whatever the previous client left: every standard
/// property the plane has at a known value (a console's `rotate=180` left on the primary
/// plane would otherwise turn the picture upside down while touch stays upright), and the
/// panel's rotation done by the plane itself where it can (vc4 turns 180° and reflects; no
/// driver we meet turns 90°), so that the copy into the buffer need not.
public struct PlaneSetup: Sendable, Equatable {
    // DRM_MODE_ROTATE_* and DRM_MODE_REFLECT_* (drm_mode.h).
    public static let rotate0: UInt64 = 1 << 0
    public static let rotate180: UInt64 = 1 << 2
    public static let reflectX: UInt64 = 1 << 4
    public static let reflectY: UInt64 = 1 << 5

    /// The plane's "rotation" value.
    public var rotation: UInt64
    /// The plane turns the picture by 180°: the copy into the buffer leaves it upright.
    public var turnsPicture: Bool

    /// The picture turned in software, the plane upright.
    public static let software = PlaneSetup(rotation: rotate0, turnsPicture: false)

    /// The plane turns the picture when the stand needs 180° and the plane offers it, as a
    /// rotation or as both reflections; otherwise software does.
    public static func choose(plane: DRMPlane?, rotation: PanelRotation) -> PlaneSetup {
        guard rotation == .r180, let plane, plane.propertyIds["rotation"] != nil, !plane.immutable.contains("rotation"),
              let offered = plane.options["rotation"] else { return .software }
        let mask = offered.values.reduce(UInt64(0)) { $0 | $1 }
        if mask & rotate180 != 0 { return PlaneSetup(rotation: rotate180, turnsPicture: true) }
        if mask & (rotate0 | reflectX | reflectY) == rotate0 | reflectX | reflectY {
            return PlaneSetup(rotation: rotate0 | reflectX | reflectY, turnsPicture: true)
        }
        return .software
    }

    /// The copy into the scanout buffer: the stand's transform, or upright when the plane turns.
    public func copyTransform(for screen: ScreenTransform) -> ScreenTransform {
        turnsPicture ? ScreenTransform(panelWidth: screen.panelWidth, panelHeight: screen.panelHeight, rotation: .r0) : screen
    }

    /// Property id → value for every standard property of `plane` beside what it shows
    /// (framebuffer, CRTC, rectangles): rotation, opacity, blending, stacking (where the
    /// driver lets it move), colour encoding and range. Properties it lacks are left out.
    public func knownState(of plane: DRMPlane) -> [(property: UInt32, value: UInt64)] {
        var out: [(property: UInt32, value: UInt64)] = []
        func set(_ name: String, _ value: UInt64?) {
            guard let value, let id = plane.propertyIds[name], !plane.immutable.contains(name) else { return }
            out.append((id, value))
        }
        set("rotation", rotation)
        set("alpha", plane.ranges["alpha"]?.upperBound)                 // opaque
        let blend = plane.options["pixel blend mode"]
        set("pixel blend mode", blend?["Pre-multiplied"] ?? blend?["None"])
        set("zpos", plane.ranges["zpos"]?.lowerBound)                  // beneath anything else
        let encoding = plane.options["COLOR_ENCODING"]
        set("COLOR_ENCODING", encoding?["ITU-R BT.709 YCbCr"] ?? encoding?["ITU-R BT.601 YCbCr"])
        set("COLOR_RANGE", plane.options["COLOR_RANGE"]?["YCbCr limited range"])
        return out
    }

    /// The standard properties `knownState` sets, at the values the plane had when the card
    /// was read (the console's `rotate=180` goes back with its framebuffer on leaving).
    public static func previousState(of plane: DRMPlane) -> [(property: UInt32, value: UInt64)] {
        ["rotation", "alpha", "pixel blend mode", "zpos", "COLOR_ENCODING", "COLOR_RANGE"].compactMap { name in
            guard let id = plane.propertyIds[name], let value = plane.values[name], !plane.immutable.contains(name) else { return nil }
            return (id, value)
        }
    }

    /// Puts `plane`'s standard properties back as they were found; best effort (the card is
    /// being given back).
    static func restore(_ plane: DRMPlane?, drm: any DRMCalls, fd: Int32) {
        guard let plane else { return }
        for (property, value) in previousState(of: plane) {
            try? drm.setPlaneProperty(fd: fd, planeId: plane.id, propertyId: property, value: value)
        }
    }

    /// The other planes showing something on `crtc` now (an overlay or a cursor another
    /// program left on): the modeset takes them off.
    public static func planesToSwitchOff(_ planes: [DRMPlane], crtc: DRMCrtc, keeping: UInt32?) -> [DRMPlane] {
        planes.filter { p in
            p.id != keeping && p.values["CRTC_ID"] == UInt64(crtc.id) && p.propertyIds["FB_ID"] != nil && p.propertyIds["CRTC_ID"] != nil
        }
    }
}
