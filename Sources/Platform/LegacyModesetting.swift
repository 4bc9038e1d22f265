import Syscalls

/// Legacy modesetting: SetCrtc sets the mode and shows a framebuffer at once, PageFlip
/// shows the next one at a vblank with an event. Power goes through the connector's DPMS
/// property, or, without one, by switching the CRTC off.
public final class LegacyModesetting: Modesetting {
    public var isAtomic: Bool { false }
    private let drm: any DRMCalls
    private let fd: Int32
    private let choice: DRMOutputChoice

    public init(drm: any DRMCalls, fd: Int32, choice: DRMOutputChoice) {
        self.drm = drm; self.fd = fd; self.choice = choice
    }

    public func modeset(framebuffer: UInt32, userData: UInt64) throws(SystemError) -> ModesetOutcome {
        try drm.setCrtc(fd: fd, crtcId: choice.crtc.id, bufferId: framebuffer, x: 0, y: 0,
                        connectorIds: [choice.connector.id], mode: choice.mode)
        return .shown
    }

    public func flip(to framebuffer: UInt32, userData: UInt64) throws(SystemError) {
        try drm.pageFlip(fd: fd, crtcId: choice.crtc.id, bufferId: framebuffer, userData: userData)
    }

    // DPMS values (drm_mode.h): 0 on, 3 off.
    private let dpmsOn: UInt64 = 0
    private let dpmsOff: UInt64 = 3

    public func powerOff() throws(SystemError) {
        if let dpms = choice.connector.propertyIds["DPMS"] {
            try drm.setConnectorProperty(fd: fd, connectorId: choice.connector.id, propertyId: dpms, value: dpmsOff)
        } else {
            try drm.setCrtc(fd: fd, crtcId: choice.crtc.id, bufferId: 0, x: 0, y: 0, connectorIds: [], mode: nil)
        }
    }

    public func powerOn() throws(SystemError) {
        guard let dpms = choice.connector.propertyIds["DPMS"] else { return }
        try drm.setConnectorProperty(fd: fd, connectorId: choice.connector.id, propertyId: dpms, value: dpmsOn)
    }

    public func restore(_ saved: DRMCrtc) throws(SystemError) {
        try setCrtcBack(saved, connectorId: choice.connector.id, drm: drm, fd: fd)
    }

    public func release() {}
}
