import Diagnostics
import Exhibits
import Geometry
import Raster
import Trace

/// Traces made from what the kiosk already knows, for replays that anyone can run and
/// compare (across CPUs, across builds): an exhibit's attract-loop demo with a checkpoint
/// every half second, or the launcher with a tap on each tile in turn.
public enum DemoTraces {
    /// `demo`: an exhibit's attract demo, or nil for the launcher. The launcher's taps are laid
    /// out as `settings` lay it out (a stand's exhibits, order and languages): give the
    /// settings and fonts the trace will be replayed with.
    public static func records(for demo: ExhibitType?, settings: KioskApp.Settings, fonts: FontSet) -> [TraceRecord] {
        let (width, height) = (settings.width, settings.height)
        var records: [TraceRecord] = []
        guard let type = demo else {
            // Tap each tile the launcher shows, in its order, and come home by the control.
            var launcher = settings
            launcher.initialExhibit = nil
            launcher.locked = nil
            let app = KioskApp(settings: launcher, fonts: fonts, log: Log(minimum: .error, sink: { _, _ in }))
            var names: [String] = []
            if case .array(let controls)? = app.state()["controls"] {
                for c in controls {
                    if case .string(let id)? = c["id"], id.hasPrefix("exhibit.") { names.append(String(id.dropFirst("exhibit.".count))) }
                }
            }
            var t = 500.0
            records.append(TraceRecord(t: 0, .checkpoint(name: "00-launcher")))
            for (i, exhibit) in names.enumerated() {
                guard let tile = controlCenter(app.state(), "exhibit.\(exhibit)") else { continue }
                records.append(TraceRecord(t: t, .touch(phase: .down, id: 0, x: tile.x, y: tile.y)))
                records.append(TraceRecord(t: t + 60, .touch(phase: .up, id: 0, x: tile.x, y: tile.y)))
                records.append(TraceRecord(t: t + 1_000, .checkpoint(name: "\(i + 1)-\(exhibit)")))
                let home = app.homeControlFrame.center
                records.append(TraceRecord(t: t + 1_100, .touch(phase: .down, id: 0, x: home.x, y: home.y)))
                records.append(TraceRecord(t: t + 1_160, .touch(phase: .up, id: 0, x: home.x, y: home.y)))
                t += 1_800
            }
            records.append(TraceRecord(t: t, .checkpoint(name: "99-launcher")))
            return records
        }
        let name = type.name
        var touches: [TraceRecord] = []
        for frame in type.demoFrames(width: width, height: height) {
            for e in frame.events {
                touches.append(TraceRecord(microseconds: frame.time, .touch(phase: e.phase, id: e.slot, x: e.position.x, y: e.position.y)))
            }
        }
        let end = (touches.last?.t ?? 0) + 1_500
        var checkpoint = 0.0
        var k = 0
        for r in touches {
            while checkpoint < r.t {
                records.append(TraceRecord(t: checkpoint, .checkpoint(name: "\(name)-\(k < 10 ? "0" : "")\(k)")))
                k += 1
                checkpoint += 500
            }
            records.append(r)
        }
        while checkpoint <= end {
            records.append(TraceRecord(t: checkpoint, .checkpoint(name: "\(name)-\(k < 10 ? "0" : "")\(k)")))
            k += 1
            checkpoint += 500
        }
        return records
    }

    /// The centre of the control `id` in a state dump.
    static func controlCenter(_ state: JSONValue, _ id: String) -> Vec2? {
        guard case .array(let controls)? = state["controls"] else { return nil }
        for c in controls where c["id"] == .string(id) {
            if case .number(let x)? = c["x"], case .number(let y)? = c["y"] { return Vec2(x, y) }
        }
        return nil
    }
}
