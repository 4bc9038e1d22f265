import Diagnostics
import Geometry
import Platform
import Gestures
import Raster
import Trace
import VisitorText

/// Everything an exhibit is handed when it is created. It never sees a file descriptor: touch
/// comes through `gestures`, tilt through `motion(gravity:altitude:)` and `shake()`, time
/// through `advance(to:)`.
public struct ExhibitEnvironment {
    /// Portrait screen size in pixels.
    public var width: Int
    public var height: Int
    /// Exhibits give their sizes for a 480 px wide screen; multiply them by this.
    public var scale: Double { Double(width) / 480 }
    public var fonts: FontSet
    /// This exhibit's own options (its config table [exhibits.NAME]), defaults where unset.
    public var options: ExhibitOptions
    public var log: Log
    /// The moment the exhibit is created (virtual or monotonic µs).
    public var startTime: Microseconds
    /// Where the app draws its home control: exhibits keep their own controls clear of it.
    public var homeControl: Rect?
    /// Every control the app draws over exhibits (the home control, the language buttons).
    public var chrome: [Rect] = []
    /// The part of the screen no control covers: what a visitor plays with is laid out here,
    /// so nothing can pass under the home control or a language button. Below the lowest
    /// of them, with the home control's margin again.
    public var safeArea: Rect {
        let controls = chrome + (homeControl.map { [$0] } ?? [])
        guard let bottom = controls.map({ $0.maxY }).max() else { return Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
        let margin = homeControl?.minY ?? (8 * scale).rounded()
        let top = min(bottom + margin, Double(height) / 2)
        return Rect(x: 0, y: top, width: Double(width), height: Double(height) - top)
    }
    /// The stand's visitor text, in the language a visitor picked.
    public var text: TextBook = TextBook()
    /// The smallest text size (px per em) visitors can read on this panel.
    public var legibleTextSize: Double = ExhibitEnvironment.legibleTextSize(width: 480, height: 800, millimetresPerPixel: nil)

    /// Text smaller than 2.5 mm per em (about 7 pt) is hard to read at arm's length. The
    /// panel's size comes from DRM when it reports one, else it is taken as a 7-inch screen.
    public static let legibleMillimetres = 2.5
    public static func legibleTextSize(width: Int, height: Int, millimetresPerPixel: Double?) -> Double {
        let diagonalPixels = (Double(width * width + height * height)).squareRoot()
        let mmPerPixel = millimetresPerPixel ?? (7 * 25.4 / max(1, diagonalPixels))
        return (legibleMillimetres / max(0.01, mmPerPixel)).rounded(.up)
    }
    /// The devices in use, one line each ("display: …", "touch: …", "tilt: …"), for the
    /// commissioning screen.
    public var devices: [String] = []
    /// How touch meets the picture on this panel (rotation, calibration): the calibration
    /// screen fits its result through it; nil off a display (tests, previews).
    public var touchPanel: TouchPanel? = nil
    /// Opens another screen in the app (the commissioning screen's way to the calibration
    /// screen); nil where no app runs the exhibit (tests, previews, `motionkiosk calibrate`).
    public var openScreen: ((ExhibitType) -> Void)? = nil

    public init(width: Int, height: Int, fonts: FontSet, options: ExhibitOptions = .init(), log: Log,
                startTime: Microseconds = 0, homeControl: Rect? = nil) {
        self.width = width; self.height = height; self.fonts = fonts; self.options = options
        self.log = log; self.startTime = startTime; self.homeControl = homeControl
    }
}

/// An item as the state dump shows it: centre in portrait pixels, rotation clockwise.
public struct ItemState: Sendable {
    public var id: Int
    public var shape: String  // "circle" | "square"
    public var center: Vec2
    public var width: Double
    public var height: Double
    public var rotation: Double
    public var color: Color
    public init(id: Int, shape: String, center: Vec2, width: Double, height: Double, rotation: Double = 0, color: Color) {
        self.id = id; self.shape = shape; self.center = center; self.width = width; self.height = height
        self.rotation = rotation; self.color = color
    }
}

/// An on-screen control as the state dump shows it.
public struct ControlState: Sendable {
    public var id: String
    public var frame: Rect
    public var selected: Bool
    public init(id: String, frame: Rect, selected: Bool = false) { self.id = id; self.frame = frame; self.selected = selected }
}

public struct ExhibitState: Sendable {
    public var background: Color
    public var items: [ItemState]
    public var controls: [ControlState]
    /// Exhibit-specific keys, in order (circle-draw "mode", grid-block "block", …).
    public var extras: [(String, JSONValue)]
    public init(background: Color, items: [ItemState] = [], controls: [ControlState] = [], extras: [(String, JSONValue)] = []) {
        self.background = background; self.items = items; self.controls = controls; self.extras = extras
    }
}

/// One exhibit. The kiosk creates a fresh instance to reset it.
///
/// Its gesture actions capture it `unowned(unsafe)` (Embedded Swift has no weak or unowned
/// references): the `GestureEnvironment` it is given is made for it alone and let go together
/// with it, so no recognizer can call into an exhibit that is gone.
public protocol Exhibit: AnyObject, SendableMetatype {
    /// Everything the kiosk knows about this exhibit before one exists: its name, tile,
    /// text keys, options, demo and bench scene. `ExhibitRegistry.all` lists the exhibits.
    static var profile: ExhibitProfile { get }

    /// Sets up the exhibit's recognizers in `gestures`; `random` is its own seeded stream.
    init(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator)

    /// Tilt for this moment: gravity in the screen plane in UIKit units (upright = (0, 1),
    /// magnitude 1 = 1 g), and altitude in metres relative to start when a barometer exists.
    func motion(gravity: Vec2, altitude: Double?)
    /// One shake of the stand (already debounced: one shake, one call).
    func shake()
    /// Every touch frame before the gesture recognizers see it (the commissioning screen
    /// draws a dot under every finger); most exhibits ignore it.
    func touches(_ frame: TouchFrame)
    /// Moves the exhibit's own time (physics, ticks) forward to `time`.
    func advance(to time: Microseconds)
    /// True while something moves: the kiosk keeps drawing frames. False lets it sleep.
    var isAnimating: Bool { get }
    /// A moment the exhibit must be woken at even if nothing happens (a tick), if any.
    var nextDeadline: Microseconds? { get }
    /// The frame: background colour, and the display list in drawing order.
    func draw(into list: inout [DrawCommand]) -> Color
    /// The state dump (replay checkpoints, bug reports).
    func state() -> ExhibitState
    /// Whether a tap anywhere does something (adds a shape, starts the block): the kiosk
    /// then marks each finger from touch-down, before the tap is recognised on lifting.
    var actsOnTapsAnywhere: Bool { get }
}

public extension Exhibit {
    var actsOnTapsAnywhere: Bool { false }
    func shake() {}
    func touches(_ frame: TouchFrame) {}
    var nextDeadline: Microseconds? { nil }

    /// This exhibit as a value: what settings, replay and the registry carry.
    static var exhibitType: ExhibitType { ExhibitType(Self.self) }
}
