/// Every string a visitor can see, by key. A museum's configuration may reword any of them
/// per language (`[text.fr]` `"motion-cube.title" = "…"`); installer screens stay English.
public enum TextKey {
    public static let launcherHeading = "launcher.heading"
    public static let attractCall = "attract.call"
    public static func title(_ exhibit: String) -> String { exhibit + ".title" }
    public static func instruction(_ exhibit: String) -> String { exhibit + ".instruction" }
    public static func circleDrawMode(_ mode: String) -> String { "circle-draw.mode." + mode }

    /// The exhibits whose title and instruction visitors see.
    public static let exhibits = ["motion-cube", "tilt-box", "newtons-cradle", "circle-draw", "grid-block"]

    /// All keys, in the order tests and the documentation list them.
    public static let all: [String] = {
        var keys = [launcherHeading, attractCall]
        for e in exhibits { keys += [title(e), instruction(e)] }
        keys += ["draw", "delete", "move"].map(circleDrawMode)
        return keys
    }()
}
