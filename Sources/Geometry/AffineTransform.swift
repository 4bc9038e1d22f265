/// A 2-D affine map p' = (a·x + c·y + tx, b·x + d·y + ty), UIKit's CGAffineTransform layout.
/// Rotation angles are radians, positive = clockwise on screen (y down).
public struct AffineTransform: Hashable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }
    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }
    public static func rotation(_ angle: Double) -> AffineTransform {
        let (si, co) = portableSinCos(angle)
        return AffineTransform(a: co, b: si, c: -si, d: co, tx: 0, ty: 0)
    }

    /// `self` applied first, then `next`.
    public func then(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * next.a + b * next.c, b: a * next.b + b * next.d,
                        c: c * next.a + d * next.c, d: c * next.b + d * next.d,
                        tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }
    public func translated(_ x: Double, _ y: Double) -> AffineTransform { then(.translation(x, y)) }
    public func rotated(_ angle: Double) -> AffineTransform { then(.rotation(angle)) }
    public func scaled(_ sx: Double, _ sy: Double) -> AffineTransform { then(.scale(sx, sy)) }

    @inlinable public func apply(_ p: Vec2) -> Vec2 {
        Vec2(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }
    public var determinant: Double { a * d - b * c }
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id,
                               tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
}
