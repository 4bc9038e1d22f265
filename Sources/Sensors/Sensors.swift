// Sensors: accelerometers (IIO, I2C), barometer, filters, shake.
import Geometry
