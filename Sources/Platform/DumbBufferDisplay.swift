#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Raster
import Syscalls

/// A DRM/KMS scanout: the portrait picture is drawn into a cached RAM back buffer; each
/// frame copies the damaged rectangles, turned onto the panel, into a free dumb buffer
/// (each buffer keeps its own outstanding damage) and flips to it with an event. Scanout
/// memory is only written, never read: on the Pi it is write-combined.
///
/// The mode is set and frames flipped by one `Modesetting`, atomic where the driver offers
/// it, legacy otherwise (`openModesetting`). `restore()` puts the previous CRTC setup back,
/// so the console returns.
public final class DumbBufferDisplay: Display, FlipQueue {
    public let name: String
    public let screen: ScreenTransform
    public let backBuffer: PixelBuffer
    public let fd: Int32
    public let cardPath: String
    public let choice: DRMOutputChoice
    public let format: PixelFormat
    public var usesAtomic: Bool { modesetting.isAtomic }
    public private(set) var pacing: FramePacing
    /// Frames that reached the screen (flip events, or the first SetCrtc).
    public private(set) var framesShown = 0
    /// Flips whose event never came (`FramePacing.flipTimeout`); each time the mode was set
    /// again with the next frame.
    public private(set) var flipsLost = 0
    public private(set) var lastShownAt: Microseconds?
    /// What happened on the way that the user may want to know ("atomic TEST_ONLY refused: …").
    public private(set) var notes: [String] = []
    /// Scanout buffers asked for and made: fewer when the kernel ran short of memory for
    /// them (one buffer shows frames as they are copied, tearing where they move).
    public let scanoutBuffersWanted: Int
    public var scanoutBuffers: Int { scanouts.count }

    private let system: any SystemCalls
    private let drm: any DRMCalls
    private let clock: any Clock
    private let modesetting: any Modesetting
    /// How the back buffer is turned into a scanout buffer: as `screen` says, or upright
    /// when the plane turns the picture itself (`PlaneSetup`).
    private let copyTransform: ScreenTransform
    /// The plane turns the picture (180°) and the copy does not.
    public var planeTurnsPicture: Bool { modesetting.setup.turnsPicture }
    private struct Scanout { var buffer: DRMDumbBuffer; var framebufferId: UInt32; var memory: UnsafeMutableRawPointer }
    private var scanouts: [Scanout]
    private var damage: BufferDamage
    /// Which scanout buffer the panel shows and which one a flip is on its way to.
    private enum FlipState: Equatable {
        /// Nothing of ours on the screen yet.
        case blank
        case idle(front: Int)
        /// A flip to `pending` was submitted; its event has not come. `front` is still shown.
        case pending(Int, front: Int?)

        var front: Int? {
            switch self {
            case .blank: return nil
            case .idle(let f): return f
            case .pending(_, let f): return f
            }
        }
        var pending: Int? { if case .pending(let p, _) = self { return p } else { return nil } }
    }
    private var flip = FlipState.blank
    /// The mode is set (else the next frame sets it); the CRTC has been ours since a first
    /// frame (then `restore` puts the previous setup back).
    private var modeSet = false
    private var crtcTaken = false
    private var restored = false
    private let saved: DRMCrtc

    public var millimetresPerPixel: Double? {
        Self.millimetresPerPixel(widthMillimetres: choice.connector.widthMillimetres, heightMillimetres: choice.connector.heightMillimetres,
                                 width: choice.mode.width, height: choice.mode.height)
    }

    public private(set) var isPoweredOn = true

    /// Whether the connector has a screen on it (false after a hotplug took it away).
    public private(set) var connectorPresent = true

    /// What a hotplug did to this display's connector.
    public enum ConnectorChange: Equatable, Sendable {
        case unchanged
        /// Unplugged or switched off: frames are kept back until it returns.
        case gone
        /// Back with our mode: the next frame sets the mode again and shows the whole picture.
        case back
        /// Back, or still there, without our mode (another screen): the display must be
        /// opened anew at this mode.
        case otherMode(DRMMode)
    }

    /// Reads the connector again (call on a DRM uevent). Errors reading the card count as
    /// no change: the next uevent looks again.
    public func connectorChanged(config: DRMDisplayConfiguration = DRMDisplayConfiguration()) -> ConnectorChange {
        guard !restored, let card = try? drm.readCard(fd: fd, path: cardPath),
              let connector = card.connectors.first(where: { $0.id == choice.connector.id }) else { return .unchanged }
        let connected = connector.connection != .disconnected && !connector.modes.isEmpty
        if !connected {
            guard connectorPresent else { return .unchanged }
            connectorPresent = false
            // A flip in flight to a screen that went away may never complete.
            if flip.pending != nil { giveUpFlip() }
            return .gone
        }
        if !connector.modes.contains(where: { $0.width == choice.mode.width && $0.height == choice.mode.height
                                                && $0.refreshMilliHertz == choice.mode.refreshMilliHertz }) {
            connectorPresent = false
            return .otherMode(chooseMode(connector.modes, maxPixels: config.maxPixels))
        }
        guard !connectorPresent else { return .unchanged }
        connectorPresent = true
        modeSet = false
        damage.record([backBuffer.bounds])
        return .back
    }

    /// Off: as the modesetting path darkens a panel; the scanout buffers stay. On: the next
    /// frame sets the mode again and shows everything.
    public func setPower(_ on: Bool) throws(DisplayError) {
        guard on != isPoweredOn, !restored else { return }
        do throws(SystemError) {
            if flip.pending != nil { try waitForFlip() }
            if on {
                try modesetting.powerOn()
                modeSet = false
                damage.record([backBuffer.bounds])
            } else if crtcTaken {
                try modesetting.powerOff()
            }
        } catch {
            throw DisplayError("\(cardPath): turning the display \(on ? "on" : "off"): \(error)")
        }
        isPoweredOn = on
    }

    /// Takes ownership of `fd` (an open DRM card whose master we are).
    public init(system: any SystemCalls, drm: any DRMCalls, clock: any Clock, fd: Int32, card: DRMCard,
                choice: DRMOutputChoice, format: PixelFormat, bufferCount: Int, allowAtomic: Bool = true) throws(DisplaySetupError) {
        self.system = system; self.drm = drm; self.clock = clock; self.fd = fd
        self.cardPath = card.path; self.choice = choice; self.format = format
        screen = choice.screen
        saved = choice.crtc
        backBuffer = PixelBuffer(width: screen.portraitWidth, height: screen.portraitHeight, format: .xrgb8888)
        let count = min(3, max(1, bufferCount))
        scanoutBuffersWanted = count
        pacing = FramePacing(refreshMilliHertz: choice.mode.refreshMilliHertz)
        let cardName = card.path.split(separator: "/").last.map(String.init) ?? card.path
        name = "DRM \(cardName) \(choice.connector.name) \(choice.mode) rotation \(choice.rotation.rawValue) \(format.rawValue)"

        // Until `modesetting` is chosen the display is not whole: a failure here frees what
        // was made and leaves closing the card to the caller.
        // Scanout memory is scarce on some boards (vc4 allocates from CMA): fewer buffers
        // rather than none, and no buffer at all is for the caller to try a smaller mode.
        var made: [Scanout] = []
        var shortage: SystemError?
        for _ in 0..<count {
            do throws(SystemError) {
                made.append(try Self.makeScanout(system: system, drm: drm, fd: fd, mode: choice.mode, format: format))
            } catch {
                shortage = error
                break
            }
        }
        if made.isEmpty, let shortage {
            if shortage.errno == EACCES || shortage.errno == EPERM { throw DisplaySetupError.notMaster(card: card.path) }
            throw DisplaySetupError.noScanoutMemory(shortage, mode: choice.mode.description, card: card.path)
        }
        if let shortage {
            notes.append("warning: only \(made.count) of \(count) scanout buffers could be made at \(choice.mode) (\(card.path): \(shortage)); \(made.count == 1 ? "frames are copied into the buffer on the screen and may tear" : "frames may wait for the screen")")
        }
        damage = BufferDamage(bufferCount: made.count, bounds: backBuffer.bounds)
        do throws(DisplaySetupError) {
            let (chosen, note) = try openModesetting(drm: drm, fd: fd, card: card, choice: choice, allowAtomic: allowAtomic,
                                                     firstFramebuffer: made[0].framebufferId)
            modesetting = chosen
            copyTransform = chosen.setup.copyTransform(for: choice.screen)
            if let note { notes.append(note) }
            if chosen.setup.turnsPicture { notes.append("the plane turns the picture 180° in hardware; no software rotation") }
        } catch {
            Self.release(made, system: system, drm: drm, fd: fd)
            throw error
        }
        scanouts = made
    }

    deinit { restore() }

    /// Adds to `notes` (what opening the display went through).
    func note(_ text: String) { notes.append(text) }

    /// One dumb buffer at the mode's size, its framebuffer and its mapping; on failure
    /// nothing of it is left.
    private static func makeScanout(system: any SystemCalls, drm: any DRMCalls, fd: Int32, mode: DRMMode,
                                    format: PixelFormat) throws(SystemError) -> Scanout {
        let b = try drm.createDumbBuffer(fd: fd, width: mode.width, height: mode.height, bitsPerPixel: format.bytesPerPixel * 8)
        var framebuffer: UInt32 = 0
        do throws(SystemError) {
            framebuffer = try drm.addFramebuffer(fd: fd, width: mode.width, height: mode.height,
                                                 fourcc: fourcc(format), handle: b.handle, pitch: b.pitch)
            let memory = try system.mmap(length: b.size, protection: PROT_READ | PROT_WRITE, flags: MAP_SHARED,
                                         fd: fd, offset: Int64(bitPattern: b.mapOffset))
            return Scanout(buffer: b, framebufferId: framebuffer, memory: memory)
        } catch {
            if framebuffer != 0 { drm.removeFramebuffer(fd: fd, id: framebuffer) }
            drm.destroyDumbBuffer(fd: fd, handle: b.handle)
            throw error
        }
    }

    /// Whether a frame may go out now (see `FramePacing`); a flip overdue by then is given up.
    public func frameDecision() -> FramePacing.Decision {
        let now = clock.now
        // No screen: nothing to show, and no hurry (a hotplug brings it back).
        if !connectorPresent { return .waitUntil(now + 1_000_000) }
        if flip.pending != nil && pacing.flipOverdue(now: now) { giveUpFlip() }
        return pacing.decide(now: now)
    }
    public var flipPending: Bool { flip.pending != nil }
    public var flipEventDescriptor: Int32? { fd }
    public var flips: any FlipQueue { self }

    /// Copies the damage into a free buffer and flips to it. If the previous flip is still
    /// in flight this waits for it; callers that follow `frameDecision()` never wait.
    public func present(damage rects: [PixelRect]) throws(DisplayError) {
        if restored { return }
        damage.record(rects)
        if !connectorPresent { return }
        if modeSet && rects.allSatisfy({ $0.intersection(backBuffer.bounds).isEmpty }) { return }
        do throws(SystemError) {
            if scanouts.count == 1 && modeSet {
                try presentIntoShownBuffer()
                return
            }
            if flip.pending != nil && freeBuffer() == nil { try waitForFlip() }
            guard let target = freeBuffer() else { return }
            let owed = damage.take(for: target)
            let s = scanouts[target]
            rotateCopy(from: backBuffer, rects: owed, to: s.memory, pitch: s.buffer.pitch, format: format, transform: copyTransform)
            if flip.pending != nil { try waitForFlip() }
            try submit(target)
        } catch {
            throw DisplayError(DisplaySetupError.modesetting(error, card: cardPath).description)
        }
    }

    /// One buffer only: the frame is copied into the buffer on the screen (no flip; it shows
    /// as it is copied).
    private func presentIntoShownBuffer() throws(SystemError) {
        if flip.pending != nil { try waitForFlip() }
        let s = scanouts[0]
        rotateCopy(from: backBuffer, rects: damage.take(for: 0), to: s.memory, pitch: s.buffer.pitch, format: format, transform: copyTransform)
        flip = .idle(front: 0)
        framesShown += 1
        lastShownAt = clock.now
        pacing.submitted(at: clock.now, awaitingFlip: false)
    }

    private func freeBuffer() -> Int? {
        scanouts.indices.first { $0 != flip.front && $0 != flip.pending }
    }

    /// Sets the mode with buffer `index` when it is not set (yet, or since a lost flip or
    /// the panel's power coming back), else flips to it. The flip event's user data is the
    /// buffer's index + 1.
    private func submit(_ index: Int) throws(SystemError) {
        let framebuffer = scanouts[index].framebufferId, userData = UInt64(index + 1)
        if modeSet {
            try modesetting.flip(to: framebuffer, userData: userData)
            flip = .pending(index, front: flip.front)
            pacing.submitted(at: clock.now)
            return
        }
        switch try modesetting.modeset(framebuffer: framebuffer, userData: userData) {
        case .awaitingFlipEvent:
            flip = .pending(index, front: flip.front)
            pacing.submitted(at: clock.now)
        case .shown:
            flip = .idle(front: index)
            framesShown += 1
            lastShownAt = clock.now
            pacing.submitted(at: clock.now, awaitingFlip: false)
        }
        modeSet = true
        crtcTaken = true
    }

    /// Reads the flip events queued on `fd` (call when the main loop finds it readable).
    /// Returns how many frames reached the screen.
    @discardableResult
    public func readFlipEvents() throws(DisplayError) -> Int {
        do { return try readQueuedFlipEvents() } catch { throw DisplayError("\(cardPath): reading flip events: \(error)") }
    }

    private func readQueuedFlipEvents() throws(SystemError) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
        defer { buffer.deallocate() }
        let n = try system.read(fd, into: buffer)
        let events = parseDRMEvents(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        var shown = 0
        for event in events {
            guard let arrived = flip.pending else { break }
            flip = .idle(front: arrived)
            framesShown += 1
            // DRM stamps flips on CLOCK_MONOTONIC, the clock input events carry too. A stamp
            // that is not in the recent past (a driver without vblank times) counts as now.
            let stamped = Microseconds(event.seconds) * 1_000_000 + Microseconds(event.microseconds)
            let now = clock.now
            lastShownAt = stamped > 0 && stamped <= now && now - stamped < 1_000_000 ? stamped : now
            pacing.flipCompleted(at: lastShownAt)
            shown += 1
        }
        return shown
    }

    /// Waits for the pending flip's event, no later than `FramePacing.flipTimeout` after it
    /// was submitted (then it is given up).
    private func waitForFlip() throws(SystemError) {
        while flip.pending != nil {
            let left = (pacing.flipGiveUpAt ?? clock.now) - clock.now
            guard left > 0, try system.waitReadable(fd, microseconds: left) else { giveUpFlip(); return }
            _ = try readQueuedFlipEvents()
        }
    }

    /// The pending flip's event did not come in time: a driver lost it, or the panel went
    /// away under it. The buffer it went to is taken as shown (the next frame goes to
    /// another) and the next frame sets the mode again, which puts a whole picture up
    /// whatever the CRTC was doing. Should the kernel refuse that too, `present` fails, and
    /// the service restarts the kiosk.
    private func giveUpFlip() {
        guard let target = flip.pending else { return }
        flipsLost += 1
        flip = .idle(front: target)
        modeSet = false
        pacing.flipLost()
    }

    /// Puts back the CRTC as it was before (the console's framebuffer) and frees the buffers.
    public func restore() {
        if restored { return }
        restored = true
        if flip.pending != nil {
            // Restoring goes on: the CRTC is set whatever the last flip did.
            do throws(SystemError) { try waitForFlip() } catch { notes.append("waiting for the last flip before restoring: \(error)") }
        }
        if crtcTaken {
            do {
                try modesetting.restore(saved)
            } catch {
                // Closing the card still makes the kernel's fbdev client restore the console.
                notes.append("restoring the previous CRTC failed: \(error)")
            }
        }
        releaseBuffers()
        modesetting.release()
        drm.dropMaster(fd: fd)
        system.close(fd)
    }

    private func releaseBuffers() {
        Self.release(scanouts, system: system, drm: drm, fd: fd)
        scanouts = []
    }

    private static func release(_ scanouts: [Scanout], system: any SystemCalls, drm: any DRMCalls, fd: Int32) {
        for s in scanouts {
            system.munmap(s.memory, length: s.buffer.size)
            drm.removeFramebuffer(fd: fd, id: s.framebufferId)
            drm.destroyDumbBuffer(fd: fd, handle: s.buffer.handle)
        }
    }
}
