// sin, cos and atan2 from + − × ÷ alone. The C library's differ in the last bit between
// CPUs (glibc picks fused multiply-add code where the CPU has it: x86_64 with FMA and
// aarch64 agree, armv7 does not), and a last bit is enough for a pile of bodies to part
// ways after a few hundred steps. Swift never fuses a multiply and an add by itself, so
// these give the same bits everywhere. Within a few units in the last place.

/// π/2 in three parts (the first with 33 significant bits, so k·part is exact for |k| < 2²⁰).
@usableFromInline let halfPiHigh = 1.57079632673412561417e+00
@usableFromInline let halfPiMiddle = 6.07710050630396597660e-11
@usableFromInline let halfPiLow = 2.02226624871116645580e-21

/// sin and cos on [−π/4, π/4]: minimax polynomials in r².
@inlinable func sinOnQuarter(_ r: Double) -> Double {
    let z = r * r
    let p = -1.66666666666666324348e-01 + z * (8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
        + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10))))
    return r + r * z * p
}

@inlinable func cosOnQuarter(_ r: Double) -> Double {
    let z = r * r
    let p = 4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * (2.48015872894767294178e-05
        + z * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11))))
    let half = 0.5 * z
    let w = 1.0 - half
    // The rounding lost in 1 − z/2, added back (keeps the error near one ulp for r near π/4).
    return w + (((1.0 - w) - half) + z * z * p)
}

/// Both at once (the solver wants both for every rotation).
@inlinable public func portableSinCos(_ x: Double) -> (sin: Double, cos: Double) {
    guard x.isFinite else { return (.nan, .nan) }
    if abs(x) <= 0.7853981633974483 { return (sinOnQuarter(x), cosOnQuarter(x)) }
    // Beyond a million radians the three-part reduction loses its exactness: take the
    // (exact) remainder by the double nearest 2π first. Such angles mean little anyway.
    let x = abs(x) < 1e6 ? x : x.truncatingRemainder(dividingBy: 6.283185307179586)
    let k = (x * 0.63661977236758134308).rounded()
    let r = ((x - k * halfPiHigh) - k * halfPiMiddle) - k * halfPiLow
    let s = sinOnQuarter(r), c = cosOnQuarter(r)
    switch Int(k) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}

/// atan on [0, 1], by reduction to |t| ≤ tan(π/12) and the alternating series there.
@inlinable func atanOnUnit(_ t: Double) -> Double {
    var u = t, offset = 0.0
    if u > 0.2679491924311227 {   // tan(π/12)
        let root3 = 1.7320508075688772
        u = (u * root3 - 1.0) / (u + root3)
        offset = 0.5235987755982988   // π/6
    }
    let z = u * u
    // Σ (−1)ⁿ u^(2n+1)/(2n+1) to n = 15: the next term is below 1e-18 for |u| ≤ 0.268.
    var sum = -1.0 / 31.0
    var n = 14
    while n >= 0 {
        sum = (n % 2 == 0 ? 1.0 : -1.0) / Double(2 * n + 1) + z * sum
        n -= 1
    }
    return offset + u * sum
}

@inlinable public func portableAtan2(_ y: Double, _ x: Double) -> Double {
    if y.isNaN || x.isNaN { return .nan }
    if y == 0 && x == 0 { return x.sign == .minus ? (y.sign == .minus ? -.pi : .pi) : y }
    let ax = abs(x), ay = abs(y)
    var a: Double
    if ax.isInfinite || ay.isInfinite {
        a = ax.isInfinite ? (ay.isInfinite ? .pi / 4 : 0) : .pi / 2
    } else if ay <= ax {
        a = atanOnUnit(ay / ax)
    } else {
        a = .pi / 2 - atanOnUnit(ax / ay)
    }
    if x < 0 || (x == 0 && x.sign == .minus) { a = .pi - a }
    return y.sign == .minus ? -a : a
}
