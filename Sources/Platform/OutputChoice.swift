import Geometry
import Raster
import Syscalls

/// How the picture is turned onto the panel: read from the connector, or forced.
public enum OrientationSetting: Equatable, Sendable, CustomStringConvertible {
    /// The connector's "panel orientation" when it says the panel is mounted turned;
    /// otherwise landscape panels are turned to portrait (90°) and portrait panels are not.
    case auto
    case fixed(PanelRotation)

    /// "auto", "0", "90", "180", "270".
    public init?(_ text: String) {
        if text == "auto" { self = .auto; return }
        guard let degrees = Int(text), let r = PanelRotation(rawValue: degrees) else { return nil }
        self = .fixed(r)
    }
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .fixed(let r): return "\(r.rawValue)"
        }
    }
}

/// What the kiosk was told about the display; every field may be left to the defaults.
public struct DRMDisplayConfiguration: Sendable {
    /// "/dev/dri/card1"; nil: the first card udev lists that has a connected display.
    public var cardPath: String?
    /// "DSI-1", "HDMI-A-1", "Virtual-1"; nil: the first connected connector.
    public var connectorName: String?
    /// "800x480" or "800x480@60"; nil: the connector's preferred mode.
    public var mode: String?
    public var orientation: OrientationSetting
    public var format: PixelFormat
    /// Dumb buffers to cycle through: 2 or 3 (fewer when the kernel has no memory for more).
    public var bufferCount: Int
    /// With no `mode` asked for, a preferred mode with more pixels than this is passed over
    /// for the largest mode within it (`chooseMode`); nil: no cap.
    public var maxPixels: Int? = 1920 * 1200
    /// Use atomic commits where the driver has them; false forces SetCrtc + PageFlip.
    public var allowAtomic: Bool

    public init(cardPath: String? = nil, connectorName: String? = nil, mode: String? = nil,
                orientation: OrientationSetting = .auto, format: PixelFormat = .xrgb8888, bufferCount: Int = 2,
                allowAtomic: Bool = true) {
        self.cardPath = cardPath; self.connectorName = connectorName; self.mode = mode
        self.orientation = orientation; self.format = format; self.bufferCount = bufferCount
        self.allowAtomic = allowAtomic
    }
}

/// Connector, mode, CRTC, plane and rotation chosen on one card.
public struct DRMOutputChoice: Sendable {
    public var connector: DRMConnector
    public var mode: DRMMode
    public var crtc: DRMCrtc
    public var crtcIndex: Int
    /// The primary plane for the CRTC; nil on drivers without universal planes.
    public var plane: DRMPlane?
    public var rotation: PanelRotation
    /// The card's other planes that can show on the CRTC (the modeset takes those that do off).
    public var otherPlanes: [DRMPlane] = []
    public var screen: ScreenTransform { ScreenTransform(panelWidth: mode.width, panelHeight: mode.height, rotation: rotation) }
}

/// Why no picture: each case says what to do about it, in plain words.
public enum DisplaySetupError: Error, CustomStringConvertible, Equatable {
    case noCard
    case noConnectedConnector(card: String, connectors: [String])
    case connectorNotFound(card: String, name: String, available: [String])
    case connectorNotConnected(card: String, name: String)
    case modeNotFound(connector: String, requested: String, available: [String])
    case noCrtc(connector: String)
    case formatUnsupported(connector: String, format: PixelFormat)
    case notMaster(card: String)
    /// A render-only GPU (the Pi 4/5's v3d): no connectors, GETRESOURCES unsupported. Its
    /// display card may not have appeared yet.
    case renderOnly(card: String)
    /// The kernel refused even one scanout buffer at this mode (no CMA left on a Pi 0–4).
    case noScanoutMemory(SystemError, mode: String, card: String)
    /// Another motionkiosk drives this card (it holds the card's lock).
    case cardInUse(card: String)
    case permissionDenied(path: String, group: String)
    /// Denied although the process is in the group: a device policy (a systemd unit's
    /// DeviceAllow=, a container) or a driver not ready yet.
    case deniedByPolicy(path: String, group: String)
    case failed(SystemError)

    public var description: String {
        switch self {
        case .noCard:
            return "no DRM display card found (/dev/dri/card* missing: is the display driver loaded?)"
        case .noConnectedConnector(let card, let list):
            return "\(card): no display connected (connectors: \(list.isEmpty ? "none" : list.joined(separator: ", ")))"
        case .connectorNotFound(let card, let name, let list):
            return "\(card): there is no connector \(name); it has \(list.joined(separator: ", "))"
        case .connectorNotConnected(let card, let name):
            return "\(card): connector \(name) has no display connected"
        case .modeNotFound(let connector, let requested, let list):
            return "\(connector) has no mode \(requested); it offers \(list.joined(separator: ", "))"
        case .noCrtc(let connector):
            return "no free display controller (CRTC) can drive \(connector)"
        case .formatUnsupported(let connector, let format):
            return "the primary plane of \(connector) cannot scan out \(format.rawValue); try --format \(format == .rgb565 ? "xrgb8888" : "rgb565")"
        case .cardInUse(let card):
            return "\(card) is in use by another motionkiosk (the service? see systemctl status motionkiosk); stop it first, or give this one --display virtual"
        case .renderOnly(let card):
            return "\(card) is a render-only GPU (no display connectors, like the Pi's v3d); no display card yet"
        case .noScanoutMemory(let error, let mode, let card):
            return "\(card): no memory for a \(mode) scanout buffer (\(error)); on a Pi 0–4 raise the CMA size (dtoverlay=vc4-kms-v3d,cma-512) or choose a smaller [display] mode"
        case .notMaster(let card):
            return "\(card): another program — a desktop? — owns the display (not DRM master). Stop it (systemctl stop display-manager) or switch it off, then start motionkiosk again."
        case .permissionDenied(let path, let group):
            return "\(path): permission denied. The user needs to be in the '\(group)' group (sudo usermod -aG \(group) $USER, then log in again), or run as root."
        case .deniedByPolicy(let path, let group):
            return "\(path): permission denied although this process is in the '\(group)' group: a device policy blocks it (a systemd unit's DeviceAllow=, a container), or the driver was not ready when the service started."
        case .failed(let e):
            return e.description
        }
    }

    /// A failed open of a device node: EACCES/EPERM mean a missing group, unless the process
    /// has the group (then something else denies).
    public static func opening(_ error: SystemError, path: String, group: String = "video",
                               inGroup: (String) -> Bool? = processIsInGroup) -> DisplaySetupError {
        guard error.errno == 13 || error.errno == 1 else { return .failed(error) }
        return inGroup(group) == true ? .deniedByPolicy(path: path, group: group) : .permissionDenied(path: path, group: group)
    }
    /// A failed modeset, flip or buffer: the kernel answers EACCES/EPERM to clients that are
    /// not master; any other failure names the card (an ioctl's name alone does not say which).
    public static func modesetting(_ error: SystemError, card: String) -> DisplaySetupError {
        if error.errno == 13 || error.errno == 1 { return .notMaster(card: card) }
        return .failed(error.attempt.hasPrefix(card) ? error : SystemError(errno: error.errno, attempt: "\(card): \(error.attempt)"))
    }
}

/// The rotation for a connector and mode under a setting (see `OrientationSetting.auto`).
public func panelRotation(_ setting: OrientationSetting, panelOrientation: String?, width: Int, height: Int) -> PanelRotation {
    if case .fixed(let r) = setting { return r }
    switch panelOrientation {
    case "Upside Down": return .r180
    // The panel's native top edge points left: the picture's top goes to the panel's right edge.
    case "Left Side Up": return .r90
    case "Right Side Up": return .r270
    default: return width > height ? .r90 : .r0
    }
}

/// Picks connector, mode, CRTC, primary plane and rotation on `card` as `config` says.
public func chooseOutput(card: DRMCard, config: DRMDisplayConfiguration) throws(DisplaySetupError) -> DRMOutputChoice {
    let summary = card.connectors.map { "\($0.name) (\($0.connection.rawValue))" }
    let connector: DRMConnector
    if let wanted = config.connectorName {
        guard let c = card.connectors.first(where: { $0.name.lowercased() == wanted.lowercased() }) else {
            throw .connectorNotFound(card: card.path, name: wanted, available: summary)
        }
        guard c.connection == .connected, !c.modes.isEmpty else { throw .connectorNotConnected(card: card.path, name: c.name) }
        connector = c
    } else {
        guard let c = card.connectors.first(where: { $0.connection == .connected && !$0.modes.isEmpty }) else {
            throw .noConnectedConnector(card: card.path, connectors: summary)
        }
        connector = c
    }

    let mode: DRMMode
    if let text = config.mode {
        guard let m = findMode(text, in: connector.modes) else {
            throw .modeNotFound(connector: connector.name, requested: text, available: connector.modes.map { $0.description })
        }
        mode = m
    } else {
        mode = chooseMode(connector.modes, maxPixels: config.maxPixels)
    }

    // The CRTC already driving the connector keeps the console's setup; otherwise the first
    // CRTC one of its encoders can use.
    var crtcIndex: Int?
    if let enc = card.encoders.first(where: { $0.id == connector.currentEncoderId }), enc.crtcId != 0 {
        crtcIndex = card.crtcs.firstIndex { $0.id == enc.crtcId }
    }
    if crtcIndex == nil {
        outer: for encId in connector.encoderIds {
            guard let enc = card.encoders.first(where: { $0.id == encId }) else { continue }
            for i in card.crtcs.indices where enc.possibleCrtcs & (1 << UInt32(i)) != 0 {
                crtcIndex = i; break outer
            }
        }
    }
    guard let ci = crtcIndex else { throw .noCrtc(connector: connector.name) }

    var plane: DRMPlane?
    if !card.planes.isEmpty {
        let candidates = card.planes.filter { $0.kind == .primary && $0.possibleCrtcs & (1 << UInt32(ci)) != 0 }
        guard let p = candidates.first(where: { $0.formats.contains(fourcc(config.format)) }) else {
            throw .formatUnsupported(connector: connector.name, format: config.format)
        }
        plane = p
    }
    let rotation = panelRotation(config.orientation, panelOrientation: connector.panelOrientation,
                                 width: mode.width, height: mode.height)
    let others = card.planes.filter { $0.id != plane?.id && $0.possibleCrtcs & (1 << UInt32(ci)) != 0 }
    return DRMOutputChoice(connector: connector, mode: mode, crtc: card.crtcs[ci], crtcIndex: ci, plane: plane, rotation: rotation,
                           otherPlanes: others)
}

/// The preferred mode (else the first), or, when it has more than `maxPixels` pixels, the
/// largest mode within the cap: of the preferred mode's aspect where one is, then the same
/// size at the refresh nearest the preferred one. When every mode is larger, the smallest.
public func chooseMode(_ modes: [DRMMode], maxPixels: Int?) -> DRMMode {
    let preferred = modes.first { $0.isPreferred } ?? modes[0]
    guard let cap = maxPixels, preferred.width * preferred.height > cap else { return preferred }
    let within = modes.filter { $0.width * $0.height <= cap }
    guard !within.isEmpty else { return modes.min { $0.width * $0.height < $1.width * $1.height } ?? preferred }
    func sameAspect(_ m: DRMMode) -> Bool {
        // Within 1 %: 1366x768 is 16:9 as television sets count it.
        let a = m.width * preferred.height, b = m.height * preferred.width
        return abs(a - b) * 100 <= b
    }
    let pool = within.contains(where: sameAspect) ? within.filter(sameAspect) : within
    return pool.min { a, b in
        let pa = a.width * a.height, pb = b.width * b.height
        if pa != pb { return pa > pb }
        return abs(a.refreshMilliHertz - preferred.refreshMilliHertz) < abs(b.refreshMilliHertz - preferred.refreshMilliHertz)
    } ?? preferred
}

/// The next mode down for a kernel short of scanout memory: the largest with fewer pixels
/// than `mode`, of its aspect where one is; nil when none is smaller.
public func smallerMode(than mode: DRMMode, in modes: [DRMMode]) -> DRMMode? {
    let smaller = modes.filter { $0.width * $0.height < mode.width * mode.height }
    guard !smaller.isEmpty else { return nil }
    var m = mode
    m.isPreferred = true
    return chooseMode([m] + smaller, maxPixels: mode.width * mode.height - 1)
}

/// "800x480" or "800x480@60" (refresh rounded to whole hertz).
func findMode(_ text: String, in modes: [DRMMode]) -> DRMMode? {
    let parts = text.lowercased().split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    guard let sizeText = parts.first else { return nil }
    let size = sizeText.split(separator: "x")
    guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]) else { return nil }
    var hz: Int?
    if parts.count > 1 {
        // A refresh from a config or a flag: a number of hertz a panel can have, or no match.
        guard let rate = Double(parts[1]), rate >= 1, rate <= 1000 else { return nil }
        hz = Int(rate.rounded())
    }
    let matching = modes.filter { $0.width == w && $0.height == h }
    if let hz {
        return matching.first { ($0.refreshMilliHertz + 500) / 1000 == hz }
    }
    return matching.first(where: { $0.isPreferred }) ?? matching.first
}

/// DRM fourcc codes of the scanout formats.
public func fourcc(_ format: PixelFormat) -> UInt32 {
    func code(_ s: String) -> UInt32 {
        let b = Array(s.utf8)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }
    switch format {
    case .xrgb8888: return code("XR24")
    case .rgb565: return code("RG16")
    }
}
