import Geometry

/// How the sensor board sits relative to the panel, as the installer configures it: which
/// panel direction each sensor axis points to. The panel frame is the panel's native
/// scanout: x → the panel's first-column-to-last direction (right), y → toward its first
/// row (top), z out of the glass. Composed after the IIO mount matrix.
public struct BoardMount: Equatable, Sendable, CustomStringConvertible {
    /// panel = matrix × sensor (after the IIO mount matrix).
    public var matrix: Matrix3
    public init(matrix: Matrix3) { self.matrix = matrix }

    public static let normal = BoardMount(matrix: .identity)

    /// Named orientations, as seen from the front of the panel:
    /// - normal: sensor x → panel right, y → panel top, z out of the glass.
    /// - rotate-90 / rotate-180 / rotate-270: the sensor turned clockwise by that much.
    /// - back, back-rotate-90, …: the sensor on the back of the board facing away (turned
    ///   about the panel's vertical axis: x and z flip), then turned clockwise as seen from
    ///   the front.
    public static let names = ["normal", "rotate-90", "rotate-180", "rotate-270",
                               "back", "back-rotate-90", "back-rotate-180", "back-rotate-270"]

    /// A name above or a matrix "a, b, c; d, e, f; g, h, i"; nil otherwise.
    public init?(_ text: String) {
        let t = text.trimmingASCIIWhitespace().lowercased()
        if let m = Matrix3(iioText: t) {
            guard m.inverse != nil else { return nil }
            self.init(matrix: m)
            return
        }
        var rest = Substring(t)
        var faceDown = false
        if rest.hasPrefix("back") {
            faceDown = true
            rest = rest.dropFirst(4)
            if rest.hasPrefix("-") { rest = rest.dropFirst() }
        }
        let turns: Int
        switch rest {
        case "", "normal": turns = 0
        case "rotate-90": turns = 1
        case "rotate-180": turns = 2
        case "rotate-270": turns = 3
        default: return nil
        }
        if faceDown && rest == "normal" { return nil }
        let flip = faceDown ? Matrix3(Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, -1)) : .identity
        self.init(matrix: BoardMount.clockwise(quarterTurns: turns) * flip)
    }

    /// Sensor turned clockwise (front view, y up): its x axis points to panel (cos, −sin).
    static func clockwise(quarterTurns n: Int) -> Matrix3 {
        switch ((n % 4) + 4) % 4 {
        case 1: return Matrix3(Vec3(0, 1, 0), Vec3(-1, 0, 0), Vec3(0, 0, 1))
        case 2: return Matrix3(Vec3(-1, 0, 0), Vec3(0, -1, 0), Vec3(0, 0, 1))
        case 3: return Matrix3(Vec3(0, -1, 0), Vec3(1, 0, 0), Vec3(0, 0, 1))
        default: return .identity
        }
    }

    public var description: String { matrix.description }
}

/// Device-frame samples → portrait screen frame: screen = D(rotation) · board · iio · raw,
/// where the IIO mount matrix is applied by the source, `board` is the installer's mount,
/// and D undoes the panel rotation (the portrait picture is turned clockwise by R onto the
/// panel, and the sensor is fixed to the panel, so the screen frame is the panel frame
/// turned counter-clockwise by R).
public struct AxisMapping: Equatable, Sendable {
    public let board: BoardMount
    public let rotation: PanelRotation
    /// screen = matrix × device-frame vector.
    public let matrix: Matrix3

    public init(board: BoardMount = .normal, rotation: PanelRotation = .r0) {
        self.board = board
        self.rotation = rotation
        matrix = AxisMapping.screenFromPanel(rotation) * board.matrix
    }

    /// Panel frame → screen frame, both y up: a counter-clockwise turn by R.
    public static func screenFromPanel(_ r: PanelRotation) -> Matrix3 {
        switch r {
        case .r0: return .identity
        case .r90: return Matrix3(Vec3(0, -1, 0), Vec3(1, 0, 0), Vec3(0, 0, 1))
        case .r180: return Matrix3(Vec3(-1, 0, 0), Vec3(0, -1, 0), Vec3(0, 0, 1))
        case .r270: return Matrix3(Vec3(0, 1, 0), Vec3(-1, 0, 0), Vec3(0, 0, 1))
        }
    }

    @inlinable public func screen(_ device: Vec3) -> Vec3 { matrix * device }
}
