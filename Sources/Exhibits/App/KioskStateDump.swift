import Geometry

/// The state dump of issue 7, as replays, checkpoints and the black box write it: exhibit,
/// time, size, background, items, controls, then the app's and the exhibit's extras.
struct KioskStateDump {
    /// "launcher" or the exhibit open.
    var screen: String
    var timeMs: Double
    var width: Int
    var height: Int
    var exhibit: ExhibitState
    /// The screen's controls with the app's own (home, language buttons).
    var controls: [ControlState]
    /// The attract loop's demo playing, if any.
    var attract: String?
    /// The language shown, on a stand with more than one.
    var language: String?
    var displayOn: Bool

    var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("exhibit", .string(screen)),
            ("time_ms", .number(timeMs)),
            ("width", .int(width)),
            ("height", .int(height)),
            ("background", .string(exhibit.background.hex)),
            ("items", .array(exhibit.items.map { item in
                .object([("id", .int(item.id)), ("shape", .string(item.shape)), ("x", .number(item.center.x)),
                         ("y", .number(item.center.y)), ("width", .number(item.width)), ("height", .number(item.height)),
                         ("rotation", .number(item.rotation)), ("color", .string(item.color.hex))])
            })),
            ("controls", .array(controls.map { c in
                .object([("id", .string(c.id)), ("x", .number(c.frame.center.x)), ("y", .number(c.frame.center.y)),
                         ("width", .number(c.frame.width)), ("height", .number(c.frame.height)), ("selected", .bool(c.selected))])
            })),
        ]
        if let attract { pairs.append(("attract", .string(attract))) }
        if let language { pairs.append(("language", .string(language))) }
        pairs.append(("display_on", .bool(displayOn)))
        pairs.append(contentsOf: exhibit.extras)
        return .object(pairs)
    }
}
