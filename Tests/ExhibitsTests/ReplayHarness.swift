import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Raster
import Sensors
import Trace
@testable import Exhibits

/// Builds a trace in code, as a visitor's fingers would produce it, sampled at `rate` Hz.
/// The text goes through the real trace reader, so tests exercise the file format too.
struct TraceBuilder {
    var lines: [String] = [#"{"trace":"motionkiosk","version":1}"#]
    var rate: Double = 60

    init(rate: Double = 60) { self.rate = rate }

    private static func n(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e12 ? String(Int64(v)) : String(v)
    }
    mutating func touch(_ phase: String, id: Int = 0, _ p: Vec2, t: Double) {
        lines.append(#"{"t":\#(Self.n(t)),"type":"touch","phase":"\#(phase)","id":\#(id),"x":\#(Self.n(p.x)),"y":\#(Self.n(p.y))}"#)
    }
    mutating func tap(_ p: Vec2, at t: Double, id: Int = 0) {
        touch("down", id: id, p, t: t)
        touch("up", id: id, p, t: t + 60)
    }
    mutating func doubleTap(_ p: Vec2, at t: Double) {
        tap(p, at: t)
        tap(p, at: t + 180)
    }
    /// One finger from `a` to `b` in `duration` ms, then lifted there (after `hold` ms).
    mutating func drag(from a: Vec2, to b: Vec2, at t: Double, duration: Double, hold: Double = 0, id: Int = 0) {
        touch("down", id: id, a, t: t)
        let steps = max(1, Int((duration / 1000 * rate).rounded()))
        for k in 1...steps {
            let f = Double(k) / Double(steps)
            touch("move", id: id, a + (b - a) * f, t: t + duration * f)
        }
        touch("up", id: id, b, t: t + duration + max(hold, 1000 / rate))
    }
    /// A quick flick: `distance` px in the direction of `direction` within 100 ms.
    mutating func swipe(from a: Vec2, direction: Vec2, distance: Double = 150, at t: Double) {
        drag(from: a, to: a + direction.normalized * distance, at: t, duration: 100)
    }
    /// Two fingers whose midpoint goes from `a` to `b` while their spread goes from `s0` to
    /// `s1` and they turn by `angle` (clockwise positive), then lift together after `hold` ms.
    mutating func twoFingers(from a: Vec2, to b: Vec2, spread s0: Double, to s1: Double, angle: Double,
                             at t: Double, duration: Double, hold: Double = 100) {
        let steps = max(1, Int((duration / 1000 * rate).rounded()))
        func points(_ f: Double) -> (Vec2, Vec2) {
            let c = a + (b - a) * f
            let d = Vec2((s0 + (s1 - s0) * f) / 2, 0).rotated(by: angle * f)
            return (c - d, c + d)
        }
        let (p0, q0) = points(0)
        touch("down", id: 0, p0, t: t)
        touch("down", id: 1, q0, t: t)
        for k in 1...steps {
            let f = Double(k) / Double(steps)
            let (p, q) = points(f)
            touch("move", id: 0, p, t: t + duration * f)
            touch("move", id: 1, q, t: t + duration * f)
        }
        let (p1, q1) = points(1)
        touch("up", id: 0, p1, t: t + duration + hold)
        touch("up", id: 1, q1, t: t + duration + hold)
    }

    /// Two fingers about a still `center`, from `startSpread` to `endSpread` apart, turning by `angle`.
    mutating func pinch(center: Vec2, startSpread: Double, endSpread: Double, angle: Double = 0, at t: Double, duration: Double) {
        twoFingers(from: center, to: center, spread: startSpread, to: endSpread, angle: angle, at: t, duration: duration, hold: 20)
    }
    mutating func accel(_ x: Double, _ y: Double, _ z: Double, at t: Double) {
        lines.append(#"{"t":\#(Self.n(t)),"type":"accel","x":\#(x),"y":\#(y),"z":\#(z)}"#)
    }
    /// The stand held still at `gravity` (m/s², screen frame) from `t0` to `t1`, at 50 Hz.
    mutating func hold(accel v: Vec3, from t0: Double, to t1: Double) {
        var t = t0
        while t <= t1 { accel(v.x, v.y, v.z, at: t); t += 20 }
    }
    mutating func pressure(_ kpa: Double, at t: Double) {
        lines.append(#"{"t":\#(Self.n(t)),"type":"pressure","kpa":\#(kpa)}"#)
    }
    mutating func checkpoint(_ name: String, at t: Double) {
        lines.append(#"{"t":\#(Self.n(t)),"type":"checkpoint","name":"\#(name)"}"#)
    }

    /// Lines sorted by time (stable), so tests may add gestures in any order.
    var text: String {
        let header = lines[0]
        let body = lines.dropFirst().enumerated().sorted { a, b in
            let ta = Self.time(a.element), tb = Self.time(b.element)
            return ta != tb ? ta < tb : a.offset < b.offset
        }.map(\.element)
        return ([header] + body).joined(separator: "\n") + "\n"
    }
    private static func time(_ line: String) -> Double {
        let start = line.index(line.startIndex, offsetBy: 5)
        let end = line[start...].firstIndex(of: ",")!
        return Double(line[start..<end])!
    }
}

/// What a replay produced: the state and the frame at each checkpoint.
struct ReplayResult {
    var states: [String: JSONValue] = [:]
    var frames: [String: PixelBuffer] = [:]
    var app: KioskApp

    /// The items of a checkpoint's state.
    func items(_ checkpoint: String) -> [JSONValue] {
        if case .array(let a)? = states[checkpoint]?["items"] { return a }
        return []
    }
    func number(_ v: JSONValue?) -> Double? {
        switch v { case .number(let d)?: d; case .int(let i)?: Double(i); default: nil }
    }
    func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { s } else { nil } }
    /// The bottom edge of the home control at a checkpoint (the state gives its centre and size).
    func homeControlBottom(_ checkpoint: String) -> Double? {
        guard case .array(let controls)? = states[checkpoint]?["controls"],
              let home = controls.first(where: { string($0["id"]) == "home" }),
              let y = number(home["y"]), let height = number(home["height"]) else { return nil }
        return y + height / 2
    }
}

/// Replays `trace` on the virtual panel exactly as `motionkiosk replay` does.
func replay(_ trace: String, exhibit: String, width: Int = 480, height: Int = 800, seed: UInt64 = 1,
            configure: (inout KioskApp.Settings) -> Void = { _ in }) throws -> ReplayResult {
    // "launcher": the whole kiosk (nil), else the exhibit of that name.
    var settings = KioskApp.Settings.replay(exhibit: exhibit == "launcher" ? nil : ExhibitType(stringLiteral: exhibit),
                                            width: width, height: height, seed: seed)
    configure(&settings)
    let records = try TraceReader.records(in: trace, source: "test trace")
    let panel = VirtualPanel(width: width, height: height)
    let runner = try ReplayRunner(settings: settings, display: panel, fonts: try FontSet(), log: Log(minimum: .error))
    var result = ReplayResult(app: runner.app)
    runner.run(records) { checkpoint in
        result.states[checkpoint.name] = checkpoint.state
        let copy = PixelBuffer(width: checkpoint.frame.width, height: checkpoint.frame.height)
        copy.bytes.copyMemory(from: checkpoint.frame.bytes, byteCount: checkpoint.frame.strideBytes * checkpoint.frame.height)
        result.frames[checkpoint.name] = copy
    }
    return result
}
