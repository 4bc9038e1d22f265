// Gestures: UIKit-style gesture recognizers over the shared touch model (`TouchEvent`,
// `TouchFrame` in Geometry). A `GestureEnvironment` routes frames to recognizers and
// arbitrates as UIKit does.
import Geometry

/// An item an exhibit draws and lets people touch (a shape, a circle, the block); the exhibit
/// chooses the numbers and answers hit tests with them.
public typealias ItemID = Int

/// A finger on the glass from down to up, as the environment sees it. Unlike slot numbers
/// (which libinput reuses), a `TouchID` is never reused, and a finger that lifts and lands
/// again within the debounce time keeps its id.
public typealias TouchID = Int
