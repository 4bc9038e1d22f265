#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Every module's math goes through here. Angles use our own functions (PortableTrigonometry:
// the same bits on every CPU); the rest is the C library's, without importing Glibc elsewhere.
@inlinable public func _cos(_ x: Double) -> Double { portableSinCos(x).cos }
@inlinable public func _sin(_ x: Double) -> Double { portableSinCos(x).sin }
@inlinable public func atan2d(_ y: Double, _ x: Double) -> Double { portableAtan2(y, x) }
@inlinable public func expd(_ x: Double) -> Double { exp(x) }
@inlinable public func powd(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inlinable public func clamp<T: Comparable>(_ v: T, _ lo: T, _ hi: T) -> T { min(max(v, lo), hi) }

/// Wraps an angle into (-π, π].
@inlinable public func normalizeAngle(_ a: Double) -> Double {
    var r = a.truncatingRemainder(dividingBy: 2 * .pi)
    if r <= -.pi { r += 2 * .pi } else if r > .pi { r -= 2 * .pi }
    return r
}
