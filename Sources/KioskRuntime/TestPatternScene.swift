import Geometry
import Gestures
import Platform
import Raster
import Syscalls

/// The installer's test pattern as frame content: the pattern, a dot under every finger,
/// and a line for every touch change and recognised tap or pinch (the board test reads
/// them: "touch down id=0 x=240.0 y=400.0", "gesture tap x=… y=…").
public final class TestPatternScene: FrameContent {
    private let say: (String) -> Void
    private var pattern = TestPattern(width: 1, height: 1)
    private var damage: [PixelRect] = []
    private var backBuffer: PixelBuffer?
    private let gestures = GestureEnvironment()
    public private(set) var now: Microseconds = 0

    public init(say: @escaping (String) -> Void) {
        self.say = say
        gestures.add(TapGestureRecognizer { tap in
            say("gesture tap x=\(fixed1(tap.location.x)) y=\(fixed1(tap.location.y))")
        })
        gestures.add(PinchGestureRecognizer { pinch in
            guard pinch.state != .changed else { return }
            say("gesture pinch \(pinch.state) scale=\(fixed2(pinch.scale)) x=\(fixed1(pinch.location.x)) y=\(fixed1(pinch.location.y))")
        })
    }

    public func attach(to display: any Display, at time: Microseconds) {
        now = time
        backBuffer = display.backBuffer
        pattern = TestPattern(width: display.screen.portraitWidth, height: display.screen.portraitHeight)
        damage = [display.backBuffer.bounds]
    }

    public func advance(to time: Microseconds) {
        guard time >= now else { return }
        now = time
        gestures.advance(to: time)
    }

    public func handle(_ frame: TouchFrame) {
        gestures.handle(frame)
        for t in frame.events {
            say("touch \(t.phase == .move ? "motion" : t.phase.rawValue) id=\(t.slot) x=\(fixed1(t.position.x)) y=\(fixed1(t.position.y))")
            if let old = pattern.fingers[t.slot] { damage.append(pattern.dotRect(old)) }
            if t.phase == .down || t.phase == .move {
                pattern.fingers[t.slot] = t.position
                damage.append(pattern.dotRect(t.position))
            } else {
                pattern.fingers[t.slot] = nil
            }
        }
        say("touch frame")
    }

    public func inputAdded(_ info: InputDeviceInfo) {
        var caps = ""
        for c in info.capabilities { caps += (caps.isEmpty ? "" : ",") + c.rawValue }
        say("input added id=\(info.id) \(info.sysname) \"\(info.name)\" \(caps)\(info.isTouchscreen ? " touchscreen" : "")")
    }

    public func deviceRemoved(_ device: Int, at time: Microseconds) {
        say("input removed id=\(device)")
        gestures.deviceRemoved(device, at: time)
    }

    public func motion(gravity: Vec2, altitude: Double?) {}
    public func shake() {}
    public func key(_ command: KeyCommand) { say("key \(command)") }
    /// Dots follow fingers: a frame is wanted only while something changed.
    public var isAnimating: Bool { false }
    public var nextDeadline: Microseconds? { gestures.nextDeadline }
    public var summaryName: String { "test pattern" }

    public func render() -> [PixelRect] {
        guard let backBuffer, !damage.isEmpty else { return [] }
        let rects = damage
        damage = []
        for r in rects { pattern.draw(into: backBuffer, clip: r) }
        return rects
    }
}
