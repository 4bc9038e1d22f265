import Geometry

/// A ball rolling on a tilted board among axis-aligned walls, stepped at a fixed rate.
///
/// Collisions are continuous: each step sweeps the circle along its displacement against every
/// wall (a ray against the wall grown by the radius, with rounded corners), stops it just short
/// of the first hit, takes the normal part out of the velocity (a soft bounce when hit hard) and
/// slides the rest along the wall, at most `maxSweeps` times per step. So no tilt, however
/// violent, and no frame rate can carry the ball through a wall: a position is only ever taken
/// if the swept path to it is clear. A last check refuses any move that would still end inside
/// a wall (it never fires; `refusedMoves` counts it for the tests).
public struct RollingBall: Equatable, Sendable {
    public var position: Vec2
    public var velocity = Vec2.zero
    public let radius: Double
    /// px/s² for a tilt of 1 g (1000 px/s² at 480 px wide, UIKit's unit, scaled with the screen).
    public let unit: Double
    /// Speed limit, px/s: a real ball in a real maze never gets faster than a few cells a second.
    public let maxSpeed: Double
    public private(set) var refusedMoves = 0

    public static let tick: Microseconds = 1_000_000 / 120
    static let dt = Double(tick) / 1_000_000
    /// In g: a tilt below this does not start a resting ball.
    static let staticFriction = 0.02
    static let kineticFriction = 0.01
    /// Velocity damping, 1/s (rolling resistance and air).
    static let damping = 0.8
    /// Share of the normal speed kept when it hits a wall faster than `bounceSpeed` (in radii/s).
    static let restitution = 0.35
    static let bounceSpeed = 6.0
    static let maxSweeps = 4

    public init(position: Vec2, radius: Double, unit: Double, maxSpeed: Double) {
        self.position = position; self.radius = radius; self.unit = unit; self.maxSpeed = maxSpeed
    }

    /// The gap left between ball and wall when a sweep stops it: contacts within twice this
    /// count as touching.
    private var skin: Double { radius * 1e-3 }

    /// One fixed step under `tilt` (g, screen axes). Returns true when the ball is at rest: still,
    /// and what is left of the tilt after the walls it touches take their share is too weak to
    /// start it.
    public mutating func step(tilt: Vec2, walls: [Rect]) -> Bool {
        let dt = RollingBall.dt
        let g = tilt.isFinite ? tilt : .zero
        if velocity.length * dt < skin && freeTilt(g, walls: walls).length <= RollingBall.staticFriction {
            velocity = .zero
            return true
        }
        var v = velocity + g * (unit * dt)
        v = v * (1 / (1 + RollingBall.damping * dt))
        let speed = v.length, friction = RollingBall.kineticFriction * unit * dt
        v = speed <= friction ? .zero : v * ((speed - friction) / speed)
        if v.length > maxSpeed { v = v * (maxSpeed / v.length) }
        if !v.isFinite { v = .zero }

        let start = position
        var p = position
        var d = v * dt
        for _ in 0..<RollingBall.maxSweeps {
            let length = d.length
            if length <= 0 { break }
            guard let hit = RollingBall.firstHit(from: p, by: d, radius: radius, walls: walls) else {
                p = p + d
                break
            }
            let travelled = max(0, hit.t - skin / length)
            p = p + d * travelled
            let vn = v.dot(hit.normal)
            if vn < 0 {
                let bounce = -vn > RollingBall.bounceSpeed * radius ? RollingBall.restitution : 0
                v = v - hit.normal * (vn * (1 + bounce))
            }
            var rest = d * (1 - travelled)
            let rn = rest.dot(hit.normal)
            if rn < 0 { rest = rest - hit.normal * rn }
            d = rest
        }
        if walls.contains(where: { RollingBall.distance(from: p, to: $0) < radius - 1e-6 }) {
            refusedMoves += 1
            p = start
            v = .zero
        }
        position = p
        velocity = v
        return false
    }

    /// The tilt less its parts pressing into walls the ball touches.
    private func freeTilt(_ g: Vec2, walls: [Rect]) -> Vec2 {
        var free = g
        for _ in 0..<2 {
            var changed = false
            for w in walls {
                let closest = RollingBall.closestPoint(to: position, in: w)
                let off = position - closest, dist = off.length
                guard dist > 0, dist <= radius + 2 * skin else { continue }
                let n = off * (1 / dist), into = free.dot(n)
                if into < 0 { free = free - n * into; changed = true }
            }
            if !changed { break }
        }
        return free
    }

    struct Hit { var t: Double; var normal: Vec2 }

    /// The earliest wall the circle at `p` meets moving by `d` (t in 0…1 of `d`).
    static func firstHit(from p: Vec2, by d: Vec2, radius r: Double, walls: [Rect]) -> Hit? {
        var best: Hit? = nil
        let lo = Vec2(min(p.x, p.x + d.x) - r, min(p.y, p.y + d.y) - r)
        let hi = Vec2(max(p.x, p.x + d.x) + r, max(p.y, p.y + d.y) + r)
        for w in walls {
            guard w.maxX >= lo.x, w.minX <= hi.x, w.maxY >= lo.y, w.minY <= hi.y else { continue }
            if let h = sweep(from: p, by: d, radius: r, against: w), h.t < (best?.t ?? .infinity) { best = h }
        }
        return best
    }

    /// Swept circle against a rectangle: the ray from `p` along `d` against the rectangle grown
    /// by `r` with rounded corners. A ball already touching (numerically inside) is stopped at
    /// once if it moves further in, and let go if it moves away.
    static func sweep(from p: Vec2, by d: Vec2, radius r: Double, against box: Rect) -> Hit? {
        let closest = closestPoint(to: p, in: box)
        let off = p - closest, dist = off.length
        if dist <= r {
            let n: Vec2
            if dist > 0 { n = off * (1 / dist) } else {
                // Centre inside the wall (never reached): out through the nearest side.
                let gaps = [(p.x - box.minX, Vec2(-1, 0)), (box.maxX - p.x, Vec2(1, 0)),
                            (p.y - box.minY, Vec2(0, -1)), (box.maxY - p.y, Vec2(0, 1))]
                n = gaps.min(by: { $0.0 < $1.0 })!.1
            }
            return d.dot(n) < 0 ? Hit(t: 0, normal: n) : nil
        }
        // Slabs of the grown rectangle.
        var tEnter = -Double.infinity, tExit = Double.infinity
        var normal = Vec2.zero
        for axis in 0..<2 {
            let pa = axis == 0 ? p.x : p.y, da = axis == 0 ? d.x : d.y
            let minA = (axis == 0 ? box.minX : box.minY) - r, maxA = (axis == 0 ? box.maxX : box.maxY) + r
            if abs(da) < 1e-12 {
                if pa < minA || pa > maxA { return nil }
                continue
            }
            var t0 = (minA - pa) / da, t1 = (maxA - pa) / da
            var n = axis == 0 ? Vec2(-1, 0) : Vec2(0, -1)
            if t0 > t1 { swap(&t0, &t1); n = n * -1 }
            if t0 > tEnter { tEnter = t0; normal = n }
            tExit = min(tExit, t1)
        }
        guard tEnter <= tExit, tExit >= 0, tEnter <= 1 else { return nil }
        // Starting inside the grown rectangle but outside the rounded one: in a corner's square.
        let q = tEnter >= 0 ? p + d * tEnter : p
        let inX = q.x >= box.minX && q.x <= box.maxX, inY = q.y >= box.minY && q.y <= box.maxY
        if tEnter >= 0 && (inX || inY) { return Hit(t: tEnter, normal: normal) }
        let corner = Vec2(q.x < box.minX ? box.minX : box.maxX, q.y < box.minY ? box.minY : box.maxY)
        return sweep(from: p, by: d, radius: r, againstPoint: corner)
    }

    /// Ray from `p` along `d` against the circle of radius `r` about `c`.
    static func sweep(from p: Vec2, by d: Vec2, radius r: Double, againstPoint c: Vec2) -> Hit? {
        let m = p - c
        let a = d.dot(d), b = m.dot(d), k = m.dot(m) - r * r
        guard a > 0, b < 0 else { return nil }
        let disc = b * b - a * k
        guard disc >= 0 else { return nil }
        let t = (-b - disc.squareRoot()) / a
        guard t >= 0, t <= 1 else { return nil }
        let at = p + d * t
        let n = (at - c) * (1 / max(1e-12, (at - c).length))
        return Hit(t: t, normal: n)
    }

    static func closestPoint(to p: Vec2, in box: Rect) -> Vec2 {
        Vec2(min(max(p.x, box.minX), box.maxX), min(max(p.y, box.minY), box.maxY))
    }

    /// Distance from `p` to the rectangle (0 inside it).
    public static func distance(from p: Vec2, to box: Rect) -> Double { (p - closestPoint(to: p, in: box)).length }
}
