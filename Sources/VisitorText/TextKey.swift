/// Every string a visitor can see, by key. A museum's configuration may reword any of them
/// per language (`[text.fr]` `"motion-cube.title" = "…"`); installer screens stay English.
/// The exhibits' keys are declared by the exhibits themselves (Exhibits' `ExhibitRegistry.textKeys`).
public enum TextKey {
    public static let launcherHeading = "launcher.heading"
    public static let attractCall = "attract.call"
    public static func title(_ exhibit: String) -> String { exhibit + ".title" }
    public static func instruction(_ exhibit: String) -> String { exhibit + ".instruction" }
    /// One of an exhibit's own keys: `exhibit(name, "mode.draw")` is "NAME.mode.draw".
    public static func exhibit(_ exhibit: String, _ suffix: String) -> String { exhibit + "." + suffix }

    /// The kiosk's own keys (not an exhibit's).
    public static let common = [launcherHeading, attractCall]
}
