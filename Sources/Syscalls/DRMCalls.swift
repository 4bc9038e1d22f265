#if canImport(Glibc)
import Glibc
#endif
import CDRM

// DRM/KMS through libdrm, behind a protocol so that Platform's choices (connector, mode,
// CRTC, plane, orientation, buffer bookkeeping, error messages) are tested against fake
// cards. What the kernel says is copied into plain Swift values once; no libdrm pointer
// leaves this file.

/// One display mode, with the raw kernel struct kept for SetCrtc and the MODE_ID blob.
public struct DRMMode: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Refresh in millihertz, computed from the pixel clock (vrefresh is rounded).
    public var refreshMilliHertz: Int
    public var name: String
    public var isPreferred: Bool
    public var raw: drmModeModeInfo

    public init(width: Int, height: Int, refreshMilliHertz: Int, name: String? = nil, isPreferred: Bool = false) {
        var raw = drmModeModeInfo()
        raw.hdisplay = UInt16(clamping: width)
        raw.vdisplay = UInt16(clamping: height)
        raw.vrefresh = UInt32(clamping: (refreshMilliHertz + 500) / 1000)
        self.init(raw: raw, refreshMilliHertz: refreshMilliHertz, name: name ?? "\(width)x\(height)", isPreferred: isPreferred)
    }

    public init(raw: drmModeModeInfo) {
        let total = Int(raw.htotal) * Int(raw.vtotal)
        var milli = total > 0 ? Int(raw.clock) * 1_000_000 / total : Int(raw.vrefresh) * 1000
        if raw.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { milli *= 2 }
        if raw.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { milli /= 2 }
        let name = withUnsafeBytes(of: raw.name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        self.init(raw: raw, refreshMilliHertz: milli, name: name,
                  isPreferred: raw.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
    }

    private init(raw: drmModeModeInfo, refreshMilliHertz: Int, name: String, isPreferred: Bool) {
        self.raw = raw
        width = Int(raw.hdisplay); height = Int(raw.vdisplay)
        self.refreshMilliHertz = refreshMilliHertz; self.name = name; self.isPreferred = isPreferred
    }

    /// "800x480@60.00".
    public var description: String {
        let hz = refreshMilliHertz / 1000, frac = (refreshMilliHertz % 1000) / 10
        return "\(width)x\(height)@\(hz).\(frac < 10 ? "0" : "")\(frac)"
    }

    public static func == (a: DRMMode, b: DRMMode) -> Bool {
        a.width == b.width && a.height == b.height && a.refreshMilliHertz == b.refreshMilliHertz
            && a.name == b.name && a.isPreferred == b.isPreferred
    }
}

public enum DRMConnection: String, Sendable { case connected, disconnected, unknown }

public struct DRMConnector: Sendable {
    public var id: UInt32
    /// Kernel name: "DSI-1", "HDMI-A-1", "Virtual-1".
    public var name: String
    public var connection: DRMConnection
    public var modes: [DRMMode]
    public var encoderIds: [UInt32]
    public var currentEncoderId: UInt32
    public var widthMillimetres: Int
    public var heightMillimetres: Int
    /// The immutable "panel orientation" property: "Normal", "Upside Down", "Left Side Up",
    /// "Right Side Up"; nil when the driver does not expose it.
    public var panelOrientation: String?
    /// Property name → id, for atomic commits ("CRTC_ID").
    public var propertyIds: [String: UInt32]

    public init(id: UInt32, name: String, connection: DRMConnection, modes: [DRMMode], encoderIds: [UInt32] = [],
                currentEncoderId: UInt32 = 0, widthMillimetres: Int = 0, heightMillimetres: Int = 0,
                panelOrientation: String? = nil, propertyIds: [String: UInt32] = [:]) {
        self.id = id; self.name = name; self.connection = connection; self.modes = modes
        self.encoderIds = encoderIds; self.currentEncoderId = currentEncoderId
        self.widthMillimetres = widthMillimetres; self.heightMillimetres = heightMillimetres
        self.panelOrientation = panelOrientation; self.propertyIds = propertyIds
    }
}

public struct DRMEncoder: Sendable {
    public var id: UInt32
    public var crtcId: UInt32
    /// Bit i set: the CRTC at index i of the card's CRTC list can drive this encoder.
    public var possibleCrtcs: UInt32
    public init(id: UInt32, crtcId: UInt32, possibleCrtcs: UInt32) {
        self.id = id; self.crtcId = crtcId; self.possibleCrtcs = possibleCrtcs
    }
}

public struct DRMCrtc: Sendable {
    public var id: UInt32
    /// The framebuffer shown now (0: none): restored on exit, so the console comes back.
    public var bufferId: UInt32
    public var x: UInt32
    public var y: UInt32
    public var mode: DRMMode?
    public var propertyIds: [String: UInt32]
    public init(id: UInt32, bufferId: UInt32 = 0, x: UInt32 = 0, y: UInt32 = 0, mode: DRMMode? = nil,
                propertyIds: [String: UInt32] = [:]) {
        self.id = id; self.bufferId = bufferId; self.x = x; self.y = y; self.mode = mode; self.propertyIds = propertyIds
    }
}

public enum DRMPlaneKind: String, Sendable { case primary, overlay, cursor }

public struct DRMPlane: Sendable {
    public var id: UInt32
    public var possibleCrtcs: UInt32
    public var formats: [UInt32]
    public var kind: DRMPlaneKind
    public var propertyIds: [String: UInt32]
    /// What each property is set to now (what the previous client left: a console's
    /// rotation, an overlay still on).
    public var values: [String: UInt64]
    /// Enum and bitmask properties: name of each option → the value that selects it (for a
    /// bitmask, its bit: "rotate-180" → 0x4).
    public var options: [String: [String: UInt64]]
    /// Range properties ("zpos", "alpha"): the values allowed.
    public var ranges: [String: ClosedRange<UInt64>]
    /// Properties the driver reports but does not let a client change (a fixed "zpos").
    public var immutable: Set<String>
    public init(id: UInt32, possibleCrtcs: UInt32, formats: [UInt32], kind: DRMPlaneKind, propertyIds: [String: UInt32] = [:],
                values: [String: UInt64] = [:], options: [String: [String: UInt64]] = [:],
                ranges: [String: ClosedRange<UInt64>] = [:], immutable: Set<String> = []) {
        self.id = id; self.possibleCrtcs = possibleCrtcs; self.formats = formats; self.kind = kind
        self.propertyIds = propertyIds; self.values = values; self.options = options; self.ranges = ranges
        self.immutable = immutable
    }
}

/// Everything the kiosk needs to know about one card, read at once.
public struct DRMCard: Sendable {
    public var path: String
    public var driver: String
    public var connectors: [DRMConnector]
    public var encoders: [DRMEncoder]
    public var crtcs: [DRMCrtc]
    /// Empty when the driver has no universal planes (then legacy modesetting is used).
    public var planes: [DRMPlane]
    /// The driver accepted DRM_CLIENT_CAP_ATOMIC.
    public var supportsAtomic: Bool
    public init(path: String, driver: String, connectors: [DRMConnector], encoders: [DRMEncoder], crtcs: [DRMCrtc],
                planes: [DRMPlane], supportsAtomic: Bool) {
        self.path = path; self.driver = driver; self.connectors = connectors; self.encoders = encoders
        self.crtcs = crtcs; self.planes = planes; self.supportsAtomic = supportsAtomic
    }
}

public struct DRMDumbBuffer: Sendable {
    public var handle: UInt32
    public var pitch: Int
    public var size: Int
    public var mapOffset: UInt64
    public init(handle: UInt32, pitch: Int, size: Int, mapOffset: UInt64) {
        self.handle = handle; self.pitch = pitch; self.size = size; self.mapOffset = mapOffset
    }
}

/// One property assignment of an atomic request.
public struct DRMPropertyValue: Sendable, Equatable {
    public var objectId: UInt32
    public var propertyId: UInt32
    public var value: UInt64
    public init(objectId: UInt32, propertyId: UInt32, value: UInt64) {
        self.objectId = objectId; self.propertyId = propertyId; self.value = value
    }
}

/// libdrm calls the kiosk makes. Opening, reading events and mmap go through `SystemCalls`.
public protocol DRMCalls: AnyObject {
    /// Turns on universal planes and atomic where the driver has them, then reads the card.
    func readCard(fd: Int32, path: String) throws(SystemError) -> DRMCard
    func capability(fd: Int32, _ cap: UInt64) -> UInt64?
    func isMaster(fd: Int32) -> Bool
    func setMaster(fd: Int32) throws(SystemError)
    func dropMaster(fd: Int32)
    func createDumbBuffer(fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws(SystemError) -> DRMDumbBuffer
    func destroyDumbBuffer(fd: Int32, handle: UInt32)
    func addFramebuffer(fd: Int32, width: Int, height: Int, fourcc: UInt32, handle: UInt32, pitch: Int) throws(SystemError) -> UInt32
    func removeFramebuffer(fd: Int32, id: UInt32)
    func setCrtc(fd: Int32, crtcId: UInt32, bufferId: UInt32, x: UInt32, y: UInt32, connectorIds: [UInt32], mode: DRMMode?) throws(SystemError)
    func pageFlip(fd: Int32, crtcId: UInt32, bufferId: UInt32, userData: UInt64) throws(SystemError)
    func atomicCommit(fd: Int32, _ values: [DRMPropertyValue], flags: UInt32, userData: UInt64) throws(SystemError)
    /// Sets one property of a connector the legacy way (DPMS on a card without atomic).
    func setConnectorProperty(fd: Int32, connectorId: UInt32, propertyId: UInt32, value: UInt64) throws(SystemError)
    func createModeBlob(fd: Int32, mode: DRMMode) throws(SystemError) -> UInt32
    func destroyBlob(fd: Int32, id: UInt32)
    /// Sets one property of a plane outside an atomic commit (legacy modesetting).
    func setPlaneProperty(fd: Int32, planeId: UInt32, propertyId: UInt32, value: UInt64) throws(SystemError)
    /// Takes a plane off its CRTC outside an atomic commit (SetPlane with no framebuffer).
    func disablePlane(fd: Int32, planeId: UInt32) throws(SystemError)
}

/// The real libdrm.
public final class LibDRM: DRMCalls {
    public init() {}

    /// libdrm returns -1 with errno, or sometimes -errno: take whichever is meaningful.
    private func check(_ result: Int32, _ what: @autoclosure () -> String) throws(SystemError) {
        if result == 0 { return }
        let code = result < -1 ? -result : (errno != 0 ? errno : EIO)
        throw SystemError(errno: code, attempt: what())
    }

    public func readCard(fd: Int32, path: String) throws(SystemError) -> DRMCard {
        let universal = drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0
        let atomic = universal && drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
        var driver = "unknown"
        if let version = drmGetVersion(fd) {
            if let name = version.pointee.name { driver = String(cString: name) }
            drmFreeVersion(version)
        }
        errno = 0
        guard let res = drmModeGetResources(fd) else {
            throw SystemError(errno: errno != 0 ? errno : ENODEV, attempt: "DRM_IOCTL_MODE_GETRESOURCES on \(path)")
        }
        defer { drmModeFreeResources(res) }
        let r = res.pointee
        let crtcIds = Array(UnsafeBufferPointer(start: r.crtcs, count: Int(r.count_crtcs)))
        let encoderIds = Array(UnsafeBufferPointer(start: r.encoders, count: Int(r.count_encoders)))
        let connectorIds = Array(UnsafeBufferPointer(start: r.connectors, count: Int(r.count_connectors)))

        var crtcs: [DRMCrtc] = []
        for id in crtcIds {
            guard let c = drmModeGetCrtc(fd, id) else { continue }
            let v = c.pointee
            crtcs.append(DRMCrtc(id: id, bufferId: v.buffer_id, x: v.x, y: v.y,
                                 mode: v.mode_valid != 0 ? DRMMode(raw: v.mode) : nil,
                                 propertyIds: properties(fd, id, UInt32(DRM_MODE_OBJECT_CRTC)).ids))
            drmModeFreeCrtc(c)
        }
        var encoders: [DRMEncoder] = []
        for id in encoderIds {
            guard let e = drmModeGetEncoder(fd, id) else { continue }
            encoders.append(DRMEncoder(id: id, crtcId: e.pointee.crtc_id, possibleCrtcs: e.pointee.possible_crtcs))
            drmModeFreeEncoder(e)
        }
        var connectors: [DRMConnector] = []
        for id in connectorIds {
            guard let c = drmModeGetConnector(fd, id) else { continue }
            let v = c.pointee
            let typeName = drmModeGetConnectorTypeName(v.connector_type).map { String(cString: $0) } ?? "Unknown\(v.connector_type)"
            let modes = (0..<Int(v.count_modes)).map { DRMMode(raw: v.modes[$0]) }
            let connection: DRMConnection = v.connection == DRM_MODE_CONNECTED ? .connected
                : v.connection == DRM_MODE_DISCONNECTED ? .disconnected : .unknown
            let props = properties(fd, id, UInt32(DRM_MODE_OBJECT_CONNECTOR))
            connectors.append(DRMConnector(
                id: id, name: "\(typeName)-\(v.connector_type_id)", connection: connection, modes: modes,
                encoderIds: Array(UnsafeBufferPointer(start: v.encoders, count: Int(v.count_encoders))),
                currentEncoderId: v.encoder_id, widthMillimetres: Int(v.mmWidth), heightMillimetres: Int(v.mmHeight),
                panelOrientation: props.enumValues["panel orientation"], propertyIds: props.ids))
            drmModeFreeConnector(c)
        }
        var planes: [DRMPlane] = []
        if universal, let pr = drmModeGetPlaneResources(fd) {
            for i in 0..<Int(pr.pointee.count_planes) {
                let id = pr.pointee.planes[i]
                guard let p = drmModeGetPlane(fd, id) else { continue }
                let props = properties(fd, id, UInt32(DRM_MODE_OBJECT_PLANE))
                let kind: DRMPlaneKind
                switch props.values["type"] {
                case UInt64(DRM_PLANE_TYPE_PRIMARY): kind = .primary
                case UInt64(DRM_PLANE_TYPE_CURSOR): kind = .cursor
                default: kind = .overlay
                }
                planes.append(DRMPlane(id: id, possibleCrtcs: p.pointee.possible_crtcs,
                                       formats: Array(UnsafeBufferPointer(start: p.pointee.formats, count: Int(p.pointee.count_formats))),
                                       kind: kind, propertyIds: props.ids, values: props.values, options: props.options,
                                       ranges: props.ranges, immutable: props.immutable))
                drmModeFreePlane(p)
            }
            drmModeFreePlaneResources(pr)
        }
        return DRMCard(path: path, driver: driver, connectors: connectors, encoders: encoders, crtcs: crtcs,
                       planes: planes, supportsAtomic: atomic)
    }

    private struct ObjectProperties {
        var ids: [String: UInt32] = [:]; var values: [String: UInt64] = [:]; var enumValues: [String: String] = [:]
        var options: [String: [String: UInt64]] = [:]; var ranges: [String: ClosedRange<UInt64>] = [:]; var immutable: Set<String> = []
    }

    private func properties(_ fd: Int32, _ object: UInt32, _ type: UInt32) -> ObjectProperties {
        var out = ObjectProperties()
        guard let props = drmModeObjectGetProperties(fd, object, type) else { return out }
        defer { drmModeFreeObjectProperties(props) }
        for i in 0..<Int(props.pointee.count_props) {
            guard let prop = drmModeGetProperty(fd, props.pointee.props[i]) else { continue }
            let name = withUnsafeBytes(of: prop.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let value = props.pointee.prop_values[i]
            out.ids[name] = prop.pointee.prop_id
            out.values[name] = value
            let flags = prop.pointee.flags
            if flags & UInt32(DRM_MODE_PROP_IMMUTABLE) != 0 { out.immutable.insert(name) }
            let isEnum = flags & UInt32(DRM_MODE_PROP_ENUM) != 0, isBitmask = flags & UInt32(DRM_MODE_PROP_BITMASK) != 0
            if isEnum || isBitmask {
                var options: [String: UInt64] = [:]
                for e in 0..<Int(prop.pointee.count_enums) {
                    let option = withUnsafeBytes(of: prop.pointee.enums[e].name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    // A bitmask's entries give bit numbers; a bit number past 63 cannot be a flag.
                    let v = prop.pointee.enums[e].value
                    if isBitmask { if v < 64 { options[option] = 1 << v } } else { options[option] = v }
                    if isEnum && v == value { out.enumValues[name] = option }
                }
                out.options[name] = options
            }
            // Unsigned ranges ("zpos", "alpha"); the signed ones are no plane property we set.
            if flags & UInt32(DRM_MODE_PROP_RANGE) != 0, prop.pointee.count_values >= 2, let limits = prop.pointee.values, limits[0] <= limits[1] {
                out.ranges[name] = limits[0]...limits[1]
            }
            drmModeFreeProperty(prop)
        }
        return out
    }

    public func capability(fd: Int32, _ cap: UInt64) -> UInt64? {
        var value: UInt64 = 0
        return drmGetCap(fd, cap, &value) == 0 ? value : nil
    }
    public func isMaster(fd: Int32) -> Bool { drmIsMaster(fd) != 0 }
    public func setMaster(fd: Int32) throws(SystemError) { try check(drmSetMaster(fd), "DRM_IOCTL_SET_MASTER") }
    public func dropMaster(fd: Int32) { _ = drmDropMaster(fd) }

    public func createDumbBuffer(fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws(SystemError) -> DRMDumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0, offset: UInt64 = 0
        try check(drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), UInt32(bitsPerPixel), 0, &handle, &pitch, &size),
                  "DRM_IOCTL_MODE_CREATE_DUMB \(width)x\(height)")
        do {
            try check(drmModeMapDumbBuffer(fd, handle, &offset), "DRM_IOCTL_MODE_MAP_DUMB \(width)x\(height)")
        } catch {
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        return DRMDumbBuffer(handle: handle, pitch: Int(pitch), size: Int(size), mapOffset: offset)
    }
    public func destroyDumbBuffer(fd: Int32, handle: UInt32) { _ = drmModeDestroyDumbBuffer(fd, handle) }

    public func addFramebuffer(fd: Int32, width: Int, height: Int, fourcc: UInt32, handle: UInt32, pitch: Int) throws(SystemError) -> UInt32 {
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (UInt32(pitch), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var id: UInt32 = 0
        let r = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), fourcc,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &id, 0)
                }
            }
        }
        try check(r, "DRM_IOCTL_MODE_ADDFB2 \(width)x\(height)")
        return id
    }
    public func removeFramebuffer(fd: Int32, id: UInt32) { _ = drmModeRmFB(fd, id) }

    public func setCrtc(fd: Int32, crtcId: UInt32, bufferId: UInt32, x: UInt32, y: UInt32, connectorIds: [UInt32], mode: DRMMode?) throws(SystemError) {
        var ids = connectorIds
        var raw = mode?.raw ?? drmModeModeInfo()
        let r = ids.withUnsafeMutableBufferPointer { c in
            withUnsafeMutablePointer(to: &raw) { m in
                drmModeSetCrtc(fd, crtcId, bufferId, x, y, c.isEmpty ? nil : c.baseAddress, Int32(c.count), mode == nil ? nil : m)
            }
        }
        try check(r, "DRM_IOCTL_MODE_SETCRTC crtc \(crtcId) fb \(bufferId)")
    }

    public func pageFlip(fd: Int32, crtcId: UInt32, bufferId: UInt32, userData: UInt64) throws(SystemError) {
        try check(drmModePageFlip(fd, crtcId, bufferId, UInt32(DRM_MODE_PAGE_FLIP_EVENT), UnsafeMutableRawPointer(bitPattern: UInt(userData))),
                  "DRM_IOCTL_MODE_PAGE_FLIP crtc \(crtcId) fb \(bufferId)")
    }

    public func atomicCommit(fd: Int32, _ values: [DRMPropertyValue], flags: UInt32, userData: UInt64) throws(SystemError) {
        guard let req = drmModeAtomicAlloc() else { throw SystemError(errno: ENOMEM, attempt: "drmModeAtomicAlloc") }
        defer { drmModeAtomicFree(req) }
        for v in values where drmModeAtomicAddProperty(req, v.objectId, v.propertyId, v.value) < 0 {
            throw SystemError(errno: ENOMEM, attempt: "drmModeAtomicAddProperty object \(v.objectId)")
        }
        let test = flags & UInt32(DRM_MODE_ATOMIC_TEST_ONLY) != 0
        try check(drmModeAtomicCommit(fd, req, flags, UnsafeMutableRawPointer(bitPattern: UInt(userData))),
                  "DRM_IOCTL_MODE_ATOMIC\(test ? " (TEST_ONLY)" : "")")
    }

    public func setConnectorProperty(fd: Int32, connectorId: UInt32, propertyId: UInt32, value: UInt64) throws(SystemError) {
        try check(drmModeConnectorSetProperty(fd, connectorId, propertyId, value), "DRM_IOCTL_MODE_SETPROPERTY connector \(connectorId)")
    }

    public func createModeBlob(fd: Int32, mode: DRMMode) throws(SystemError) -> UInt32 {
        var raw = mode.raw
        var id: UInt32 = 0
        try check(drmModeCreatePropertyBlob(fd, &raw, MemoryLayout<drmModeModeInfo>.size, &id), "DRM_IOCTL_MODE_CREATEPROPBLOB mode \(mode)")
        return id
    }
    public func destroyBlob(fd: Int32, id: UInt32) { _ = drmModeDestroyPropertyBlob(fd, id) }

    public func setPlaneProperty(fd: Int32, planeId: UInt32, propertyId: UInt32, value: UInt64) throws(SystemError) {
        try check(drmModeObjectSetProperty(fd, planeId, UInt32(DRM_MODE_OBJECT_PLANE), propertyId, value),
                  "DRM_IOCTL_MODE_OBJ_SETPROPERTY plane \(planeId) property \(propertyId)")
    }

    public func disablePlane(fd: Int32, planeId: UInt32) throws(SystemError) {
        try check(drmModeSetPlane(fd, planeId, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), "DRM_IOCTL_MODE_SETPLANE plane \(planeId) off")
    }
}
