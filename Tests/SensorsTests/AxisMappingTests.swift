import Testing
import Geometry
@testable import Sensors

/// All 48 signed permutation matrices: the 24 proper rotations a sensor can be mounted in
/// on a board plus their 24 mirror images (det −1: an axis wired the other way round).
let signedPermutations: [Matrix3] = {
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    var out: [Matrix3] = []
    for p in perms {
        for signs in 0..<8 {
            var rows: [Double] = Array(repeating: 0, count: 9)
            for r in 0..<3 { rows[r * 3 + p[r]] = (signs >> r) & 1 == 1 ? -1 : 1 }
            out.append(Matrix3(rows: rows))
        }
    }
    return out
}()

@Suite struct AxisMappingTests {
    @Test func conventionUprightPortrait() {
        let m = AxisMapping()
        let screen = m.screen(Vec3(0, standardGravity, 0))
        #expect(near(TiltGravity.worldGravity(screen), Vec2(0, 1)))
        // Right edge down: specific force points left.
        #expect(near(TiltGravity.worldGravity(Vec3(-standardGravity, 0, 0)), Vec2(1, 0)))
        // Flat on a table: no in-plane pull.
        #expect(near(TiltGravity.worldGravity(Vec3(0, 0, standardGravity)), Vec2(0, 0)))
    }

    @Test func signedPermutationsAreAll48Distinct() {
        #expect(Set(signedPermutations).count == 48)
        #expect(signedPermutations.filter { $0.determinant > 0 }.count == 24)
    }

    /// Physical down must be screen down for every panel rotation, board mount (incl.
    /// mirrored) and IIO mount matrix. The reference is `ScreenTransform`, the mapping the
    /// display and touch use, not the rotation matrices under test: a direction on the
    /// portrait screen is carried to the panel by `panelPoint`, the sensor fixed to the
    /// panel feels the specific force there, and the pipeline must give the direction back.
    @Test(arguments: PanelRotation.allCases)
    func physicalDownIsScreenDown(rotation: PanelRotation) {
        let transform = ScreenTransform(portraitWidth: 480, portraitHeight: 800, rotation: rotation)
        let iioMatrices = [Matrix3.identity, Matrix3(rows: [0, -1, 0, 1, 0, 0, 0, 0, 1]), Matrix3(rows: [1, 0, 0, 0, -1, 0, 0, 0, -1])]
        // Down directions in portrait pixel space (y down) and how far down points into the glass.
        var downs: [(Vec2, Double)] = []
        for k in 0..<8 {
            let a = Double(k) * .pi / 4 + 0.1
            downs.append((Vec2(_cos(a), _sin(a)), 0))
            downs.append((Vec2(_cos(a), _sin(a)) * 0.6, -0.8))  // leaning back
        }
        var checked = 0
        for board in signedPermutations {
            for iio in iioMatrices {
                let mapping = AxisMapping(board: BoardMount(matrix: board), rotation: rotation)
                let calibration = IIOAccelCalibration(scale: Vec3(1, 1, 1), mountMatrix: iio)
                for (down, into) in downs {
                    // Portrait direction → panel direction (pixels, y down) → panel frame (y up).
                    let p0 = Vec2(240, 400)
                    let e = transform.panelPoint(fromPortrait: p0 + down * 10) - transform.panelPoint(fromPortrait: p0)
                    let downPanel = Vec3(e.x / 10, -e.y / 10, into)
                    let forcePanel = downPanel * -standardGravity  // specific force points away from down
                    // What the chip reads, given how it really sits.
                    let raw = iio.inverse! * (board.inverse! * forcePanel)
                    let device = calibration.apply(rawX: raw.x, rawY: raw.y, rawZ: raw.z)
                    let world = TiltGravity.worldGravity(mapping.screen(device))
                    #expect(near(world, down, 1e-9), "R\(rotation) board \(board) iio \(iio) down \(down)")
                    checked += 1
                }
            }
        }
        #expect(checked == 48 * 3 * 16)
    }

    @Test func screenFrameIsPanelFrameTurnedBack() {
        // R = 90: the picture is turned clockwise onto the panel, so the panel's right edge
        // is the portrait screen's top edge.
        let m = AxisMapping(rotation: .r90)
        #expect(near(m.screen(Vec3(1, 0, 0)), Vec3(0, 1, 0)))
        #expect(near(AxisMapping(rotation: .r270).screen(Vec3(1, 0, 0)), Vec3(0, -1, 0)))
        #expect(near(AxisMapping(rotation: .r180).screen(Vec3(1, 2, 3)), Vec3(-1, -2, 3)))
    }

    @Test func namedBoardMounts() {
        for name in BoardMount.names {
            let m = BoardMount(name)
            #expect(m != nil, "\(name)")
            #expect(abs((m?.matrix.determinant ?? 0) - 1) < 1e-12, "\(name) is a proper rotation")
        }
        // Turned clockwise by a quarter (front view): the sensor's x points down the panel.
        #expect(near(BoardMount("rotate-90")!.matrix * Vec3(1, 0, 0), Vec3(0, -1, 0)))
        #expect(near(BoardMount("rotate-270")!.matrix * Vec3(1, 0, 0), Vec3(0, 1, 0)))
        // On the back, facing away: z into the panel, x mirrored, y kept.
        #expect(near(BoardMount("back")!.matrix * Vec3(0, 0, 1), Vec3(0, 0, -1)))
        #expect(near(BoardMount("back")!.matrix * Vec3(0, 1, 0), Vec3(0, 1, 0)))
        #expect(BoardMount("0, 1, 0; -1, 0, 0; 0, 0, 1") == BoardMount("rotate-90"))
        #expect(BoardMount("sideways") == nil)
        #expect(BoardMount("back-normal") == nil)
        #expect(BoardMount("1, 0, 0; 1, 0, 0; 0, 0, 1") == nil)  // singular
    }

    @Test func matrixAlgebra() {
        for m in signedPermutations {
            #expect(m * m.inverse! == .identity)
        }
        let a = Matrix3(rows: [2, 0, 1, 1, 3, 0, 0, 1, 4])
        let p = a * a.inverse!
        for (x, y) in zip(p.values, Matrix3.identity.values) { #expect(abs(x - y) < 1e-12) }
        #expect(Matrix3(iioText: "1, 0, 0; 0, 1, 0; 0, 0, 1") == .identity)
        #expect(Matrix3(iioText: "1 0 0; 0 1 0; 0 0 1\n") == .identity)
        #expect(Matrix3(iioText: "1, 0, 0; 0, 1, 0") == nil)
        #expect(Matrix3(iioText: "a, 0, 0; 0, 1, 0; 0, 0, 1") == nil)
    }
}
