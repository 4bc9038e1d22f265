import VisitorText

/// Every exhibit the kiosk has, in the launcher's default order. Adding an exhibit is one
/// line here (and its folder, its text in the six tables, the regenerated default config).
public enum ExhibitRegistry {
    public static let all: [ExhibitType] = [
        ExhibitType(MotionCube.self),
        ExhibitType(TiltBox.self),
        ExhibitType(NewtonsCradle.self),
        ExhibitType(CircleDraw.self),
        ExhibitType(GridBlock.self),
        ExhibitType(TiltMaze.self),
        ExhibitType(Commissioning.self),
        ExhibitType(Calibration.self),
    ]

    /// The exhibits visitors can open from the launcher, in its default order.
    public static var tiles: [ExhibitType] { all.filter { !$0.profile.isInstallerScreen } }

    public static func named(_ name: String) -> ExhibitType? { all.first { $0.name == name } }

    /// Every name, for error messages and `--list-demos`.
    public static var names: [String] { all.map { $0.name } }

    /// Every key of visitor text, in the order the documentation lists them: the kiosk's own,
    /// then each tile's. Installer screens stay English and have none.
    public static var textKeys: [String] { TextKey.common + tiles.flatMap { $0.profile.textKeys } }
}
