import Syscalls

/// Atomic modesetting: one commit binds connector, CRTC (mode blob, active) and primary
/// plane (framebuffer, source and destination rectangles, and every other standard property
/// at a known value: `PlaneSetup`) together, and takes the CRTC's other planes off; a flip
/// commits the plane's FB_ID alone, without blocking, with an event. Off is ACTIVE=0.
public final class AtomicModesetting: Modesetting {
    public var isAtomic: Bool { true }
    private let drm: any DRMCalls
    private let fd: Int32
    private let choice: DRMOutputChoice
    private let plane: DRMPlane
    private let properties: Properties
    public let setup: PlaneSetup
    /// The mode as a property blob for MODE_ID; 0 once released.
    private var modeBlob: UInt32

    /// The ids of the properties every commit names, found once: a driver that lacks one
    /// cannot be driven this way.
    private struct Properties {
        var connectorCrtc: UInt32
        var crtcMode, crtcActive: UInt32
        var planeFramebuffer, planeCrtc: UInt32
        var sourceX, sourceY, sourceWidth, sourceHeight: UInt32
        var crtcX, crtcY, crtcWidth, crtcHeight: UInt32

        init?(connector: DRMConnector, crtc: DRMCrtc, plane: DRMPlane) {
            let c = connector.propertyIds, k = crtc.propertyIds, p = plane.propertyIds
            guard let connectorCrtc = c["CRTC_ID"], let mode = k["MODE_ID"], let active = k["ACTIVE"],
                  let framebuffer = p["FB_ID"], let planeCrtc = p["CRTC_ID"],
                  let sx = p["SRC_X"], let sy = p["SRC_Y"], let sw = p["SRC_W"], let sh = p["SRC_H"],
                  let cx = p["CRTC_X"], let cy = p["CRTC_Y"], let cw = p["CRTC_W"], let ch = p["CRTC_H"] else { return nil }
            self.connectorCrtc = connectorCrtc
            crtcMode = mode; crtcActive = active
            planeFramebuffer = framebuffer; self.planeCrtc = planeCrtc
            sourceX = sx; sourceY = sy; sourceWidth = sw; sourceHeight = sh
            crtcX = cx; crtcY = cy; crtcWidth = cw; crtcHeight = ch
        }
    }

    /// nil when `choice` has no primary plane or the driver lacks a property the commits
    /// name; throws when the kernel refuses the mode blob.
    public init?(drm: any DRMCalls, fd: Int32, choice: DRMOutputChoice, setup: PlaneSetup = .software) throws(SystemError) {
        guard let plane = choice.plane,
              let properties = Properties(connector: choice.connector, crtc: choice.crtc, plane: plane) else { return nil }
        self.drm = drm; self.fd = fd; self.choice = choice; self.plane = plane; self.properties = properties
        self.setup = setup
        modeBlob = try drm.createModeBlob(fd: fd, mode: choice.mode)
    }

    // DRM_MODE_PAGE_FLIP_EVENT and DRM_MODE_ATOMIC_* (drm_mode.h).
    private let pageFlipEvent: UInt32 = 0x01
    private let testOnly: UInt32 = 0x0100
    private let nonblock: UInt32 = 0x0200
    private let allowModeset: UInt32 = 0x0400

    /// Asks the kernel whether `modeset(framebuffer:)` would be accepted, changing nothing.
    public func test(framebuffer: UInt32) throws(SystemError) {
        try drm.atomicCommit(fd: fd, modesetRequest(framebuffer: framebuffer), flags: testOnly | allowModeset, userData: 0)
    }

    public func modeset(framebuffer: UInt32, userData: UInt64) throws(SystemError) -> ModesetOutcome {
        try drm.atomicCommit(fd: fd, modesetRequest(framebuffer: framebuffer), flags: allowModeset | pageFlipEvent, userData: userData)
        return .awaitingFlipEvent
    }

    public func flip(to framebuffer: UInt32, userData: UInt64) throws(SystemError) {
        try drm.atomicCommit(fd: fd, [DRMPropertyValue(objectId: plane.id, propertyId: properties.planeFramebuffer, value: UInt64(framebuffer))],
                             flags: nonblock | pageFlipEvent, userData: userData)
    }

    public func powerOff() throws(SystemError) {
        try drm.atomicCommit(fd: fd, [DRMPropertyValue(objectId: choice.crtc.id, propertyId: properties.crtcActive, value: 0)],
                             flags: allowModeset, userData: 0)
    }

    /// Nothing to do: the next modeset commits ACTIVE=1.
    public func powerOn() throws(SystemError) {}

    /// The console's setup is a legacy one; SetCrtc puts it back on an atomic driver too.
    public func restore(_ saved: DRMCrtc) throws(SystemError) {
        PlaneSetup.restore(choice.plane, drm: drm, fd: fd)
        try setCrtcBack(saved, connectorId: choice.connector.id, drm: drm, fd: fd)
    }

    public func release() {
        if modeBlob != 0 { drm.destroyBlob(fd: fd, id: modeBlob); modeBlob = 0 }
    }

    /// The whole output: the connector on the CRTC, the CRTC active in the mode, the
    /// primary plane's state, and nothing else on the CRTC.
    private func modesetRequest(framebuffer: UInt32) -> [DRMPropertyValue] {
        var request = [DRMPropertyValue(objectId: choice.connector.id, propertyId: properties.connectorCrtc, value: UInt64(choice.crtc.id)),
                       DRMPropertyValue(objectId: choice.crtc.id, propertyId: properties.crtcMode, value: UInt64(modeBlob)),
                       DRMPropertyValue(objectId: choice.crtc.id, propertyId: properties.crtcActive, value: 1)]
            + planeState(framebuffer: framebuffer)
        for other in PlaneSetup.planesToSwitchOff(choice.otherPlanes, crtc: choice.crtc, keeping: plane.id) {
            guard let fb = other.propertyIds["FB_ID"], let crtc = other.propertyIds["CRTC_ID"] else { continue }
            request.append(DRMPropertyValue(objectId: other.id, propertyId: fb, value: 0))
            request.append(DRMPropertyValue(objectId: other.id, propertyId: crtc, value: 0))
        }
        return request
    }

    /// What the primary plane shows and how: `framebuffer`, all of it, over the whole CRTC.
    /// Every plane property a modeset sets belongs here.
    private func planeState(framebuffer: UInt32) -> [DRMPropertyValue] {
        let w = UInt64(choice.mode.width), h = UInt64(choice.mode.height)
        func set(_ property: UInt32, _ value: UInt64) -> DRMPropertyValue {
            DRMPropertyValue(objectId: plane.id, propertyId: property, value: value)
        }
        let p = properties
        // SRC_* are 16.16 fixed point; CRTC_* whole pixels.
        return [set(p.planeFramebuffer, UInt64(framebuffer)), set(p.planeCrtc, UInt64(choice.crtc.id)),
                set(p.sourceX, 0), set(p.sourceY, 0), set(p.sourceWidth, w << 16), set(p.sourceHeight, h << 16),
                set(p.crtcX, 0), set(p.crtcY, 0), set(p.crtcWidth, w), set(p.crtcHeight, h)]
            + setup.knownState(of: plane).map { set($0.property, $0.value) }
    }
}
