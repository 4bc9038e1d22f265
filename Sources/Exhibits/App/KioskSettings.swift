import Geometry
import Platform

extension KioskApp {
    public struct Settings {
        public var width = 480
        public var height = 800
        /// Exhibits on the launcher, in order.
        public var order: [ExhibitType] = ExhibitRegistry.tiles
        /// Show only this exhibit, without a home control; idle resets it.
        public var locked: ExhibitType? = nil
        /// Start in this exhibit (replay of one exhibit); nil starts on the launcher.
        public var initialExhibit: ExhibitType? = nil
        /// nil: never reset on idle (replay of one exhibit).
        public var idleTimeout: Microseconds? = 90_000_000
        /// nil: no attract loop.
        public var attractAfter: Microseconds? = 300_000_000
        public var options = StandExhibitOptions()
        public var seed: UInt64 = 1
        /// A long press this long in the launcher's top-left corner opens the commissioning
        /// screen; nil turns it off.
        public var commissioningPress: Microseconds? = 3_000_000
        /// Devices in use, shown by the commissioning screen.
        public var devices: [String] = []
        /// The stand's languages (shipped codes), the first the default; more than one shows
        /// the language buttons.
        public var languages = ["en"]
        /// The museum's own wording: language code → text key → text.
        public var textOverrides: [String: [String: String]] = [:]
        /// A finger held unmoved (within 2 mm) this long is stuck (a fault, a leaning object),
        /// not a visitor: it is dropped until it lifts (`[touch] stuck_seconds`); nil: never.
        public var stuckTouchAfter: Microseconds? = 600_000_000
        /// How the panel's touch reports are put right (`[touch] transform` and `calibration`),
        /// and how the picture sits on the panel (set from the display): the calibration
        /// screen fits through both.
        public var touchCalibration = TouchCalibration.identity
        public var panelScreen: ScreenTransform? = nil
        /// The panel's pixel pitch from DRM, for a legible text size; nil: a 7-inch panel.
        public var millimetresPerPixel: Double? = nil
        /// Start where a running kiosk was at one of its restart points (a black-box dump's
        /// replay), with `seed` the generator's state there; nil: a fresh start.
        public var resuming: Resumption? = nil
        /// The initial exhibit plays its demo (`replay --demo`): it is made as the attract
        /// loop makes it, from its profile's `demoSeed` where it has one.
        public var playsDemo = false
        public init() {}

        /// For replaying a trace: one exhibit with no idle reset or attract loop, or the whole
        /// kiosk from its launcher (nil, idle timer included).
        public static func replay(exhibit: ExhibitType?, width: Int, height: Int, seed: UInt64) -> Settings {
            var s = Settings()
            s.width = width
            s.height = height
            s.seed = seed
            if let exhibit {
                s.initialExhibit = exhibit
                s.idleTimeout = nil
                s.attractAfter = nil
            }
            return s
        }
    }

    /// What, beside its settings and its generator's state, describes the kiosk at a moment
    /// when nobody is touching it and it has just (re)started a screen: an idle reset, each
    /// demo of the attract loop, or its own start. A replay given this starts there exactly.
    public struct Resumption: Equatable, Sendable {
        /// The app's clock at that moment (the state's `time_ms`).
        public var elapsed: Microseconds
        /// How long nobody had touched or tilted it.
        public var idleFor: Microseconds
        /// The attract loop's demo that starts there; nil: the launcher or the locked exhibit.
        public var attract: ExhibitType?
        /// The language shown.
        public var language: String
        /// Gravity when a visitor last tilted clearly (nil: never).
        public var tiltReference: Vec2?
        /// Gravity the new screen starts with.
        public var gravity: Vec2

        public init(elapsed: Microseconds, idleFor: Microseconds, attract: ExhibitType?, language: String, tiltReference: Vec2?, gravity: Vec2) {
            self.elapsed = elapsed; self.idleFor = idleFor; self.attract = attract; self.language = language
            self.tiltReference = tiltReference; self.gravity = gravity
        }
    }

    /// A restart point: when, the generator's state there, and the rest.
    public struct RestartPoint: Equatable, Sendable {
        public var time: Microseconds
        public var seed: UInt64
        public var resumption: Resumption
    }
}
