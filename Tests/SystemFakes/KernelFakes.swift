#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Platform
import Syscalls

// Fakes below the platform seam, shared by every test target that needs a kernel: one
// place for device nodes, DRM, udev.

/// A kernel below the seam: device nodes that open, mmap from RAM, and queued bytes to read
/// from a DRM fd; every call recorded in `log`, any of them failed through it.
public final class FakeSystem: SystemCalls, RecordingFake, @unchecked Sendable {
    /// When set, a DRM fd is readable on this kernel exactly while flip events are queued.
    public var events: VirtualEvents?
    public let log = SystemCallLog()
    public init() {}
    /// What getauxval(AT_HWCAP) says on this fake board (nil: the real processor's).
    public var capabilities: UInt64?
    public func hardwareCapabilities() -> UInt64 { capabilities ?? LinuxSystem.shared.hardwareCapabilities() }
    public var opened: [String] = []
    public var closed: [Int32] = []
    public var directories: [String: [String]] = [:]
    public var readQueue: [Int32: [[UInt8]]] = [:]
    public var mapped: [UnsafeMutableRawPointer] = []
    public var unmapped = 0
    public var ioctls: [(UInt, Int)] = []
    /// Values "get" ioctls store through their pointer argument.
    public var ioctlAnswers: [UInt: Int32] = [:]
    public var written: [Int32: [UInt8]] = [:]
    private var nextFd: Int32 = 10
    private var pathsByFd: [Int32: String] = [:]
    private func name(_ fd: Int32) -> String { pathsByFd[fd] ?? "fd \(fd)" }

    public func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemError) -> Int32 {
        try log.enter(.open, path)
        opened.append(path)
        nextFd += 1
        pathsByFd[nextFd] = path
        return nextFd
    }
    /// Another process holds a file's lock: `fail(.lock, of: path, errno: EWOULDBLOCK)`.
    public func lockExclusively(_ fd: Int32) -> Bool {
        do throws(SystemError) { try log.enter(.lock, name(fd)) } catch { return false }
        return true
    }
    public func close(_ fd: Int32) { log.record(.close, name(fd)); closed.append(fd) }
    public func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try log.enter(.read, name(fd), attempt: "read fd \(fd)")
        guard var queue = readQueue[fd], !queue.isEmpty else { throw SystemError(errno: EAGAIN, attempt: "read fd \(fd)") }
        let bytes = queue.removeFirst()
        readQueue[fd] = queue
        if queue.isEmpty { events?.consumed(fd) }
        buffer.copyBytes(from: bytes)
        return bytes.count
    }
    /// Readable while bytes are queued; otherwise the wait runs out at once (a flip event
    /// that never comes).
    public func waitReadable(_ fd: Int32, microseconds: Int64) throws(SystemError) -> Bool {
        try log.enter(.waitReadable, name(fd), attempt: "poll fd \(fd)")
        return readQueue[fd]?.isEmpty == false
    }
    public func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try log.enter(.write, name(fd), attempt: "write fd \(fd)")
        written[fd, default: []].append(contentsOf: buffer)
        return buffer.count
    }
    public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?, what: String) throws(SystemError) -> Int32 {
        try log.enter(.ioctl, name(fd) + " " + what, attempt: what)
        if let answer = ioctlAnswers[request], let arg { arg.storeBytes(of: answer, as: Int32.self) }
        ioctls.append((request, ioctlAnswers[request] != nil ? -1 : Int(bitPattern: arg)))
        return 0
    }
    public func mmap(length: Int, protection: Int32, flags: Int32, fd: Int32, offset: Int64) throws(SystemError) -> UnsafeMutableRawPointer {
        try log.enter(.mmap, name(fd), attempt: "mmap \(length) bytes of fd \(fd)")
        let p = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: length)
        mapped.append(p)
        return p
    }
    public func munmap(_ address: UnsafeMutableRawPointer, length: Int) { log.record(.munmap); unmapped += 1 }
    public func readSmallFile(_ path: String) throws(SystemError) -> String? {
        try log.enter(.readSmallFile, path, attempt: "read \(path)")
        return nil
    }
    public func writeSmallFile(_ path: String, _ text: String) throws(SystemError) {
        try log.enter(.writeSmallFile, path, attempt: "write '\(text)' to \(path)")
    }
    public func listDirectory(_ path: String) -> [String] { log.record(.listDirectory, path); return directories[path] ?? [] }
    public func fileExists(_ path: String) -> Bool { directories[path] != nil }
    /// Descriptors here are numbers only: nothing real to sync or to ask about.
    public var synced: [Int32] = []
    public func syncFile(_ fd: Int32, named name: String) throws(SystemError) {
        try log.enter(.syncFile, self.name(fd), attempt: "fsync \(name)")
        synced.append(fd)
    }
    public func status(of fd: Int32) -> FileStatus? { nil }
    /// Every node of this kernel is a device.
    public func kindAndSize(of fd: Int32, named name: String) throws(SystemError) -> (kind: FileKind, size: Int64) {
        try log.enter(.status, self.name(fd), attempt: "fstat \(name)")
        return (.characterDevice, 0)
    }
    public func waitReadable(anyOf fds: [Int32], microseconds: Int64) throws(SystemError) -> Bool {
        try log.enter(.waitReadable, fds.map(name).joined(separator: " "), attempt: "poll fds \(fds)")
        return fds.contains { readQueue[$0]?.isEmpty == false }
    }

    /// A flip-complete event as the kernel queues it on the DRM fd.
    /// With `events`, the fd becomes readable at `vblank` (now when nil).
    public func queueFlipEvent(fd: Int32, userData: UInt64, vblank: Int64? = nil) {
        var bytes = [UInt8](repeating: 0, count: 32)
        func put(_ v: UInt32, _ at: Int) { for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) } }
        put(2, 0); put(32, 4)
        put(UInt32(truncatingIfNeeded: userData), 8); put(UInt32(truncatingIfNeeded: userData >> 32), 12)
        // Stamped at the vblank (CLOCK_MONOTONIC, as the kernel does), else at 7.000500 s.
        let stamp = vblank ?? 7_000_500
        put(UInt32(truncatingIfNeeded: stamp / 1_000_000), 16); put(UInt32(truncatingIfNeeded: stamp % 1_000_000), 20)
        put(1, 24); put(31, 28)
        readQueue[fd, default: []].append(bytes)
        if let events { events.makeReadable(fd, at: vblank ?? events.now) }
    }
}

/// libdrm below the seam: one card; every call recorded in `log` and failed through it, with
/// the ioctl's name as libdrm's wrapper would report it.
public final class FakeDRM: DRMCalls, RecordingFake {
    public var card: DRMCard
    public var master = true
    public let log = SystemCallLog()
    public var atomicCommits: [(values: [DRMPropertyValue], flags: UInt32, userData: UInt64)] = []
    public var crtcSets: [(crtc: UInt32, fb: UInt32, mode: DRMMode?, connectors: [UInt32])] = []
    public var flips: [UInt32] = []
    private var nextId: UInt32 = 100

    public init(card: DRMCard) { self.card = card }

    /// Cards by device path where a test has more than one (else every path reads `card`).
    /// A path whose GETRESOURCES fails (a render-only v3d: EOPNOTSUPP) is a fault on
    /// `.readCard` of that path.
    public var cardsByPath: [String: DRMCard] = [:]
    public func readCard(fd: Int32, path: String) throws(SystemError) -> DRMCard {
        try log.enter(.readCard, path, attempt: "DRM_IOCTL_MODE_GETRESOURCES on \(path)")
        if let c = cardsByPath[path] { return c }
        var c = card
        c.path = path
        return c
    }
    public func capability(fd: Int32, _ cap: UInt64) -> UInt64? { 1 }
    public func isMaster(fd: Int32) -> Bool { master }
    public func setMaster(fd: Int32) throws(SystemError) {
        try log.enter(.setMaster, "fd \(fd)", attempt: "DRM_IOCTL_SET_MASTER")
        master = true
    }
    public func dropMaster(fd: Int32) { log.record(.dropMaster, "fd \(fd)") }
    /// Dumb buffers alive, in the order made (the display maps each right after), and the
    /// framebuffer made over each. Scarce CMA is a fault on `.createDumbBuffer` ("WxH").
    public private(set) var dumbHandles: [UInt32] = []
    public private(set) var framebufferHandles: [UInt32: UInt32] = [:]
    public func createDumbBuffer(fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws(SystemError) -> DRMDumbBuffer {
        try log.enter(.createDumbBuffer, "\(width)x\(height)", attempt: "DRM_IOCTL_MODE_CREATE_DUMB \(width)x\(height)")
        nextId += 1
        dumbHandles.append(nextId)
        let pitch = (width * bitsPerPixel / 8 + 63) & ~63
        return DRMDumbBuffer(handle: nextId, pitch: pitch, size: pitch * height, mapOffset: 0)
    }
    public func destroyDumbBuffer(fd: Int32, handle: UInt32) {
        log.record(.destroyDumbBuffer, "\(handle)")
        dumbHandles.removeAll { $0 == handle }
    }
    public func addFramebuffer(fd: Int32, width: Int, height: Int, fourcc: UInt32, handle: UInt32, pitch: Int) throws(SystemError) -> UInt32 {
        try log.enter(.addFramebuffer, "\(width)x\(height)", attempt: "DRM_IOCTL_MODE_ADDFB2 \(width)x\(height)")
        nextId += 1
        framebufferHandles[nextId] = handle
        return nextId
    }
    public func removeFramebuffer(fd: Int32, id: UInt32) { log.record(.removeFramebuffer, "\(id)") }
    public func setCrtc(fd: Int32, crtcId: UInt32, bufferId: UInt32, x: UInt32, y: UInt32, connectorIds: [UInt32], mode: DRMMode?) throws(SystemError) {
        try log.enter(.setCrtc, "crtc \(crtcId) fb \(bufferId)", attempt: "DRM_IOCTL_MODE_SETCRTC crtc \(crtcId) fb \(bufferId)")
        crtcSets.append((crtcId, bufferId, mode, connectorIds))
    }
    /// Called for every flip asked with an event (PageFlip, atomic with PAGE_FLIP_EVENT):
    /// a test queues the event when the virtual vblank comes.
    public var onFlip: ((_ fd: Int32, _ userData: UInt64) -> Void)?
    public func pageFlip(fd: Int32, crtcId: UInt32, bufferId: UInt32, userData: UInt64) throws(SystemError) {
        try log.enter(.pageFlip, "crtc \(crtcId) fb \(bufferId)", attempt: "DRM_IOCTL_MODE_PAGE_FLIP crtc \(crtcId) fb \(bufferId)")
        flips.append(bufferId)
        onFlip?(fd, userData)
    }
    /// Object id → property id → value, as the card's planes started and the committed
    /// (not TEST_ONLY) atomic requests and legacy property sets left them.
    public private(set) var state: [UInt32: [UInt32: UInt64]] = [:]
    private var stateRead = false
    /// The card's starting plane state, once.
    private func readState() {
        if stateRead { return }
        stateRead = true
        for p in card.planes {
            for (name, value) in p.values { if let id = p.propertyIds[name] { state[p.id, default: [:]][id] = value } }
        }
    }
    /// A plane's property by name as the card holds it now.
    public func planeValue(_ plane: UInt32, _ name: String) -> UInt64? {
        readState()
        guard let p = card.planes.first(where: { $0.id == plane }), let id = p.propertyIds[name] else { return nil }
        return state[plane]?[id]
    }
    public func atomicCommit(fd: Int32, _ values: [DRMPropertyValue], flags: UInt32, userData: UInt64) throws(SystemError) {
        // DRM_MODE_ATOMIC_TEST_ONLY is 0x0100. The subject names every value as
        // " object.property=value;", so that a test refuses a state a driver cannot scan out
        // (`fail(.atomicCommit, of: " 72.20=4;", …)`).
        try log.enter(.atomicCommit, "flags 0x\(String(flags, radix: 16))" + values.map { " \($0.objectId).\($0.propertyId)=\($0.value);" }.joined(),
                      attempt: "DRM_IOCTL_MODE_ATOMIC\(flags & 0x0100 != 0 ? " (TEST_ONLY)" : "")")
        atomicCommits.append((values, flags, userData))
        if flags & 0x0100 == 0 {
            readState()
            for v in values { state[v.objectId, default: [:]][v.propertyId] = v.value }
        }
        if flags & 0x01 != 0 { onFlip?(fd, userData) }
    }
    /// Subject "plane P property=value;": a test refuses one value (`of: " 20=4;"`).
    public func setPlaneProperty(fd: Int32, planeId: UInt32, propertyId: UInt32, value: UInt64) throws(SystemError) {
        try log.enter(.setPlaneProperty, "plane \(planeId) \(propertyId)=\(value);", attempt: "DRM_IOCTL_MODE_OBJ_SETPROPERTY plane \(planeId)")
        readState()
        state[planeId, default: [:]][propertyId] = value
    }
    public func disablePlane(fd: Int32, planeId: UInt32) throws(SystemError) {
        try log.enter(.disablePlane, "plane \(planeId)", attempt: "DRM_IOCTL_MODE_SETPLANE plane \(planeId) off")
        readState()
        guard let p = card.planes.first(where: { $0.id == planeId }) else { return }
        for name in ["FB_ID", "CRTC_ID"] { if let id = p.propertyIds[name] { state[planeId, default: [:]][id] = 0 } }
    }
    public var connectorProperties: [(connector: UInt32, property: UInt32, value: UInt64)] = []
    public func setConnectorProperty(fd: Int32, connectorId: UInt32, propertyId: UInt32, value: UInt64) throws(SystemError) {
        try log.enter(.setConnectorProperty, "connector \(connectorId) property \(propertyId)", attempt: "DRM_IOCTL_MODE_SETPROPERTY connector \(connectorId)")
        connectorProperties.append((connectorId, propertyId, value))
    }
    public func createModeBlob(fd: Int32, mode: DRMMode) throws(SystemError) -> UInt32 {
        try log.enter(.createModeBlob, "\(mode.width)x\(mode.height)", attempt: "DRM_IOCTL_MODE_CREATEPROPBLOB mode \(mode)")
        return 77
    }
    public func destroyBlob(fd: Int32, id: UInt32) { log.record(.destroyBlob, "\(id)") }
}

public enum Cards {
    public static let atomicProps: [String: UInt32] = ["CRTC_ID": 1, "MODE_ID": 2, "ACTIVE": 3, "FB_ID": 4, "SRC_X": 5, "SRC_Y": 6,
                                                "SRC_W": 7, "SRC_H": 8, "CRTC_X": 9, "CRTC_Y": 10, "CRTC_W": 11, "CRTC_H": 12]
    public static let xr24: UInt32 = 0x3432_5258
    public static let rg16: UInt32 = 0x3631_4752

    /// An HDMI connector (disconnected), a DSI panel 800x480 (connected, preferred mode) and
    /// two CRTCs; the DSI encoder can only use the second CRTC.
    public static func twoConnectors(dsiOrientation: String? = nil, dsiConnected: Bool = true, planeFormats: [UInt32] = [xr24]) -> DRMCard {
        let hdmi = DRMConnector(id: 40, name: "HDMI-A-1", connection: .disconnected, modes: [], encoderIds: [50])
        let dsi = DRMConnector(id: 41, name: "DSI-1", connection: dsiConnected ? .connected : .disconnected,
                               modes: [DRMMode(width: 1024, height: 768, refreshMilliHertz: 60_000),
                                       DRMMode(width: 800, height: 480, refreshMilliHertz: 60_000, isPreferred: true),
                                       DRMMode(width: 800, height: 480, refreshMilliHertz: 50_000)],
                               encoderIds: [51], panelOrientation: dsiOrientation, propertyIds: atomicProps)
        return DRMCard(path: "/dev/dri/card1", driver: "vc4", connectors: [hdmi, dsi],
                       encoders: [DRMEncoder(id: 50, crtcId: 0, possibleCrtcs: 0b01), DRMEncoder(id: 51, crtcId: 0, possibleCrtcs: 0b10)],
                       crtcs: [DRMCrtc(id: 60, propertyIds: atomicProps),
                               DRMCrtc(id: 61, bufferId: 90, mode: DRMMode(width: 800, height: 480, refreshMilliHertz: 60_000),
                                       propertyIds: atomicProps)],
                       planes: [DRMPlane(id: 70, possibleCrtcs: 0b01, formats: [xr24], kind: .primary, propertyIds: atomicProps),
                                DRMPlane(id: 71, possibleCrtcs: 0b10, formats: [xr24], kind: .overlay, propertyIds: atomicProps),
                                DRMPlane(id: 72, possibleCrtcs: 0b10, formats: planeFormats, kind: .primary, propertyIds: atomicProps)],
                       supportsAtomic: true)
    }

    /// virtio-gpu as the virtual board has it: Virtual-1, one CRTC, the console shown.
    public static func virtual(width: Int, height: Int, atomic: Bool = true) -> DRMCard {
        let mode = DRMMode(width: width, height: height, refreshMilliHertz: 60_000, isPreferred: true)
        let c = DRMConnector(id: 35, name: "Virtual-1", connection: .connected, modes: [mode], encoderIds: [36],
                             currentEncoderId: 36, propertyIds: atomicProps)
        return DRMCard(path: "/dev/dri/card0", driver: "virtio_gpu", connectors: [c],
                       encoders: [DRMEncoder(id: 36, crtcId: 34, possibleCrtcs: 1)],
                       crtcs: [DRMCrtc(id: 34, bufferId: 42, mode: mode, propertyIds: atomicProps)],
                       planes: atomic ? [DRMPlane(id: 33, possibleCrtcs: 1, formats: [xr24, rg16], kind: .primary, propertyIds: atomicProps)] : [],
                       supportsAtomic: atomic)
    }
}
