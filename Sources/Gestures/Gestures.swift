// Gestures: touch model and UIKit-style gesture recognizers.
import Geometry
