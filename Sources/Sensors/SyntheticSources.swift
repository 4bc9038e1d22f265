import Geometry

/// No sensor: the device is taken to stand upright, so things fall toward the screen's
/// bottom edge. Specific force (0, +g, 0) in the screen frame.
public final class FixedDownGravity: AccelerationSource {
    public var kind: AccelerationSourceKind { .fixedDown }
    public let name = "fixed down gravity (no accelerometer)"
    public let cadence = SampleCadence.onChange
    public let frame = SampleFrame.screen
    private var delivered = false
    public init() {}
    public static let vector = Vec3(0, standardGravity, 0)

    public func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        if delivered { return }
        delivered = true
        samples.append(AccelerationSample(time: now, vector: FixedDownGravity.vector))
    }
    public func close() {}
}

/// Tilt from the keyboard, for a stand without an accelerometer or a developer at a desk:
/// each arrow press moves "down" a step toward that edge, `level` returns upright.
/// The state is the physics gravity direction d (screen, y down, |d| ≤ 1); the specific
/// force reported is (−dx·g, dy·g, √(1−|d|²)·g), so `TiltGravity` gives back d.
public final class ArrowKeyTilt: AccelerationSource {
    public var kind: AccelerationSourceKind { .arrowKeys }
    public enum Key: Sendable { case left, right, up, down, level }

    public let name = "arrow keys"
    public let cadence = SampleCadence.onChange
    public let frame = SampleFrame.screen
    public let step: Double
    public private(set) var down: Vec2
    private var pending = true

    public init(step: Double = 0.25, initialDown: Vec2 = Vec2(0, 1)) {
        self.step = step
        down = initialDown
    }

    public func press(_ key: Key) {
        switch key {
        case .left: down.x -= step
        case .right: down.x += step
        case .up: down.y -= step
        case .down: down.y += step
        case .level: down = Vec2(0, 1)
        }
        let l = down.length
        if l > 1 { down = down / l }
        pending = true
    }

    public var vector: Vec3 {
        let g = standardGravity
        return Vec3(-down.x * g, down.y * g, max(0, 1 - down.lengthSquared).squareRoot() * g)
    }

    public func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        guard pending else { return }
        pending = false
        samples.append(AccelerationSample(time: now, vector: vector))
    }
    public func close() {}
}

/// Samples recorded earlier (screen frame, times relative to the first), played back
/// against the clock from the first read on; optionally looping.
public final class ReplayedAccelerometer: AccelerationSource {
    public var kind: AccelerationSourceKind { .replay }
    public let name: String
    public let cadence: SampleCadence
    public let frame = SampleFrame.screen
    private let samples: [AccelerationSample]
    private let loops: Bool
    private var start: Microseconds?
    private var next = 0
    private var lapOffset: Microseconds = 0

    public init(samples: [AccelerationSample], name: String = "replay", loops: Bool = false, pollInterval: Microseconds = 10_000) {
        let t0 = samples.first?.time ?? 0
        self.samples = samples.map { AccelerationSample(time: $0.time - t0, vector: $0.vector) }
        self.name = name
        self.loops = loops
        cadence = .poll(pollInterval)
    }

    public var isFinished: Bool { !loops && next >= samples.count }

    public func read(now: Microseconds, into out: inout [AccelerationSample]) throws(SensorReadError) {
        if samples.isEmpty { return }
        if start == nil { start = now }
        let elapsed = now - start!
        while true {
            if next >= samples.count {
                guard loops else { return }
                // The lap lasts to the last sample plus one mean interval, so laps do not overlap.
                let last = samples[samples.count - 1].time
                lapOffset += last + max(1, last / Microseconds(max(1, samples.count - 1)))
                next = 0
            }
            let s = samples[next]
            guard s.time + lapOffset <= elapsed else { return }
            out.append(AccelerationSample(time: start! + lapOffset + s.time, vector: s.vector))
            next += 1
        }
    }
    public func close() {}

    /// Reads the plain text form: one sample a line, "seconds ax ay az" (m/s², screen
    /// frame); blank lines and lines starting with # are skipped.
    public static func parse(_ text: String, source: String) throws(SampleTextError) -> [AccelerationSample] {
        var out: [AccelerationSample] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let t = String(line).trimmingASCIIWhitespace()
            if t.isEmpty || t.hasPrefix("#") { continue }
            let f = t.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map { Double($0) }
            guard f.count == 4, let s = f[0], let x = f[1], let y = f[2], let z = f[3], s.isFinite else {
                throw SampleTextError(source: source, line: lineNumber, text: t)
            }
            out.append(AccelerationSample(time: Microseconds.fromSeconds(s), vector: Vec3(x, y, z)))
        }
        return out
    }
}

public struct SampleTextError: Error, CustomStringConvertible, Equatable {
    public var source: String
    public var line: Int
    public var text: String
    public var description: String { "\(source):\(line): expected 'seconds ax ay az', got '\(text)'" }
}
