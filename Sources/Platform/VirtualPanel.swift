import Geometry
import Raster

/// A display that lives in memory: for tests, trace replay, and machines with no drivable
/// screen. It keeps its own scanout buffer in the panel's native orientation and fills it
/// with the same `rotateCopy` the DRM display uses, so the whole presentation path runs.
public final class VirtualPanel: Display, FlipQueue {
    public let screen: ScreenTransform
    public let backBuffer: PixelBuffer
    /// The panel-orientation frame, as a DRM scanout would hold it.
    public let scanout: PixelBuffer
    /// Frames presented so far.
    public private(set) var presentedFrames = 0
    public var framesShown: Int { presentedFrames }
    public private(set) var lastShownAt: Microseconds?
    public var flipEventDescriptor: Int32? { nil }
    public var flips: any FlipQueue { self }
    /// Frames are shown as they are presented: none is ever lost.
    public var flipsLost: Int { 0 }
    public var notes: [String] { [] }
    public private(set) var isPoweredOn = true
    /// Times the panel was turned off and on (tests of opening hours read them).
    public private(set) var powerChanges: [Bool] = []
    public func setPower(_ on: Bool) throws(DisplayError) {
        guard on != isPoweredOn else { return }
        isPoweredOn = on
        powerChanges.append(on)
    }
    /// Paces frames like a 60 Hz panel by this clock; nil lets every frame out at once (a
    /// replay draws on its own virtual schedule).
    private let clock: (any Clock)?
    private var pacing = FramePacing(refreshMilliHertz: 60_000)
    /// The damage of the last `present`.
    public private(set) var lastDamage: [PixelRect] = []

    public var name: String {
        "virtual panel \(screen.portraitWidth)x\(screen.portraitHeight) (panel \(screen.panelWidth)x\(screen.panelHeight) \(scanout.format.rawValue), rotated \(screen.rotation))"
    }

    /// A panel showing a `screen.portraitWidth`×`screen.portraitHeight` portrait picture,
    /// scanned out in `scanoutFormat`.
    public init(screen: ScreenTransform, scanoutFormat: PixelFormat = .xrgb8888, clock: (any Clock)? = nil) {
        self.screen = screen
        self.clock = clock
        backBuffer = PixelBuffer(width: screen.portraitWidth, height: screen.portraitHeight, format: .xrgb8888)
        scanout = PixelBuffer(width: screen.panelWidth, height: screen.panelHeight, format: scanoutFormat)
    }

    /// Portrait, unrotated, XRGB8888.
    public convenience init(width: Int = 480, height: Int = 800, clock: (any Clock)? = nil) {
        self.init(screen: ScreenTransform(portraitWidth: width, portraitHeight: height, rotation: .r0), clock: clock)
    }

    public func frameDecision() -> FramePacing.Decision {
        guard let clock else { return .submitNow }
        return pacing.decide(now: clock.now)
    }

    public func readFlipEvents() throws(DisplayError) -> Int { 0 }
    public func restore() {}

    public func present(damage: [PixelRect]) throws(DisplayError) {
        if let clock { pacing.submitted(at: clock.now, awaitingFlip: false) }
        rotateCopy(from: backBuffer, rects: damage, to: scanout.bytes, pitch: scanout.strideBytes,
                   format: scanout.format, transform: screen)
        lastDamage = damage
        presentedFrames += 1
        lastShownAt = clock?.now ?? lastShownAt
    }

    /// Writes the portrait back buffer (what exhibits drew) as a PNG.
    public func writePNG(to path: String) throws(PNGError) {
        try Raster.writePNG(backBuffer, to: path)
    }

    /// Writes the panel-orientation scanout (what the glass would show, turned) as a PNG.
    public func writeScanoutPNG(to path: String) throws(PNGError) {
        try Raster.writePNG(scanout, to: path)
    }
}
