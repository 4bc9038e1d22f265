// Trace: JSON Lines traces of touches and sensor samples.
import Geometry
