// Raster: canvas over RAM pixel buffers, anti-aliased shapes, text, PNG, rotate-copy.
import Geometry
