#if canImport(Glibc)
import Glibc
#endif
import Syscalls

/// How a frame gets onto the CRTC: the driver's atomic interface (`AtomicModesetting`) or
/// the legacy SetCrtc/PageFlip ioctls (`LegacyModesetting`). `DumbBufferDisplay` picks one
/// when it opens (`openModesetting`) and keeps buffers, damage and pacing itself.
public protocol Modesetting: AnyObject {
    /// Atomic commits (else the legacy ioctls); logs and reports say which.
    var isAtomic: Bool { get }
    /// Sets the mode and shows `framebuffer`, whatever the CRTC was doing.
    func modeset(framebuffer: UInt32, userData: UInt64) throws(SystemError) -> ModesetOutcome
    /// Shows `framebuffer` at the next vblank; a flip event carrying `userData` follows.
    func flip(to framebuffer: UInt32, userData: UInt64) throws(SystemError)
    /// Darkens the panel; the next `modeset` lights it again.
    func powerOff() throws(SystemError)
    /// Undoes what `powerOff` did beyond the CRTC (the connector's DPMS), before that `modeset`.
    func powerOn() throws(SystemError)
    /// Puts the CRTC back as it was found (`saved`, read when the card was opened).
    func restore(_ saved: DRMCrtc) throws(SystemError)
    /// Frees what this path holds on the card (the atomic mode blob). Called once, last.
    func release()
}

/// When a modeset's frame is on the screen.
public enum ModesetOutcome: Equatable, Sendable {
    /// As the call returned (SetCrtc is synchronous and sends no event).
    case shown
    /// When its flip event comes, as for a flip.
    case awaitingFlipEvent
}

/// Atomic where the driver offers it (universal planes, a primary plane, every property
/// the commit names) and a TEST_ONLY commit of the first frame's modeset passes; else
/// legacy, with a note saying why when atomic was possible at all. A TEST_ONLY refused for
/// want of permission is not a reason to fall back: someone else is master.
public func openModesetting(drm: any DRMCalls, fd: Int32, card: DRMCard, choice: DRMOutputChoice, allowAtomic: Bool,
                            firstFramebuffer: UInt32) throws(DisplaySetupError) -> (modesetting: any Modesetting, note: String?) {
    let legacy = LegacyModesetting(drm: drm, fd: fd, choice: choice)
    if !allowAtomic { return (legacy, "atomic modesetting switched off; using SetCrtc and PageFlip") }
    guard card.supportsAtomic, choice.plane != nil else { return (legacy, nil) }
    do throws(SystemError) {
        guard let atomic = try AtomicModesetting(drm: drm, fd: fd, choice: choice) else {
            return (legacy, "atomic: the driver lacks a property the commit needs; using legacy modesetting")
        }
        do throws(SystemError) {
            try atomic.test(framebuffer: firstFramebuffer)
        } catch {
            atomic.release()
            throw error
        }
        return (atomic, nil)
    } catch {
        if error.errno == EACCES || error.errno == EPERM { throw .notMaster(card: card.path) }
        return (legacy, "atomic TEST_ONLY refused (\(error)); using legacy modesetting")
    }
}

/// SetCrtc with the setup the CRTC had when the card was opened (the console's
/// framebuffer), or switched off when it had none. Atomic drivers take it too.
func setCrtcBack(_ saved: DRMCrtc, connectorId: UInt32, drm: any DRMCalls, fd: Int32) throws(SystemError) {
    if saved.bufferId != 0, let mode = saved.mode {
        try drm.setCrtc(fd: fd, crtcId: saved.id, bufferId: saved.bufferId, x: saved.x, y: saved.y,
                        connectorIds: [connectorId], mode: mode)
    } else {
        try drm.setCrtc(fd: fd, crtcId: saved.id, bufferId: 0, x: 0, y: 0, connectorIds: [], mode: nil)
    }
}
