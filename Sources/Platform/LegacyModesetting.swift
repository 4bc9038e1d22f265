import Syscalls

/// Legacy modesetting: SetCrtc sets the mode and shows a framebuffer at once, PageFlip
/// shows the next one at a vblank with an event. Power goes through the connector's DPMS
/// property, or, without one, by switching the CRTC off. Where the driver has universal
/// planes, the primary plane's properties are set to a known state (`PlaneSetup`) and the
/// CRTC's other planes taken off before each SetCrtc.
public final class LegacyModesetting: Modesetting {
    public var isAtomic: Bool { false }
    private let drm: any DRMCalls
    private let fd: Int32
    private let choice: DRMOutputChoice
    public let setup: PlaneSetup
    /// Best-effort steps the kernel refused (a property not set, a plane that could not be
    /// taken off the screen), each once: said by whoever opened the display.
    public private(set) var problems: [String] = []

    public init(drm: any DRMCalls, fd: Int32, choice: DRMOutputChoice, setup: PlaneSetup = .software) {
        self.drm = drm; self.fd = fd; self.choice = choice; self.setup = setup
    }

    /// Sets the plane's known state. Only a rotation the kernel refuses is an error (the
    /// picture would be turned wrong); the other properties are best effort.
    func applyPlaneState() throws(SystemError) {
        guard let plane = choice.plane else { return }
        let rotationId = plane.propertyIds["rotation"]
        for (property, value) in setup.knownState(of: plane) {
            do throws(SystemError) {
                try drm.setPlaneProperty(fd: fd, planeId: plane.id, propertyId: property, value: value)
            } catch {
                if property == rotationId { throw error }
                problem("plane \(plane.id) kept its property \(property) as it was (\(error))")
            }
        }
        for other in PlaneSetup.planesToSwitchOff(choice.otherPlanes, crtc: choice.crtc, keeping: plane.id) {
            do throws(SystemError) { try drm.disablePlane(fd: fd, planeId: other.id) } catch {
                problem("plane \(other.id), left on by another program, could not be taken off and may cover the picture (\(error))")
            }
        }
    }

    private func problem(_ text: String) {
        if !problems.contains(text) { problems.append(text) }
    }

    public func modeset(framebuffer: UInt32, userData: UInt64) throws(SystemError) -> ModesetOutcome {
        do throws(SystemError) { try applyPlaneState() } catch {
            problem("the plane refused its rotation on a new modeset (\(error)); the picture may be turned wrong")
        }
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
        PlaneSetup.restore(choice.plane, drm: drm, fd: fd)
        try setCrtcBack(saved, connectorId: choice.connector.id, drm: drm, fd: fd)
    }

    public func release() {}
}
