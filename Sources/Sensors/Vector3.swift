import Geometry

/// A 3-D vector in m/s² (or unitless), in whichever frame the caller says. Accelerometer
/// samples after mapping are in the screen frame of design.md: x → screen right, y → screen
/// top, z out of the glass.
public struct Vec3: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }

    public static let zero = Vec3(0, 0, 0)

    @inlinable public static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vec3) -> Vec3 { Vec3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vec3, s: Double) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vec3) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inlinable public func dot(_ b: Vec3) -> Double { x * b.x + y * b.y + z * b.z }
    @inlinable public var lengthSquared: Double { x * x + y * y + z * z }
    @inlinable public var length: Double { lengthSquared.squareRoot() }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    public var description: String { "(\(fixed(x, 3)), \(fixed(y, 3)), \(fixed(z, 3)))" }
}

/// Standard gravity, m/s²: the UIKit gravity magnitude 1.0 corresponds to this much tilt.
public let standardGravity = 9.80665

/// A 3×3 matrix, row-major as IIO writes mount matrices ("a, b, c; d, e, f; g, h, i"):
/// `m * v` gives row·v for each row.
public struct Matrix3: Hashable, Sendable, CustomStringConvertible {
    public var rows: (Vec3, Vec3, Vec3)

    public init(_ r0: Vec3, _ r1: Vec3, _ r2: Vec3) { rows = (r0, r1, r2) }
    public init(rows values: [Double]) {
        precondition(values.count == 9)
        self.init(Vec3(values[0], values[1], values[2]), Vec3(values[3], values[4], values[5]),
                  Vec3(values[6], values[7], values[8]))
    }

    public static let identity = Matrix3(Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1))

    public var values: [Double] {
        [rows.0.x, rows.0.y, rows.0.z, rows.1.x, rows.1.y, rows.1.z, rows.2.x, rows.2.y, rows.2.z]
    }
    public var columns: (Vec3, Vec3, Vec3) {
        (Vec3(rows.0.x, rows.1.x, rows.2.x), Vec3(rows.0.y, rows.1.y, rows.2.y), Vec3(rows.0.z, rows.1.z, rows.2.z))
    }
    public var transposed: Matrix3 { let c = columns; return Matrix3(c.0, c.1, c.2) }
    /// Only turns and mirrors (rows of length 1 at right angles, within 1e-3): what a sensor
    /// mount can be. Anything else scales or shears tilt.
    public var isRotationOrMirror: Bool {
        let product = (self * transposed).values
        let identity = Matrix3.identity.values
        for i in 0..<9 where !((product[i] - identity[i]).magnitude <= 1e-3) { return false }
        return true
    }
    public var determinant: Double {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    @inlinable public static func * (m: Matrix3, v: Vec3) -> Vec3 {
        Vec3(m.rows.0.dot(v), m.rows.1.dot(v), m.rows.2.dot(v))
    }
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let c = b.columns
        func row(_ r: Vec3) -> Vec3 { Vec3(r.dot(c.0), r.dot(c.1), r.dot(c.2)) }
        return Matrix3(row(a.rows.0), row(a.rows.1), row(a.rows.2))
    }
    public static func == (a: Matrix3, b: Matrix3) -> Bool { a.values == b.values }
    public func hash(into h: inout Hasher) { h.combine(values) }

    /// The inverse, nil when singular.
    public var inverse: Matrix3? {
        let d = determinant
        if abs(d) < 1e-12 || !d.isFinite { return nil }
        let (a, b, c) = rows
        // Rows of the inverse are the cross products of columns … via the adjugate.
        let r0 = Vec3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = Vec3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = Vec3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        return Matrix3(r0 * (1 / d), r1 * (1 / d), r2 * (1 / d))
    }

    /// Parses the IIO text form "a, b, c; d, e, f; g, h, i" (also accepted without commas).
    public init?(iioText: String) {
        let rowsText = iioText.split(separator: ";", omittingEmptySubsequences: false)
        guard rowsText.count == 3 else { return nil }
        var values: [Double] = []
        for row in rowsText {
            let cells = row.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" })
            guard cells.count == 3 else { return nil }
            for cell in cells {
                guard let v = Double(cell), v.isFinite else { return nil }
                values.append(v)
            }
        }
        self.init(rows: values)
    }

    public var description: String {
        let v = values.map { fixed($0, 3) }
        return "\(v[0]), \(v[1]), \(v[2]); \(v[3]), \(v[4]), \(v[5]); \(v[6]), \(v[7]), \(v[8])"
    }
}

/// A number with `digits` decimals, without Foundation's String(format:).
func fixed(_ v: Double, _ digits: Int) -> String {
    if !v.isFinite { return "\(v)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(v) * scale).rounded()
    if scaled >= 9e15 { return "\(v)" }
    let whole = Int64(scaled)
    let p = Int64(scale)
    let intPart = whole / p, frac = whole % p
    var fracText = String(frac)
    while fracText.count < digits { fracText = "0" + fracText }
    let sign = (v < 0 && whole != 0) ? "-" : ""
    return digits == 0 ? "\(sign)\(intPart)" : "\(sign)\(intPart).\(fracText)"
}
