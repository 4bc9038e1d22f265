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
    /// How the plane is set up: whether it turns the picture itself.
    var setup: PlaneSetup { get }
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
/// want of permission is not a reason to fall back: someone else is master. The plane
/// turns the picture where it offers to (`PlaneSetup.choose`) and the kernel accepts it;
/// otherwise software does, with a note.
public func openModesetting(drm: any DRMCalls, fd: Int32, card: DRMCard, choice: DRMOutputChoice, allowAtomic: Bool,
                            firstFramebuffer: UInt32) throws(DisplaySetupError) -> (modesetting: any Modesetting, note: String?) {
    let wanted = PlaneSetup.choose(plane: choice.plane, rotation: choice.rotation)
    var notes: [String] = []
    func joined() -> String? { notes.isEmpty ? nil : notes.joined(separator: "; ") }
    func openLegacy() -> (modesetting: any Modesetting, note: String?) {
        let legacy = LegacyModesetting(drm: drm, fd: fd, choice: choice, setup: wanted)
        do throws(SystemError) {
            try legacy.applyPlaneState()
            notes += legacy.problems
            return (legacy, joined())
        } catch {
            guard wanted.turnsPicture else {
                notes.append("the plane refused its rotation (\(error))")
                return (legacy, joined())
            }
            notes.append("the plane refused to turn the picture (\(error)); turning it in software")
            let software = LegacyModesetting(drm: drm, fd: fd, choice: choice, setup: .software)
            do throws(SystemError) { try software.applyPlaneState() } catch {
                notes.append("the plane refused its upright rotation too (\(error)); the picture may be turned wrong")
            }
            notes += software.problems
            return (software, joined())
        }
    }
    if !allowAtomic {
        notes.append("atomic modesetting switched off; using SetCrtc and PageFlip")
        return openLegacy()
    }
    guard card.supportsAtomic, choice.plane != nil else { return openLegacy() }
    var setups = [wanted]
    if wanted.turnsPicture { setups.append(.software) }
    var refusal: SystemError?
    for setup in setups {
        do throws(SystemError) {
            guard let atomic = try AtomicModesetting(drm: drm, fd: fd, choice: choice, setup: setup) else {
                notes.append("atomic: the driver lacks a property the commit needs; using legacy modesetting")
                return openLegacy()
            }
            do throws(SystemError) {
                try atomic.test(framebuffer: firstFramebuffer)
            } catch {
                atomic.release()
                throw error
            }
            if refusal != nil { notes.append("atomic TEST_ONLY refused the plane turning the picture (\(refusal!)); turning it in software") }
            return (atomic, joined())
        } catch {
            if error.errno == EACCES || error.errno == EPERM { throw .notMaster(card: card.path) }
            refusal = error
        }
    }
    notes.append("atomic TEST_ONLY refused (\(refusal.map { "\($0)" } ?? "")); using legacy modesetting")
    return openLegacy()
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
