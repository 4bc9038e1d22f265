import Diagnostics
import Exhibits
import Geometry
import Gestures
import Platform
import Raster
import Syscalls

/// `motionkiosk calibrate` as frame content: the calibration screen alone, fitted through
/// the panel's present calibration; `fitted` hears each result (a new one after each round).
public final class CalibrationScene: FrameContent {
    private let fonts: FontSet
    private let log: Log
    private let calibration: TouchCalibration
    private let fitted: (TouchCalibration) -> Void
    private var screen: Calibration?
    private var gestures = GestureEnvironment()
    private var renderer: SceneRenderer?
    private var commands: [DrawCommand] = []
    private var reported: TouchCalibration?
    public private(set) var now: Microseconds = 0

    public init(fonts: FontSet, log: Log, calibration: TouchCalibration, fitted: @escaping (TouchCalibration) -> Void) {
        self.fonts = fonts; self.log = log; self.calibration = calibration; self.fitted = fitted
    }

    public func attach(to display: any Display, at time: Microseconds) {
        now = time
        gestures = GestureEnvironment()
        var environment = ExhibitEnvironment(width: display.screen.portraitWidth, height: display.screen.portraitHeight, fonts: fonts,
                                             log: log, startTime: time)
        environment.touchPanel = TouchPanel(screen: display.screen, calibration: calibration)
        screen = Calibration(environment: environment, gestures: gestures, random: SeededGenerator(seed: 1))
        renderer = SceneRenderer(canvas: Canvas(buffer: display.backBuffer), fonts: fonts)
    }

    public func advance(to time: Microseconds) {
        guard time >= now else { return }
        now = time
        gestures.advance(to: time)
    }

    public func handle(_ frame: TouchFrame) {
        screen?.touches(frame)
        gestures.handle(frame)
        if let result = screen?.result, result != reported {
            reported = result
            fitted(result)
        }
        if screen?.result == nil { reported = nil }
    }

    public func inputAdded(_ info: InputDeviceInfo) {}
    public func deviceRemoved(_ device: Int, at time: Microseconds) { gestures.deviceRemoved(device, at: time) }
    public func motion(gravity: Vec2, altitude: Double?) {}
    public func shake() {}
    public func key(_ command: KeyCommand) {}
    public var isAnimating: Bool { false }
    public var nextDeadline: Microseconds? { gestures.nextDeadline }
    public var summaryName: String { Calibration.profile.name }
    /// The portrait targets asked for, once shown.
    public var targets: [Vec2] { screen?.targets ?? [] }

    public func render() -> [PixelRect] {
        guard let screen, let renderer else { return [] }
        commands.removeAll(keepingCapacity: true)
        let background = screen.draw(into: &commands)
        return renderer.render(background: background, commands: commands)
    }

    public func displayPower(on: Bool, opening: Bool) { if on { renderer?.invalidate() } }
}
