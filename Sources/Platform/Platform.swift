// Platform: displays (DRM/KMS, virtual panel), input (libinput), the main loop.
import Geometry
