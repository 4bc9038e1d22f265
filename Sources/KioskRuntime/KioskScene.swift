import Diagnostics
import Exhibits
import Geometry
import Platform
import Raster
import Syscalls

/// The kiosk as frame content: the launcher, exhibits, idle and attract (`KioskApp`), drawn
/// by a `SceneRenderer` into the display's back buffer. Sized to the display on `attach`.
public final class KioskScene: FrameContent {
    public private(set) var settings: KioskApp.Settings
    public private(set) var fonts: FontSet
    private var display: (any Display)?
    public let log: Log
    /// The app. Until `attach` it is a stand-in at the settings' size that says nothing
    /// (whatever it would log, the app made for the display logs again); attached, it is
    /// made afresh at the display's size and start time.
    public private(set) var app: KioskApp
    private var renderer: SceneRenderer?
    /// Devices in use, shown by the commissioning screen (the next time it opens).
    public var devices: [String] = [] { didSet { app.devices = devices } }

    public init(settings: KioskApp.Settings, fonts: FontSet, log: Log) {
        self.settings = settings; self.fonts = fonts; self.log = log
        app = KioskApp(settings: settings, fonts: fonts, log: Log(minimum: .error, sink: { _, _ in }))
        // Exhibits make and drop frame-sized buffers (the still layer): dropped, they must
        // leave the process.
        returnFrameSizedBuffersWhenFreed()
    }

    public func attach(to display: any Display, at time: Microseconds) {
        self.display = display
        var s = settings
        s.width = display.screen.portraitWidth
        s.height = display.screen.portraitHeight
        s.millimetresPerPixel = s.millimetresPerPixel ?? display.millimetresPerPixel
        s.panelScreen = display.screen
        if !devices.isEmpty { s.devices = devices }
        app = KioskApp(settings: s, fonts: fonts, log: log, start: time)
        renderer = SceneRenderer(canvas: Canvas(buffer: display.backBuffer), fonts: fonts)
    }

    /// A reloaded configuration: the kiosk starts again with `settings` (and `fonts`), on the
    /// same display, from the launcher or its locked exhibit; the next frame is drawn whole.
    public func reconfigure(settings new: KioskApp.Settings, fonts newFonts: FontSet? = nil) {
        settings = new
        if let newFonts { fonts = newFonts }
        guard let display else { return }
        attach(to: display, at: now)
    }

    public var now: Microseconds { app.now }
    public var visitorCounts: VisitorCounts? { app.visitorCounts }
    public var restartPoint: KioskApp.RestartPoint? { app.restartPoint }
    public var stateText: String? { app.state().serialized() }
    public func takeVisitorEvents(endingVisit: Bool) -> VisitorEvents? { app.takeVisitorEvents(endingVisit: endingVisit) }
    public func displayPower(on: Bool, opening: Bool) {
        app.displayPowerChanged(on: on, opening: opening)
        if on { renderer?.invalidate() }
    }
    public func advance(to time: Microseconds) { app.advance(to: time) }
    public func handle(_ frame: TouchFrame) { app.handle(frame) }
    public func deviceRemoved(_ device: Int, at time: Microseconds) {
        log.info("input removed: device \(device); its touches are cancelled")
        app.deviceRemoved(device, at: time)
    }
    public func inputAdded(_ info: InputDeviceInfo) {
        log.info("input added: \(info.sysname) \"\(info.name)\"\(info.isTouchscreen ? " (touchscreen)" : "")")
    }
    public func motion(gravity: Vec2, altitude: Double?) { app.motion(gravity: gravity, altitude: altitude) }
    public func shake() { app.shake() }
    public func key(_ command: KeyCommand) {}
    public var isAnimating: Bool { app.isAnimating }
    public var nextDeadline: Microseconds? { app.nextDeadline }

    public func render() -> [PixelRect] {
        guard let renderer else { return [] }
        return app.render(with: renderer)
    }

    public var summaryName: String {
        switch app.screen {
        case .launcher: return "launcher"
        case .exhibit(let n): return n
        case .attract(let n): return "launcher (attract: \(n))"
        }
    }
}
