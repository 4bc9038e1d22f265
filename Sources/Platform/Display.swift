import Geometry
import Raster

/// Where frames go: a DRM/KMS scanout or the in-memory virtual panel. Exhibits draw into
/// `backBuffer` (portrait, XRGB8888, cached RAM) and call `present` with what changed; the
/// display copies those rectangles out, turned as `screen.rotation` says, and shows them.
/// The display also owns its pacing: the frame loop asks `frameDecision` before drawing and,
/// where frames complete asynchronously (DRM page flips), watches `flipEventDescriptor`.
public protocol Display: AnyObject {
    /// A short human name: "DRM card0 DSI-1 800x480@60" or "virtual panel 480x800".
    var name: String { get }
    /// Portrait size and how the picture is turned onto the panel; touch uses the same.
    var screen: ScreenTransform { get }
    /// The portrait back buffer the canvas draws into.
    var backBuffer: PixelBuffer { get }
    /// Readable when flip-complete events are queued (call `readFlipEvents`); nil when a
    /// presented frame is shown at once.
    var flipEventDescriptor: Int32? { get }
    /// Frames that reached the screen so far.
    var framesShown: Int { get }
    /// Whether a frame may go out now (see `FramePacing`), by the display's own clock.
    func frameDecision() -> FramePacing.Decision
    /// Shows the frame; `damage` lists the portrait rectangles changed since the last call.
    func present(damage: [PixelRect]) throws(DisplayError)
    /// Consumes queued flip events; returns how many frames reached the screen.
    func readFlipEvents() throws(DisplayError) -> Int
    /// Gives the output back (the console's framebuffer on a DRM card). Idempotent.
    func restore()
    /// What happened on the way that the user may want to know.
    var notes: [String] { get }
}

/// A display failing while frames are shown.
public struct DisplayError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
