/// A 2-D vector or point in portrait screen space: x right, y down, in pixels.
public struct Vec2: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Vec2(0, 0)

    @inlinable public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inlinable public static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    @inlinable public static func * (a: Vec2, s: Double) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Vec2) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inlinable public static func / (a: Vec2, s: Double) -> Vec2 { Vec2(a.x / s, a.y / s) }
    @inlinable public static func += (a: inout Vec2, b: Vec2) { a.x += b.x; a.y += b.y }
    @inlinable public static func -= (a: inout Vec2, b: Vec2) { a.x -= b.x; a.y -= b.y }
    @inlinable public static func *= (a: inout Vec2, s: Double) { a.x *= s; a.y *= s }

    @inlinable public func dot(_ b: Vec2) -> Double { x * b.x + y * b.y }
    /// z of the 3-D cross product; positive when `b` is clockwise from `self` on screen (y down).
    @inlinable public func cross(_ b: Vec2) -> Double { x * b.y - y * b.x }
    @inlinable public var lengthSquared: Double { x * x + y * y }
    @inlinable public var length: Double { lengthSquared.squareRoot() }
    @inlinable public var normalized: Vec2 {
        let l = length
        return l > 0 ? self / l : .zero
    }
    /// Perpendicular turned a quarter turn clockwise on screen (y down).
    @inlinable public var perpendicular: Vec2 { Vec2(-y, x) }
    /// Rotated by `angle` radians, positive = clockwise on screen (UIKit's sense with y down).
    @inlinable public func rotated(by angle: Double) -> Vec2 {
        let (s, c) = portableSinCos(angle)
        return Vec2(c * x - s * y, s * x + c * y)
    }
    @inlinable public func distance(to b: Vec2) -> Double { (self - b).length }
    /// A vector `length` long pointing `angle` radians clockwise from +x on screen.
    @inlinable public init(angle: Double, length: Double) { self.init(_cos(angle) * length, _sin(angle) * length) }
    /// Radians clockwise from +x on screen (y down).
    @inlinable public var angle: Double { atan2d(y, x) }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    public var description: String { "(\(x), \(y))" }
}

public typealias Point = Vec2
