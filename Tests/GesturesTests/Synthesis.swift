// Synthetic touch input: fingers following paths, sampled the way a touch controller polls
// (one grid of poll instants for all fingers), with optional ±jitter from a seeded generator.
import Geometry
@testable import Gestures

/// One finger: lands at `start`, follows `path(u)` for u in 0…1 until `end` (milliseconds).
struct Finger {
    var slot: Int
    var start: Double
    var end: Double
    var path: (Double) -> Vec2

    static func hold(_ slot: Int = 0, at p: Vec2, from start: Double = 0, for duration: Double) -> Finger {
        Finger(slot: slot, start: start, end: start + duration) { _ in p }
    }
    static func line(_ slot: Int = 0, from a: Vec2, to b: Vec2, start: Double = 0, duration: Double) -> Finger {
        Finger(slot: slot, start: start, end: start + duration) { u in a + (b - a) * u }
    }
    /// Around `center` from angle `a0` to `a1` (radians, clockwise positive on screen).
    static func arc(_ slot: Int, center: Vec2, radius: Double, from a0: Double, to a1: Double, start: Double = 0, duration: Double) -> Finger {
        Finger(slot: slot, start: start, end: start + duration) { u in
            let a = a0 + (a1 - a0) * u
            return center + Vec2(_cos(a), _sin(a)) * radius
        }
    }
}

/// Turns fingers into the frames a panel polled at `rate` Hz would produce: "down" at the first
/// poll at or after the finger lands (at the path's start), "move" at each later poll until the
/// poll at or after it ends (at the path's end), "up" one poll later at the same position (the
/// controller notices a lift at its next poll, and libinput's up carries no new position).
struct TouchScript {
    var rate: Double
    var jitter = 0.0
    var seed: UInt64 = 7
    var fingers: [Finger] = []

    init(rate: Double, jitter: Double = 0, seed: UInt64 = 7, _ fingers: [Finger] = []) {
        self.rate = rate; self.jitter = jitter; self.seed = seed; self.fingers = fingers
    }

    var periodMs: Double { 1000 / rate }

    func tick(atOrAfter ms: Double) -> Int { Int((ms / periodMs - 1e-9).rounded(.up)) }
    func time(ofTick k: Int) -> Microseconds { Microseconds((Double(k) * periodMs * 1000).rounded()) }

    func events() -> [TouchEvent] {
        var random = SeededGenerator(seed: seed)
        var out: [TouchEvent] = []
        for f in fingers {
            let first = tick(atOrAfter: f.start), last = tick(atOrAfter: f.end)
            var position = Vec2.zero
            // The path runs from the first poll to the last, so the finger lands exactly at its
            // start and its last sample is exactly its end.
            for k in first...last {
                let u = last > first ? Double(k - first) / Double(last - first) : 1
                position = f.path(u)
                if jitter > 0 {
                    position += Vec2((random.unit() * 2 - 1) * jitter, (random.unit() * 2 - 1) * jitter)
                }
                out.append(TouchEvent(slot: f.slot, phase: k == first ? .down : .move, position: position, time: time(ofTick: k)))
            }
            out.append(TouchEvent(slot: f.slot, phase: .up, position: position, time: time(ofTick: last + 1)))
        }
        return out
    }

    func frames() -> [TouchFrame] { TouchScript.frames(events()) }

    /// Groups events with equal times into frames, in time order (stable for equal times).
    static func frames(_ events: [TouchEvent]) -> [TouchFrame] {
        let ordered = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var frames: [TouchFrame] = []
        for e in ordered {
            if let last = frames.last, last.time == e.time {
                frames[frames.count - 1].events.append(e)
            } else {
                frames.append(TouchFrame(time: e.time, events: [e]))
            }
        }
        return frames
    }

    /// When the last event happens.
    var endTime: Microseconds { events().map(\.time).max() ?? 0 }
}

/// What the recognizers' actions reported, in order.
final class ActionLog {
    struct Entry { var name: String; var state: GestureState; var time: Microseconds }
    private(set) var entries: [Entry] = []
    let clock: () -> Microseconds

    init(clock: @escaping () -> Microseconds) { self.clock = clock }

    func record(_ r: GestureRecognizer) { entries.append(Entry(name: r.name, state: r.state, time: clock())) }

    /// States of one recognizer with runs of `changed` folded: "began changed ended".
    func summary(_ name: String) -> String {
        var out: [String] = []
        for e in entries where e.name == name {
            if e.state == .changed, out.last == "changed" { continue }
            out.append(e.state.rawValue)
        }
        return out.joined(separator: " ")
    }
    func count(_ name: String, _ state: GestureState) -> Int { entries.filter { $0.name == name && $0.state == state }.count }
    func times(_ name: String, _ state: GestureState) -> [Microseconds] { entries.filter { $0.name == name && $0.state == state }.map(\.time) }
}

/// An environment and a log wired together.
final class Bench {
    let environment = GestureEnvironment()
    lazy var log = ActionLog { [unowned self] in self.environment.now }

    func track<R: GestureRecognizer>(_ r: R) -> R {
        switch r {
        case let tap as TapGestureRecognizer: tap.action = { [log] in log.record($0) }
        case let press as LongPressGestureRecognizer: press.action = { [log] in log.record($0) }
        case let pan as PanGestureRecognizer: pan.action = { [log] in log.record($0) }
        case let pinch as PinchGestureRecognizer: pinch.action = { [log] in log.record($0) }
        case let rotation as RotationGestureRecognizer: rotation.action = { [log] in log.record($0) }
        case let swipe as SwipeGestureRecognizer: swipe.action = { [log] in log.record($0) }
        default: break
        }
        return r
    }

    /// A screen-level recognizer, logged.
    @discardableResult
    func add<R: GestureRecognizer>(_ r: R) -> R {
        environment.add(track(r))
        return r
    }

    /// Feeds the script, then lets time run `settleMs` past its last event.
    func run(_ script: TouchScript, settleMs: Double = 1000) {
        environment.handle(script.frames())
        environment.advance(to: script.endTime + Microseconds(settleMs * 1000))
    }
}

extension Vec2 {
    static func ~= (a: Vec2, b: Vec2) -> Bool { a.distance(to: b) < 1e-9 }
}

func near(_ a: Double, _ b: Double, within tolerance: Double) -> Bool { abs(a - b) <= tolerance }
