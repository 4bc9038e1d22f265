import CFrameMarker
import Exhibits
import Geometry
import Platform
import Raster

/// An app drawn as the kiosk draws it: a frame at each 60 Hz moment while something moves,
/// and none at rest until the next touch or deadline. The damage goes through a
/// SceneRenderer into a VirtualPanel turned as asked. Scenes are built on it by touches at
/// their times, so the renderer's caches (the still layer) are as warm when the measured
/// frames start as on a stand where a visitor built the same scene.
final class BenchStage {
    let app: KioskApp
    let renderer: SceneRenderer
    let panel: VirtualPanel
    /// The next 60 Hz moment a frame may be drawn at (its number).
    private var nextMoment = 0
    /// Frames drawn so far.
    private(set) var frames = 0
    /// Whether each frame is followed by the frame marker (board/cross/frame-counts.c).
    var marksFrames = false

    init(app: KioskApp, fonts: FontSet, width: Int, height: Int, rotation: PanelRotation) {
        self.app = app
        panel = VirtualPanel(screen: ScreenTransform(portraitWidth: width, portraitHeight: height, rotation: rotation))
        renderer = SceneRenderer(canvas: Canvas(buffer: panel.backBuffer), fonts: fonts)
    }

    static func moment(_ k: Int) -> Microseconds { Microseconds(k) * 1_000_000 / 60 }

    /// `--size WxH`'s value, each side 64…8192; nil otherwise.
    static func panelSize(_ value: String?) -> (width: Int, height: Int)? {
        let parts = value?.split(separator: "x").compactMap { Int($0) } ?? []
        guard parts.count == 2, (64...8192).contains(parts[0]), (64...8192).contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }
    static let sizeProblem = "--size needs WxH, each side 64…8192, e.g. 480x800"

    /// `--rotation`'s value: 0, 90, 180 or 270; nil otherwise.
    static func rotation(_ value: String?) -> PanelRotation? { value.flatMap { Int($0) }.flatMap { PanelRotation(rawValue: $0) } }
    static let rotationProblem = "--rotation needs 0, 90, 180 or 270"

    /// The time of the next moment a frame may be drawn at.
    var nextFrameTime: Microseconds { BenchStage.moment(nextMoment) }

    /// Advances the app to `time` and draws that frame.
    func drawFrame(at time: Microseconds) {
        app.advance(to: time)
        let damage = app.render(with: renderer)
        if !damage.isEmpty { try? panel.present(damage: damage) }
        if marksFrames { motionkiosk_frame_marker() }
        frames += 1
    }

    /// Draws the frame of the next moment (whether or not anything moves).
    func drawNextFrame() {
        drawFrame(at: nextFrameTime)
        nextMoment += 1
    }

    /// Draws the frame of the next moment and moves on to the one after (or, at rest, to the
    /// first at or after `wake` or the app's next deadline, whichever is sooner).
    func drawNextFrame(restingUntil wake: Microseconds?) {
        drawNextFrame()
        guard !app.isAnimating else { return }
        var until = wake
        if let due = app.nextDeadline { until = until.map { min($0, due) } ?? due }
        if let until, until > nextFrameTime { skipTo(until) }
    }

    /// Draws the kiosk's frames before `time`, then brings the app to it (a frame due at that
    /// very moment comes next: the loop reads input before it draws).
    func run(until time: Microseconds) {
        while nextFrameTime < time { drawNextFrame(restingUntil: time) }
        app.advance(to: time)
    }

    /// Like `run(until:)`, and the next frame is the first after `time`, so that it shows
    /// what changed since.
    func run(through time: Microseconds) {
        run(until: time)
        skipTo(time + 1)
    }

    /// The kiosk's frames up to the touch, then the touch.
    func handle(_ touch: TouchFrame) {
        run(until: touch.time)
        app.handle(touch)
    }

    /// The next frame is drawn at the first moment at or after `time` (not sooner).
    func skipTo(_ time: Microseconds) {
        var k = Int(time * 60 / 1_000_000)
        while BenchStage.moment(k) < time { k += 1 }
        nextMoment = max(nextMoment, k)
    }
}
