import Diagnostics
import Exhibits
import Geometry
import Trace
import VisitorText

/// A whole visit as a trace, for measuring the frames a visitor sees at each transition
/// (motionkiosk-bench visit): the launcher; each tile opened, played with the first seconds of
/// its demo, and left by the home control; the language switched twice (to the stand's second
/// and third languages); an exhibit opened in the last and left alone until the idle reset;
/// the attract loop starting after that; a touch that ends it. A checkpoint names each step
/// where it starts; the transitions the kiosk makes on its own (idle reset, attract) are at the
/// times the settings give them. Laid out as `settings` lay the kiosk out: replay the trace
/// with the same settings (from the launcher, `initialExhibit` and `locked` nil) and fonts.
public enum VisitTrace {
    /// Checkpoint names of the steps the kiosk takes on its own.
    public static let idleResetStep = "idle reset"
    public static let attractStep = "attract start"

    /// `demoSeconds`: how much of each demo is played (its fingers still down then are
    /// lifted); nil plays every demo whole.
    public static func records(settings: KioskApp.Settings, fonts: FontSet, demoSeconds: Double? = 3) -> [TraceRecord] {
        var launcherSettings = settings
        launcherSettings.initialExhibit = nil
        launcherSettings.locked = nil
        // A probe of the layout: the launcher's controls in each language the visit shows.
        let probe = KioskApp(settings: launcherSettings, fonts: fonts, log: Log(minimum: .error, sink: { _, _ in }))
        let languages = Array(probe.text.languages.map { $0.code }.prefix(3))
        var layouts: [String: JSONValue] = [:]
        for code in languages {
            probe.selectLanguage(code)
            layouts[code] = probe.state()
        }
        let first = languages.first ?? ""
        let home = probe.homeControlFrame.center
        var records: [TraceRecord] = []
        var t = 0.0             // ms
        func step(_ name: String) { records.append(TraceRecord(t: t, .checkpoint(name: name))) }
        func tap(_ p: Vec2) {
            records.append(TraceRecord(t: t, .touch(phase: .down, id: 0, x: p.x, y: p.y)))
            records.append(TraceRecord(t: t + 60, .touch(phase: .up, id: 0, x: p.x, y: p.y)))
        }

        step("launcher")
        t = 500
        for exhibit in launcherSettings.order {
            guard let layout = layouts[first], let tile = DemoTraces.controlCenter(layout, "exhibit.\(exhibit.name)") else { continue }
            step("open \(exhibit.name)")
            tap(tile)
            t += 500
            step("play \(exhibit.name)")
            t = playDemo(exhibit, settings: settings, from: t, seconds: demoSeconds, into: &records) + 500
            step("home from \(exhibit.name)")
            tap(home)
            t += 1_000
        }
        // The language switched twice, then an exhibit opened in the last one.
        var language = first
        for code in languages.dropFirst() {
            guard let layout = layouts[language], let button = DemoTraces.controlCenter(layout, "language.\(code)") else { continue }
            step("language \(code)")
            tap(button)
            language = code
            t += 1_000
        }
        if let exhibit = launcherSettings.order.first, let layout = layouts[language],
           let tile = DemoTraces.controlCenter(layout, "exhibit.\(exhibit.name)") {
            step("open \(exhibit.name) (\(language))")
            tap(tile)
            t += 60
        }
        // Nobody touches it again: the idle reset (the launcher, the first language), then the
        // attract loop, which a touch on the launcher's free space ends.
        if let idle = settings.idleTimeout {
            t += Double(idle) / 1000
            step(idleResetStep)
            if let attract = settings.attractAfter {
                t += Double(attract) / 1000
                step(attractStep)
                t += 3_000
                if let layout = layouts[first], let free = freeSpot(layout, width: settings.width, height: settings.height) {
                    step("touch ends attract")
                    tap(free)
                }
            }
        }
        t += 1_000
        step("end")
        return records
    }

    /// The first `seconds` of `exhibit`'s demo from `start` (ms); fingers down at the cut are
    /// lifted where they are. Returns when the last touch was.
    static func playDemo(_ exhibit: ExhibitType, settings: KioskApp.Settings, from start: Double, seconds: Double?,
                         into records: inout [TraceRecord]) -> Double {
        var held: [Int: Vec2] = [:]
        var last = start
        let cut = seconds.map { $0 * 1000 }
        for frame in exhibit.demoFrames(width: settings.width, height: settings.height) {
            let at = Double(frame.time) / 1000
            if let cut, at > cut { break }
            for e in frame.events {
                records.append(TraceRecord(t: start + at, .touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y)))
                switch e.phase {
                case .down, .move: held[e.slot] = e.position
                case .up, .cancel: held[e.slot] = nil
                }
            }
            last = start + at
        }
        if !held.isEmpty {
            last += 20
            for (slot, p) in held.sorted(by: { $0.key < $1.key }) {
                records.append(TraceRecord(t: last, .touch(phase: .up, id: slot, x: p.x, y: p.y)))
            }
        }
        return last
    }

    /// A point of the screen no control covers, from the bottom up (where the launcher's tiles
    /// end), for a touch that only wakes the kiosk.
    static func freeSpot(_ state: JSONValue, width: Int, height: Int) -> Vec2? {
        var frames: [Rect] = []
        if case .array(let controls)? = state["controls"] {
            for c in controls {
                if case .number(let x)? = c["x"], case .number(let y)? = c["y"], case .number(let w)? = c["width"], case .number(let h)? = c["height"] {
                    frames.append(Rect(center: Vec2(x, y), width: w + 16, height: h + 16))
                }
            }
        }
        let step = Double(width) / 16
        var y = Double(height) - step
        while y > 0 {
            var x = Double(width) / 2
            while x < Double(width) - step {
                let p = Vec2(x, y)
                if !frames.contains(where: { $0.contains(p) }) { return p }
                x += step
            }
            y -= step
        }
        return nil
    }
}
