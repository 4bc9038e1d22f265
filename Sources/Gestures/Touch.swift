// Gestures: UIKit-style gesture recognizers over the shared touch model (`TouchEvent`,
// `TouchFrame` in Geometry). A `GestureEnvironment` routes frames to recognizers and
// arbitrates as UIKit does.
import Geometry

/// An exhibit's own number for an item it lets people touch (a shape, a ball, the box), as
/// its hit test answers: the exhibit chooses the numbers, the environment only compares them
/// (like a UIKit view's `tag`). Not a physics body handle: exhibits keep their own map from
/// tags to bodies.
public typealias ItemTag = Int

/// A finger on the glass from down to up, as the environment sees it. Unlike slot numbers
/// (which libinput reuses), a `TouchID` is never reused, and a finger that lifts and lands
/// again within the debounce time keeps its id.
public typealias TouchID = Int
