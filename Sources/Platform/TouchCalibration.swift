import Geometry

/// How a touch panel's reports are put right before they meet the picture: the panel's
/// mounting against its display (`[touch] transform`), then a calibration matrix in
/// libinput's convention (`[touch] calibration`), both on normalised panel coordinates
/// (0…1). Applied after libinput (and any LIBINPUT_CALIBRATION_MATRIX udev rule) and before
/// the one `ScreenTransform` that turns panel pixels into portrait ones.
public struct TouchCalibration: Equatable, Sendable {
    /// How the panel is mounted (normalised → normalised).
    public var mounting: AffineTransform
    /// The calibration applied after the mounting (normalised → normalised).
    public var matrix: AffineTransform

    public static let identity = TouchCalibration(mounting: .identity, matrix: .identity)

    public init(mounting: AffineTransform = .identity, matrix: AffineTransform = .identity) {
        self.mounting = mounting; self.matrix = matrix
    }

    /// `transform`: none, rot90, rot180, rot270, flip-x, flip-y; `calibration`: libinput's
    /// six numbers. nil when either is not one.
    public init?(transform: String, calibration: [Double]?) {
        guard let m = Self.mounting(named: transform) else { return nil }
        var c = AffineTransform.identity
        if let calibration {
            guard let parsed = Self.affine(libinput: calibration) else { return nil }
            c = parsed
        }
        self.init(mounting: m, matrix: c)
    }

    public var isIdentity: Bool { mounting == .identity && matrix == .identity }

    /// libinput's documented matrices for a panel turned clockwise or mirrored.
    public static func mounting(named name: String) -> AffineTransform? {
        switch name {
        case "none": return .identity
        case "rot90": return affine(libinput: [0, -1, 1, 1, 0, 0])
        case "rot180": return affine(libinput: [-1, 0, 1, 0, -1, 1])
        case "rot270": return affine(libinput: [0, 1, 0, -1, 0, 1])
        case "flip-x": return affine(libinput: [-1, 0, 1, 0, 1, 0])
        case "flip-y": return affine(libinput: [1, 0, 0, 0, -1, 1])
        default: return nil
        }
    }

    /// [a, b, c, d, e, f] with x' = a·x + b·y + c, y' = d·x + e·y + f.
    public static func affine(libinput m: [Double]) -> AffineTransform? {
        guard m.count == 6, m.allSatisfy({ $0.isFinite }) else { return nil }
        return AffineTransform(a: m[0], b: m[3], c: m[1], d: m[4], tx: m[2], ty: m[5])
    }

    public static func libinputValues(_ t: AffineTransform) -> [Double] { [t.a, t.c, t.tx, t.b, t.d, t.ty] }

    /// A point in panel pixels (libinput's coordinates scaled to the panel) put right.
    public func apply(panel p: Vec2, width: Int, height: Int) -> Vec2 {
        if isIdentity { return p }
        let w = Double(width), h = Double(height)
        let n = mounting.then(matrix).apply(Vec2(p.x / w, p.y / h))
        return Vec2(n.x * w, n.y * h)
    }

    /// The least-squares affine map taking each point of `from` to the same point of `to`:
    /// three or more pairs, not all on one line; nil otherwise.
    public static func fit(from: [Vec2], to: [Vec2]) -> AffineTransform? {
        guard from.count == to.count, from.count >= 3 else { return nil }
        // Normal equations of [x y 1]·(p q r) = target, once per output axis.
        var sxx = 0.0, sxy = 0.0, syy = 0.0, sx = 0.0, sy = 0.0
        var bx = (0.0, 0.0, 0.0), by = (0.0, 0.0, 0.0)
        for (p, t) in zip(from, to) {
            sxx += p.x * p.x; sxy += p.x * p.y; syy += p.y * p.y; sx += p.x; sy += p.y
            bx.0 += p.x * t.x; bx.1 += p.y * t.x; bx.2 += t.x
            by.0 += p.x * t.y; by.1 += p.y * t.y; by.2 += t.y
        }
        let n = Double(from.count)
        let m = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, n]]
        guard let u = solve3(m, [bx.0, bx.1, bx.2]), let v = solve3(m, [by.0, by.1, by.2]) else { return nil }
        let t = AffineTransform(a: u[0], b: v[0], c: u[1], d: v[1], tx: u[2], ty: v[2])
        guard abs(t.determinant) > 1e-9 else { return nil }
        return t
    }

    /// Cramer's rule; nil for a singular system (the points on one line).
    private static func solve3(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        let scale = m.flatMap { $0 }.map { abs($0) }.max() ?? 0
        guard d.isFinite, abs(d) > 1e-12 * max(1, scale * scale * scale) else { return nil }
        var out: [Double] = []
        for column in 0..<3 {
            var k = m
            for row in 0..<3 { k[row][column] = b[row] }
            out.append(det(k) / d)
        }
        return out
    }

    /// The calibration that brings touches seen at `observed` (portrait pixels, reported
    /// through this calibration and `screen`) onto `targets`, keeping the mounting; nil when
    /// the points cannot determine one.
    public func recalibrated(observed: [Vec2], targets: [Vec2], screen: ScreenTransform) -> TouchCalibration? {
        guard let correction = Self.fit(from: observed, to: targets) else { return nil }
        // Normalised panel → portrait pixels, itself affine.
        let w = Double(screen.panelWidth), h = Double(screen.panelHeight)
        let o = screen.portraitPoint(fromPanel: Vec2(0, 0)), ex = screen.portraitPoint(fromPanel: Vec2(w, 0)),
            ey = screen.portraitPoint(fromPanel: Vec2(0, h))
        let toPortrait = AffineTransform(a: ex.x - o.x, b: ex.y - o.y, c: ey.x - o.x, d: ey.y - o.y, tx: o.x, ty: o.y)
        guard let fromPortrait = toPortrait.inverted else { return nil }
        return TouchCalibration(mounting: mounting, matrix: matrix.then(toPortrait).then(correction).then(fromPortrait))
    }

    /// The configuration line for this calibration's matrix.
    public var configLine: String {
        "calibration = [" + Self.libinputValues(matrix).map { fixed(Self.clean($0)) }.joined(separator: ", ") + "]"
    }

    private static func clean(_ v: Double) -> Double { abs(v) < 5e-7 ? 0 : v }

    /// Six decimals: a 4K panel's pixel is 0.00026 of its width.
    private func fixed(_ v: Double) -> String {
        let negative = v < 0
        let scaled = Int64((abs(v) * 1_000_000).rounded())
        var fraction = String(scaled % 1_000_000)
        while fraction.count < 6 { fraction = "0" + fraction }
        while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative && scaled != 0 ? "-" : "") + String(scaled / 1_000_000) + "." + fraction
    }
}

/// What a calibration screen needs to know of the panel: how portrait pixels sit on it and
/// how its reports are put right now.
public struct TouchPanel: Sendable, Equatable {
    public var screen: ScreenTransform
    public var calibration: TouchCalibration
    public init(screen: ScreenTransform, calibration: TouchCalibration) { self.screen = screen; self.calibration = calibration }
}
