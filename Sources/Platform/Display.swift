import Geometry
import Raster

/// Where frames go: a DRM/KMS scanout or the in-memory virtual panel. Exhibits draw into
/// `backBuffer` (portrait, XRGB8888, cached RAM) and call `present` with what changed; the
/// display copies those rectangles out, turned as `screen.rotation` says, and shows them.
public protocol Display: AnyObject {
    /// A short human name: "DRM card0 DSI-1 800x480@60" or "virtual panel 480x800".
    var name: String { get }
    /// Portrait size and how the picture is turned onto the panel; touch uses the same.
    var screen: ScreenTransform { get }
    /// The portrait back buffer the canvas draws into.
    var backBuffer: PixelBuffer { get }
    /// Shows the frame; `damage` lists the portrait rectangles changed since the last call.
    func present(damage: [PixelRect]) throws
}
