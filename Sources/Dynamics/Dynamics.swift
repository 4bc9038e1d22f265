// Dynamics: a 2-D rigid-body engine with UIKit Dynamics' vocabulary and units.
import Geometry
