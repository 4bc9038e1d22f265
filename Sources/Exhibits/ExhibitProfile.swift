import Geometry
import Gestures
import Trace
import VisitorText

/// Everything the kiosk knows about an exhibit before one exists, declared once in the
/// exhibit's own folder (`static var profile`). The config schema, the text tables' check,
/// the launcher, replay, the bench and the fuzzer all read it through `ExhibitRegistry`.
public struct ExhibitProfile: Sendable {
    /// The exhibit's name in configs, traces, state dumps and text keys (tilt-box): the
    /// only place it is spelled.
    public var name: String
    public var tileColor: Color
    /// Text keys the exhibit uses besides "<name>.title" and "<name>.instruction", as
    /// suffixes ("mode.draw" is "circle-draw.mode.draw"). The wording lives in the six
    /// language tables (VisitorText/Tables); a test checks every table has exactly these keys.
    public var extraTextKeys: [String] = []
    /// Per-exhibit options: the config table [exhibits.<name>], documented in the default config.
    public var options: [ExhibitOption] = []
    /// The attract loop's demo: a trace (JSON Lines, times in ms from 0) of touches in pixels
    /// of a 480×800 screen, and how it is placed on other screens.
    public var demoTrace: String
    public var demoPlacement: DemoPlacement = .stretched
    /// The seed of the exhibit's own generator while its demo plays (the attract loop,
    /// `replay --demo`), for a demo written for what that seed deals (a maze); nil: the
    /// kiosk's generator gives it one, as when a visitor opens it.
    public var demoSeed: UInt64? = nil
    /// The frame benchmark's scene; nil: the bench has none for this exhibit.
    public var benchScene: BenchScene? = nil
    /// An installers' screen (commissioning): opened from config or a long press, never a tile.
    public var isInstallerScreen = false

    public init(name: String, tileColor: Color, extraTextKeys: [String] = [], options: [ExhibitOption] = [],
                demoTrace: String, demoPlacement: DemoPlacement = .stretched, demoSeed: UInt64? = nil,
                benchScene: BenchScene? = nil, isInstallerScreen: Bool = false) {
        self.name = name; self.tileColor = tileColor; self.extraTextKeys = extraTextKeys; self.options = options
        self.demoTrace = demoTrace; self.demoPlacement = demoPlacement; self.demoSeed = demoSeed; self.benchScene = benchScene
        self.isInstallerScreen = isInstallerScreen
    }

    /// The keys of every string visitors read in this exhibit.
    public var textKeys: [String] {
        [TextKey.title(name), TextKey.instruction(name)] + extraTextKeys.map { TextKey.exhibit(name, $0) }
    }

    /// The demo as touch frames on a 480×800 screen; a demo that does not parse is a bug the
    /// registry tests catch.
    public var demoFrames: [TouchFrame] {
        guard let records = try? TraceReader.records(in: demoTrace, source: "\(name) demo") else { return [] }
        return TraceRecord.touchFrames(records).map { frame in
            let time = Microseconds((frame.t * 1000).rounded())
            return TouchFrame(time: time, events: frame.touches.map {
                TouchEvent(slot: $0.id, phase: $0.phase, position: Vec2($0.x, $0.y), time: time)
            })
        }
    }

    /// The demo's touches placed on a `width`×`height` screen.
    public func demoFrames(width: Int, height: Int) -> [TouchFrame] {
        demoFrames.map { frame in
            var f = frame
            for i in f.events.indices { f.events[i].position = demoPlacement.place(f.events[i].position, width: width, height: height) }
            return f
        }
    }
}

/// How a demo written for 480×800 lands on another screen.
public enum DemoPlacement: Sendable {
    /// Stretched to the screen, so that touches land on the same controls and places of
    /// layouts that scale with the width and keep to their edges.
    case stretched
    /// One scale (the smaller of width and height's), from the top, centred across the width:
    /// for a layout scaled uniformly that way (newtons-cradle).
    case uniformFromTop

    public func place(_ p: Vec2, width: Int, height: Int) -> Vec2 {
        switch self {
        case .stretched:
            return Vec2(p.x * (Double(width) / 480), p.y * (Double(height) / 800))
        case .uniformFromTop:
            let s = min(Double(width) / 480, Double(height) / 800)
            return Vec2(Double(width) / 2 + (p.x - 240) * s, p.y * s)
        }
    }
}

/// The frame benchmark's scene for an exhibit (motionkiosk-bench frame).
public enum BenchScene: Sendable, Equatable {
    /// The exhibit's demo, played up to its `release`-th lift of a finger; the measured
    /// frames are what follows. `what` describes the scene in the bench's output.
    case demo(release: Int, what: String)
    /// A scene the bench builds with its own touch script, by that script's name (a pile of
    /// pinched shapes, a screen of circles) where a demo would not load the frame enough.
    case script(String)
}

/// One per-exhibit option of the config table [exhibits.<name>], declared as a static in the
/// exhibit's file; the exhibit reads it with `environment.options.integer(…)` and the like.
public struct ExhibitOption: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case integer(default: Int, range: ClosedRange<Int>)
        case number(default: Double, range: ClosedRange<Double>)
        case boolean(default: Bool)
    }
    /// The key in the exhibit's table ("shape_cap").
    public let name: String
    public let kind: Kind
    /// One or two sentences for the default config.
    public let doc: String

    public static func integer(_ name: String, default value: Int, range: ClosedRange<Int>, doc: String) -> ExhibitOption {
        ExhibitOption(name: name, kind: .integer(default: value, range: range), doc: doc)
    }
    public static func number(_ name: String, default value: Double, range: ClosedRange<Double>, doc: String) -> ExhibitOption {
        ExhibitOption(name: name, kind: .number(default: value, range: range), doc: doc)
    }
    public static func boolean(_ name: String, default value: Bool, doc: String) -> ExhibitOption {
        ExhibitOption(name: name, kind: .boolean(default: value), doc: doc)
    }

    public var defaultValue: ExhibitOptionValue {
        switch kind {
        case .integer(let d, _): return .integer(d)
        case .number(let d, _): return .number(d)
        case .boolean(let d): return .boolean(d)
        }
    }

    /// The default as the config file writes it.
    public var defaultText: String {
        switch kind {
        case .integer(let d, _): return String(d)
        case .number(let d, _): return String(d)
        case .boolean(let d): return d ? "true" : "false"
        }
    }
}

/// A value set for an option (already checked against its kind and range by the config).
public enum ExhibitOptionValue: Sendable, Equatable {
    case integer(Int)
    case number(Double)
    case boolean(Bool)
}

/// One exhibit's option values: what is set, else each option's default.
public struct ExhibitOptions: Sendable, Equatable {
    private var values: [String: ExhibitOptionValue] = [:]
    public init() {}

    /// Sets `option`; its default is kept as no value, so that a file that writes the
    /// defaults out means the same as an empty one.
    public mutating func set(_ option: ExhibitOption, _ value: ExhibitOptionValue) {
        values[option.name] = value == option.defaultValue ? nil : value
    }

    var isEmpty: Bool { values.isEmpty }

    public func integer(_ option: ExhibitOption) -> Int {
        if case .integer(let v)? = values[option.name] { return v }
        if case .integer(let d, _) = option.kind { return d }
        return 0
    }
    public func number(_ option: ExhibitOption) -> Double {
        if case .number(let v)? = values[option.name] { return v }
        if case .integer(let v)? = values[option.name] { return Double(v) }
        if case .number(let d, _) = option.kind { return d }
        return 0
    }
    public func boolean(_ option: ExhibitOption) -> Bool {
        if case .boolean(let v)? = values[option.name] { return v }
        if case .boolean(let d) = option.kind { return d }
        return false
    }
}

/// The options a stand sets, per exhibit.
public struct StandExhibitOptions: Sendable, Equatable {
    private var byExhibit: [ExhibitType: ExhibitOptions] = [:]
    public init() {}

    public subscript(_ exhibit: ExhibitType) -> ExhibitOptions {
        get { byExhibit[exhibit] ?? ExhibitOptions() }
        set { byExhibit[exhibit] = newValue.isEmpty ? nil : newValue }
    }
}

/// An exhibit as a value: typed identity (equal by name) that settings, replay, the bench
/// and the fuzzer carry, and its factory. Embedded Swift has no existential metatypes, so the
/// type is captured in a closure when the value is made.
public struct ExhibitType: Sendable, Hashable, CustomStringConvertible {
    public let profile: ExhibitProfile
    private let factory: @Sendable (ExhibitEnvironment, GestureEnvironment, SeededGenerator) -> any Exhibit

    public init<E: Exhibit>(_ type: E.Type) {
        profile = E.profile
        factory = { environment, gestures, random in E(environment: environment, gestures: gestures, random: random) }
    }

    public var name: String { profile.name }
    public var description: String { profile.name }

    /// A fresh instance (also how an exhibit is reset).
    public func make(environment: ExhibitEnvironment, gestures: GestureEnvironment, random: SeededGenerator) -> any Exhibit {
        factory(environment, gestures, random)
    }

    /// The attract loop's demo, placed on a `width`×`height` screen.
    public func demoFrames(width: Int, height: Int) -> [TouchFrame] { profile.demoFrames(width: width, height: height) }

    public static func == (a: ExhibitType, b: ExhibitType) -> Bool { a.profile.name == b.profile.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(profile.name) }
}
