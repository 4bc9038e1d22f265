import Geometry
import Raster

/// Where frames go: a DRM/KMS scanout or the in-memory virtual panel. Exhibits draw into
/// `backBuffer` (portrait, XRGB8888, cached RAM) and the presenter calls `present` with what
/// changed; the display copies those rectangles out, turned as `screen.rotation` says, and
/// shows them. When a frame may go out and when it reached the glass is its `flips`' to say.
public protocol Display: AnyObject {
    /// A short human name: "DRM card0 DSI-1 800x480@60" or "virtual panel 480x800".
    var name: String { get }
    /// Portrait size and how the picture is turned onto the panel; touch uses the same.
    var screen: ScreenTransform { get }
    /// The portrait back buffer the canvas draws into.
    var backBuffer: PixelBuffer { get }
    /// Shows the frame; `damage` lists the portrait rectangles changed since the last call.
    func present(damage: [PixelRect]) throws(DisplayError)
    /// Its pacing and flip completions, which the frame loop's presenter drives.
    var flips: any FlipQueue { get }
    /// Turns the panel off (outside opening hours) or back on; frames presented while off
    /// are kept and shown when it comes back.
    func setPower(_ on: Bool) throws(DisplayError)
    var isPoweredOn: Bool { get }
    /// Gives the output back (the console's framebuffer on a DRM card). Idempotent.
    func restore()
    /// What happened on the way that the user may want to know.
    var notes: [String] { get }
    /// The size of a pixel on the glass, when the panel reports its size; nil otherwise.
    var millimetresPerPixel: Double? { get }
}

/// How a display's frames reach the glass: whether one may go out now (its `FramePacing`),
/// the flips in flight and their completion events, the ones given up on.
public protocol FlipQueue: AnyObject {
    /// Readable when flip-complete events are queued (call `readFlipEvents`); nil when a
    /// presented frame is shown at once.
    var flipEventDescriptor: Int32? { get }
    /// Whether a frame may go out now (see `FramePacing`), by the display's own clock; a flip
    /// overdue by then is given up.
    func frameDecision() -> FramePacing.Decision
    /// Consumes queued flip events; returns how many frames reached the screen.
    func readFlipEvents() throws(DisplayError) -> Int
    /// Frames that reached the screen so far, and when the latest did (monotonic µs: the flip
    /// event's timestamp where the kernel gives one, else when `present` returned).
    var framesShown: Int { get }
    var lastShownAt: Microseconds? { get }
    /// Flips given up on because their completion never came (`FramePacing.flipTimeout`).
    var flipsLost: Int { get }
}

public extension Display {
    var millimetresPerPixel: Double? { nil }

    /// A pixel's size from a panel's reported size and mode, or nil when the report is
    /// missing or cannot be a real panel (some monitors give 0, or their aspect ratio in cm).
    static func millimetresPerPixel(widthMillimetres: Int, heightMillimetres: Int, width: Int, height: Int) -> Double? {
        guard widthMillimetres > 0, heightMillimetres > 0, widthMillimetres < 10_000, heightMillimetres < 10_000,
              width > 0, height > 0 else { return nil }
        let horizontal = Double(widthMillimetres) / Double(width), vertical = Double(heightMillimetres) / Double(height)
        // Square pixels within 25 %, and a pitch between a phone's and a large TV's.
        guard max(horizontal, vertical) / min(horizontal, vertical) < 1.25 else { return nil }
        let pitch = (horizontal + vertical) / 2
        return (0.03...1.5).contains(pitch) ? pitch : nil
    }
}

/// A display failing while frames are shown.
public struct DisplayError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
