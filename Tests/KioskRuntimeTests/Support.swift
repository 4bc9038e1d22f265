import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Raster
import Syscalls
import SystemFakes

/// A touchscreen whose events the kernel hands over at chosen (virtual) times: each batch
/// carries the kernel's own event times and becomes readable when it is delivered.
final class ScriptedTouchscreen: InputEventSource {
    let fd: Int32
    let events: VirtualEvents
    var deniedDevices: [String] = []
    private var batches: [(delivered: Microseconds, events: [RawInputEvent])] = []

    init(events: VirtualEvents) { self.events = events; fd = events.makeDescriptor() }

    /// A finger `phase` on slot 0 at `point` (panel pixels) that happened at `time` and is
    /// delivered at `delivered` (default: at once).
    func touch(_ phase: TouchPhase, _ point: Vec2, at time: Microseconds, delivered: Microseconds? = nil, slot: Int32 = 0) {
        let t = UInt64(time)
        var raw: [RawInputEvent]
        switch phase {
        case .down: raw = [.touchDown(device: 1, slot: slot, x: point.x, y: point.y, time: t)]
        case .move: raw = [.touchMotion(device: 1, slot: slot, x: point.x, y: point.y, time: t)]
        case .up: raw = [.touchUp(device: 1, slot: slot, time: t)]
        case .cancel: raw = [.touchCancel(device: 1, slot: slot, time: t)]
        }
        raw.append(.touchFrame(device: 1, time: t))
        let at = delivered ?? time
        batches.append((at, raw))
        events.makeReadable(fd, at: at)
    }

    /// A key of a keyboard (evdev code) pressed and released at `time`.
    func key(_ code: UInt32, at time: Microseconds) {
        let t = UInt64(time)
        batches.append((time, [.key(device: 2, code: code, pressed: true, time: t), .key(device: 2, code: code, pressed: false, time: t + 50_000)]))
        events.makeReadable(fd, at: time)
    }

    func readEvents(panelWidth: Int, panelHeight: Int) -> [RawInputEvent] {
        var out: [RawInputEvent] = []
        while let first = batches.first, first.delivered <= events.now {
            out += first.events
            batches.removeFirst()
        }
        if batches.first.map({ $0.delivered > events.now }) ?? true { events.consumed(fd) }
        return out
    }
}

/// Content that animates for a given number of frames and counts what the loop asked.
final class CountingContent: FrameContent {
    var framesLeft: Int
    var renders = 0
    var renderTimes: [Microseconds] = []
    private(set) var now: Microseconds = 0
    private var buffer: PixelBuffer?

    init(animatingFrames: Int) { framesLeft = animatingFrames }

    func attach(to display: any Display, at time: Microseconds) { now = time; buffer = display.backBuffer }
    func advance(to time: Microseconds) { now = max(now, time) }
    func handle(_ frame: TouchFrame) { framesLeft += 10 }
    func inputAdded(_ info: InputDeviceInfo) {}
    func deviceRemoved(_ device: Int, at time: Microseconds) {}
    func motion(gravity: Vec2, altitude: Double?) {}
    func shake() {}
    func key(_ command: KeyCommand) {}
    var isAnimating: Bool { framesLeft > 0 }
    var nextDeadline: Microseconds? { nil }
    var summaryName: String { "counting" }
    func render() -> [PixelRect] {
        guard let buffer, framesLeft > 0 else { return [] }
        framesLeft -= 1
        renders += 1
        renderTimes.append(now)
        return [PixelRect(x: 0, y: 0, width: min(8, buffer.width), height: min(8, buffer.height))]
    }
}

/// A DRM scanout on fake DRM whose flips complete at the next virtual 60 Hz vblank.
func fakeScanout(events: VirtualEvents, atomic: Bool = true, console: Bool = false) throws -> (DumbBufferDisplay, FakeSystem, FakeDRM) {
    let system = FakeSystem()
    system.events = events
    let drm = FakeDRM(card: Cards.virtual(width: 800, height: 480, atomic: atomic))
    drm.onFlip = { fd, data in
        let period: Int64 = 16_667
        system.queueFlipEvent(fd: fd, userData: data, vblank: (events.now / period + 1) * period)
    }
    system.directories["/dev/dri"] = ["card0"]
    let display = try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil,
                                     clock: MonotonicClock(events: events))
    return (display, system, drm)
}

func quietLog() -> Log { Log(minimum: .error, sink: { _, _ in }) }

func quietSettings() -> FrameLoopSettings {
    var s = FrameLoopSettings()
    s.say = { _ in }
    return s
}

/// The centre of the launcher's first tile, from the scene's state (portrait pixels).
func firstTileCentre(_ scene: KioskScene) -> Vec2? {
    guard case .array(let controls)? = scene.app.state()["controls"], case .object(let tile)? = controls.first,
          case .number(let x)? = tile.first(where: { $0.0 == "x" })?.1,
          case .number(let y)? = tile.first(where: { $0.0 == "y" })?.1 else { return nil }
    return Vec2(x, y)
}

/// Content that draws nothing and notes each gravity it is given, with the time.
final class MotionLog: FrameContent {
    private(set) var now: Microseconds = 0
    private(set) var received: [(time: Microseconds, gravity: Vec2)] = []
    var gravities: [Vec2] { received.map { $0.gravity } }
    func attach(to display: any Display, at time: Microseconds) { now = time }
    func advance(to time: Microseconds) { now = max(now, time) }
    func handle(_ frame: TouchFrame) {}
    func inputAdded(_ info: InputDeviceInfo) {}
    func deviceRemoved(_ device: Int, at time: Microseconds) {}
    func motion(gravity: Vec2, altitude: Double?) { received.append((now, gravity)) }
    func shake() {}
    func key(_ command: KeyCommand) {}
    var isAnimating: Bool { false }
    var nextDeadline: Microseconds? { nil }
    var summaryName: String { "motion log" }
    func render() -> [PixelRect] { [] }
    /// Gravities given in [from, to).
    func samples(from: Microseconds, to: Microseconds) -> Int { received.filter { $0.time >= from && $0.time < to }.count }
}
