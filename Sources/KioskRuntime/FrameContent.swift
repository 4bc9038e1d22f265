import Exhibits
import Geometry
import Platform
import Syscalls
import Raster

/// What a `FrameLoop` shows and drives: the kiosk (`KioskScene`) or the installer's test
/// pattern (`TestPatternScene`). Pure logic over time, touches and motion; it draws into the
/// display's back buffer when asked and says what changed.
public protocol FrameContent: AnyObject {
    /// Called once, when the display is known: size the content to its portrait screen.
    func attach(to display: any Display, at time: Microseconds)
    /// The content's own time (it never goes back).
    var now: Microseconds { get }
    /// Moves the content to `time`: deadlines, idle, physics.
    func advance(to time: Microseconds)
    /// One frame of touches, at its own time (the loop advanced to it first).
    func handle(_ frame: TouchFrame)
    /// An input device was found (at start or plugged in): say so in the content's words.
    func inputAdded(_ info: InputDeviceInfo)
    /// A touch device went away: its touches end as cancelled.
    func deviceRemoved(_ device: Int, at time: Microseconds)
    /// Filtered gravity (UIKit units, screen space) and altitude changed.
    func motion(gravity: Vec2, altitude: Double?)
    func shake()
    /// A key with a meaning was pressed (the loop already acted on leave and tilt keys).
    func key(_ command: KeyCommand)
    /// True while frames must keep coming.
    var isAnimating: Bool { get }
    /// The next moment the content must wake with no input; nil = none.
    var nextDeadline: Microseconds? { get }
    /// Draws what changed into the back buffer; returns the portrait damage.
    func render() -> [PixelRect]
    /// What a summary line names as shown ("launcher" or an exhibit's name).
    var summaryName: String { get }
    /// Visitors' use of the stand, for the health metrics; nil for the test pattern.
    var visitorCounts: VisitorCounts? { get }
    /// The display went on or off (opening hours); `opening`: the stand opens, start fresh.
    /// The next `render` must draw everything.
    func displayPower(on: Bool, opening: Bool)
    /// Finished visits and converted demos since the last call (`endingVisit`: the one in
    /// progress too); nil: not a kiosk.
    func takeVisitorEvents(endingVisit: Bool) -> VisitorEvents?
    /// The latest moment a replay could start from exactly (the black box starts a segment
    /// there); nil: none, or not a kiosk.
    var restartPoint: KioskApp.RestartPoint? { get }
    /// The state as `replay` writes it (JSON), for a black-box dump; nil: not a kiosk.
    var stateText: String? { get }
}

public extension FrameContent {
    var visitorCounts: VisitorCounts? { nil }
    func displayPower(on: Bool, opening: Bool) {}
    func takeVisitorEvents(endingVisit: Bool) -> VisitorEvents? { nil }
    var restartPoint: KioskApp.RestartPoint? { nil }
    var stateText: String? { nil }
}
