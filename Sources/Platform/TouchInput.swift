import Geometry
import Syscalls

/// What keys mean to the kiosk: arrows tilt (bench setups without an accelerometer), Escape leaves.
public enum KeyCommand: Sendable, Equatable, CustomStringConvertible {
    case tiltLeft, tiltRight, tiltUp, tiltDown, leave

    /// The case's name, spelled out: Embedded Swift cannot print an enum by reflection.
    public var description: String {
        switch self {
        case .tiltLeft: "tiltLeft"
        case .tiltRight: "tiltRight"
        case .tiltUp: "tiltUp"
        case .tiltDown: "tiltDown"
        case .leave: "leave"
        }
    }
}

public struct KeyEvent: Equatable, Sendable {
    public var code: UInt32
    public var pressed: Bool
    public var command: KeyCommand?
    public var time: Microseconds
}

public enum InputEvent: Equatable, Sendable {
    /// The changes of one touch frame (libinput's TOUCH_FRAME), delivered together.
    case touches(TouchFrame)
    case key(KeyEvent)
    case deviceAdded(InputDeviceInfo)
    case deviceRemoved(device: Int)
    /// An input device node the kiosk may not open: the user lacks the 'input' group.
    case permissionDenied(path: String)

    /// The plain message for `.permissionDenied`.
    public static func permissionMessage(_ path: String) -> String {
        "\(path): permission denied. The user needs to be in the 'input' group (sudo usermod -aG input $USER, then log in again), or run as root."
    }
}

/// Turns libinput's panel-space events into portrait touch events through the one
/// `ScreenTransform` the display uses, so touch lines up with the picture in every rotation.
/// A mouse acts as one finger (left button down = touching). Touches still down on a device
/// that goes away are cancelled.
public struct TouchTranslator: Sendable {
    public var screen: ScreenTransform
    /// The panel's mounting and calibration, applied to touches before `screen`.
    public var calibration = TouchCalibration.identity
    /// Whether a mouse acts as a finger; off, a mouse a visitor plugs in does nothing.
    public var mouseIsFinger = true
    /// Touch id of the mouse finger (libinput seat slots are small non-negative numbers).
    public static let mouseTouchId = 1_000_000

    private var down: [Int: (device: Int, point: Vec2)] = [:]
    private var frame: [TouchEvent] = []
    private var cursor: Vec2
    private var mouseDevice: Int?
    /// The latest event time seen: cancellations on unplug carry it (removal has no time).
    private var lastTime: Microseconds = 0

    public init(screen: ScreenTransform) {
        self.screen = screen
        cursor = Vec2(Double(screen.portraitWidth) / 2, Double(screen.portraitHeight) / 2)
    }

    /// Touches currently down, by id.
    public var activeTouchIds: [Int] { down.keys.sorted() }

    public mutating func translate(_ raw: RawInputEvent) -> [InputEvent] {
        if let t = raw.time { lastTime = max(lastTime, Microseconds(clamping: t)) }
        if !mouseIsFinger {
            switch raw {
            case .pointerMotion, .pointerAbsolute, .pointerButton: return []
            default: break
            }
        }
        switch raw {
        case .deviceAdded(let info):
            return [.deviceAdded(info)]
        case .deviceRemoved(let device):
            var out: [InputEvent] = []
            frame.removeAll { $0.device == device }
            let cancels = down.filter { $0.value.device == device }.sorted { $0.key < $1.key }.map {
                TouchEvent(slot: $0.key, phase: .cancel, position: $0.value.point, time: lastTime, device: device)
            }
            for c in cancels { down[c.slot] = nil }
            if !cancels.isEmpty { out.append(.touches(TouchFrame(cancels))) }
            if mouseDevice == device { mouseDevice = nil }
            out.append(.deviceRemoved(device: device))
            return out
        case .touchDown(let device, let slot, let x, let y, let time):
            let p = portraitTouch(x, y)
            down[Int(slot)] = (device, p)
            frame.append(TouchEvent(slot: Int(slot), phase: .down, position: p, time: Microseconds(clamping: time), device: device))
            return []
        case .touchMotion(let device, let slot, let x, let y, let time):
            let p = portraitTouch(x, y)
            guard down[Int(slot)] != nil else { return [] }
            down[Int(slot)] = (device, p)
            frame.append(TouchEvent(slot: Int(slot), phase: .move, position: p, time: Microseconds(clamping: time), device: device))
            return []
        case .touchUp(let device, let slot, let time), .touchCancel(let device, let slot, let time):
            guard let last = down.removeValue(forKey: Int(slot)) else { return [] }
            let phase: TouchPhase
            if case .touchUp = raw { phase = .up } else { phase = .cancel }
            frame.append(TouchEvent(slot: Int(slot), phase: phase, position: last.point, time: Microseconds(clamping: time), device: device))
            return []
        case .touchFrame:
            if frame.isEmpty { return [] }
            defer { frame = [] }
            return [.touches(TouchFrame(frame))]
        case .pointerMotion(let device, let dx, let dy, let time):
            // Relative motion moves the cursor as the user sees the picture: portrait axes.
            cursor = clamp(Vec2(cursor.x + dx, cursor.y + dy))
            return mouseMoved(device: device, time: time)
        case .pointerAbsolute(let device, let x, let y, let time):
            cursor = clamp(portrait(x, y))
            return mouseMoved(device: device, time: time)
        case .pointerButton(let device, let button, let pressed, let time):
            let left: UInt32 = 0x110 // BTN_LEFT
            guard button == left else { return [] }
            let id = Self.mouseTouchId
            if pressed, down[id] == nil {
                down[id] = (device, cursor)
                mouseDevice = device
                return [.touches(TouchFrame([TouchEvent(slot: id, phase: .down, position: cursor, time: Microseconds(clamping: time), device: device)]))]
            }
            if !pressed, down.removeValue(forKey: id) != nil {
                mouseDevice = nil
                return [.touches(TouchFrame([TouchEvent(slot: id, phase: .up, position: cursor, time: Microseconds(clamping: time), device: device)]))]
            }
            return []
        case .key(_, let code, let pressed, let time):
            return [.key(KeyEvent(code: code, pressed: pressed, command: Self.command(code), time: Microseconds(clamping: time)))]
        }
    }

    static func command(_ code: UInt32) -> KeyCommand? {
        switch code {
        case 1: return .leave        // KEY_ESC
        case 103: return .tiltUp     // KEY_UP
        case 105: return .tiltLeft   // KEY_LEFT
        case 106: return .tiltRight  // KEY_RIGHT
        case 108: return .tiltDown   // KEY_DOWN
        default: return nil
        }
    }

    private mutating func mouseMoved(device: Int, time: UInt64) -> [InputEvent] {
        let id = Self.mouseTouchId
        guard down[id] != nil else { return [] }
        down[id] = (device, cursor)
        return [.touches(TouchFrame([TouchEvent(slot: id, phase: .move, position: cursor, time: Microseconds(clamping: time), device: device)]))]
    }

    private func portrait(_ x: Double, _ y: Double) -> Vec2 { screen.portraitPoint(fromPanel: Vec2(x, y)) }

    /// A touch panel's point: put right by `calibration` (after libinput), then turned.
    private func portraitTouch(_ x: Double, _ y: Double) -> Vec2 {
        let q = calibration.apply(panel: Vec2(x, y), width: screen.panelWidth, height: screen.panelHeight)
        return screen.portraitPoint(fromPanel: q)
    }

    private func clamp(_ p: Vec2) -> Vec2 {
        Vec2(min(max(p.x, 0), Double(screen.portraitWidth - 1)), min(max(p.y, 0), Double(screen.portraitHeight - 1)))
    }
}

extension RawInputEvent {
    /// The kernel's event time, µs (nil for device notifications).
    var time: UInt64? {
        switch self {
        case .deviceAdded, .deviceRemoved: return nil
        case .touchDown(_, _, _, _, let t), .touchMotion(_, _, _, _, let t), .touchUp(_, _, let t), .touchCancel(_, _, let t),
             .touchFrame(_, let t), .pointerMotion(_, _, _, let t), .pointerAbsolute(_, _, _, let t),
             .pointerButton(_, _, _, let t), .key(_, _, _, let t):
            return t
        }
    }
}

/// libinput for the frame loop: `dispatch` reads what is queued (the loop calls it when
/// `source.fd` is readable, and at every wake-up so input is never left behind a deadline)
/// and hands translated events to `handler`.
public final class TouchInput {
    public let source: any InputEventSource
    public private(set) var translator: TouchTranslator
    private let handler: (InputEvent) -> Void
    private var deniedReported = 0

    /// Devices present at start are announced on the first `dispatch`.
    public init(source: any InputEventSource, screen: ScreenTransform, mouseIsFinger: Bool = true,
                calibration: TouchCalibration = .identity, handler: @escaping (InputEvent) -> Void) {
        self.source = source
        translator = TouchTranslator(screen: screen)
        translator.mouseIsFinger = mouseIsFinger
        translator.calibration = calibration
        self.handler = handler
    }

    public func dispatch() {
        let screen = translator.screen
        for raw in source.readEvents(panelWidth: screen.panelWidth, panelHeight: screen.panelHeight) {
            for e in translator.translate(raw) { handler(e) }
        }
        let denied = source.deniedDevices
        for path in denied.dropFirst(deniedReported) { handler(.permissionDenied(path: path)) }
        deniedReported = denied.count
    }
}
