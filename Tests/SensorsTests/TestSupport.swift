import Foundation
import SystemFakes
import Diagnostics
import Geometry
import Syscalls
@testable import Sensors

/// Lines a log said, for assertions.
final class LogLines {
    var lines: [String] = []
    func log(clock: Clock, interval: Microseconds = 5_000_000) -> RateLimitedLog {
        RateLimitedLog(clock: clock, interval: interval, sink: { self.lines.append($0) })
    }
}

func near(_ a: Vec3, _ b: Vec3, _ tolerance: Double = 1e-9) -> Bool { (a - b).length <= tolerance }
func near(_ a: Vec2, _ b: Vec2, _ tolerance: Double = 1e-9) -> Bool { (a - b).length <= tolerance }

/// A configuration pointing at a temp tree: sysfs at root/sys, /dev at root/dev.
func configuration(_ tree: TempTree) -> MotionSensorConfiguration {
    var c = MotionSensorConfiguration()
    c.iioPaths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
    c.i2cDevRoot = tree.path("dev")
    tree.mkdir("sys")
    tree.mkdir("dev")
    return c
}

/// Little-endian bytes of one LIS3DH-style buffered scan: three le:s12/16>>4 channels and a
/// 64-bit timestamp at offset 8.
func lis3dhScan(_ x: Int16, _ y: Int16, _ z: Int16, timestampNanoseconds: Int64) -> [UInt8] {
    var b: [UInt8] = []
    for v in [x, y, z] {
        let w = UInt16(bitPattern: v << 4) | 0x000A  // low nibble: garbage the shift drops
        b += [UInt8(w & 0xFF), UInt8(w >> 8)]
    }
    b += [0, 0]  // pad to the timestamp's 8-byte alignment
    let t = UInt64(bitPattern: timestampNanoseconds)
    for i in 0..<8 { b.append(UInt8((t >> (8 * UInt64(i))) & 0xFF)) }
    return b
}

/// The kernel's LIS3DH scale at ±2 g as sysfs prints it (IIO_VAL_INT_PLUS_MICRO).
let lis3dhKernelScale = 0.009806
