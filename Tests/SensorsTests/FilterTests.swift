import Testing
import Geometry
@testable import Sensors

func sample(_ t: Microseconds, _ v: Vec3) -> AccelerationSample { AccelerationSample(time: t, vector: v) }

@Suite struct GravityFilterTests {
    @Test func stepResponseFollowsTheTimeConstantAtAnyRate() {
        // A step from upright to right-edge-down; after τ the filter is ~63 % there.
        func after(seconds: Double, rate: Double, tau: Double) -> Double {
            var f = GravityFilter(timeConstant: tau)
            f.add(sample(0, Vec3(0, 9.8, 0)))
            let dt = Microseconds((1_000_000 / rate).rounded())
            var t: Microseconds = 0
            while t < Microseconds.fromSeconds(seconds) {
                t += dt
                f.add(sample(t, Vec3(-9.8, 0, 0)))
            }
            return -f.gravity!.x / 9.8
        }
        let e = 1 - 1 / 2.718281828459045
        #expect(abs(after(seconds: 0.2, rate: 1000, tau: 0.2) - e) < 0.01)
        // Rate changes the result only a little: dt comes from the timestamps.
        let at50 = after(seconds: 0.3, rate: 50, tau: 0.1), at200 = after(seconds: 0.3, rate: 200, tau: 0.1)
        #expect(abs(at50 - at200) < 0.05)
        #expect(at50 > 0.9 && at200 > 0.9)
        // τ = 0 passes samples through.
        #expect(after(seconds: 0.02, rate: 100, tau: 0) == 1)
    }

    @Test func linearAccelerationIsWhatGravityLeaves() {
        var f = GravityFilter(timeConstant: 0.5)
        for i in 0..<200 { f.add(sample(Microseconds(i) * 10_000, Vec3(0, 9.8, 0))) }
        #expect(near(f.gravity!, Vec3(0, 9.8, 0), 1e-9))
        f.add(sample(2_000_000, Vec3(3, 9.8, 0)))
        let lin = f.linearAcceleration
        #expect(lin.x > 2.9 && lin.x < 3 && abs(lin.y) < 1e-9)
        #expect(near(f.gravity! + lin, Vec3(3, 9.8, 0), 1e-12))
    }

    @Test func timeGoingBackRestartsOnTheSample() {
        var f = GravityFilter(timeConstant: 1)
        f.add(sample(1_000_000, Vec3(0, 9.8, 0)))
        f.add(sample(500_000, Vec3(9.8, 0, 0)))
        #expect(near(f.gravity!, Vec3(9.8, 0, 0)))
    }
}

/// Gravity plus a sinusoidal jolt along x, sampled at `rate` Hz over [start, end).
func shaking(from start: Double, to end: Double, amplitude: Double, hz: Double = 4, rate: Double = 100) -> [AccelerationSample] {
    var out: [AccelerationSample] = []
    var t = start
    while t < end {
        let a = amplitude * _sin(2 * .pi * hz * t)
        out.append(sample(Microseconds.fromSeconds(t), Vec3(a, 9.8, 0)))
        t += 1 / rate
    }
    return out
}
func still(from start: Double, to end: Double, rate: Double = 100) -> [AccelerationSample] {
    shaking(from: start, to: end, amplitude: 0, rate: rate)
}

@Suite struct ShakeDetectorTests {
    func events(_ samples: [AccelerationSample], _ d: ShakeDetector = ShakeDetector()) -> [ShakeEvent] {
        var d = d
        return samples.compactMap { d.add($0) }
    }

    @Test func oneLongShakeIsOneEvent() {
        // |a| is above 13 m/s² whenever |sin| > ~0.43 of a 30 m/s² jolt: most of the time.
        let e = events(still(from: 0, to: 1) + shaking(from: 1, to: 4, amplitude: 60) + still(from: 4, to: 6))
        #expect(e.count == 1)
        let t = e.first?.time ?? 0
        #expect(t >= 1_250_000 && t < 1_600_000)
    }

    @Test func twoShakesApartAreTwoEvents() {
        let e = events(shaking(from: 0, to: 1, amplitude: 60) + still(from: 1, to: 3) + shaking(from: 3, to: 4, amplitude: 60))
        #expect(e.count == 2)
    }

    @Test func gentleMotionIsNoShake() {
        #expect(events(shaking(from: 0, to: 5, amplitude: 4)).isEmpty)
        #expect(events(still(from: 0, to: 5)).isEmpty)
    }

    @Test func aShortJoltIsNoShake() {
        // 0.2 s of violent motion: the window never spans 0.25 s of mostly-accelerating samples.
        let e = events(still(from: 0, to: 1) + shaking(from: 1, to: 1.2, amplitude: 60) + still(from: 1.2, to: 3))
        #expect(e.isEmpty)
    }

    @Test func needsThreeQuartersAccelerating() {
        // Alternate one accelerating sample with one calm one: 50 %, never a shake.
        var samples: [AccelerationSample] = []
        for i in 0..<300 {
            samples.append(sample(Microseconds(i) * 10_000, i % 2 == 0 ? Vec3(20, 9.8, 0) : Vec3(0, 9.8, 0)))
        }
        #expect(events(samples).isEmpty)
        // Three in four: a shake.
        samples = (0..<300).map { i in sample(Microseconds(i) * 10_000, i % 4 != 3 ? Vec3(20, 9.8, 0) : Vec3(0, 9.8, 0)) }
        #expect(events(samples).count == 1)
    }

    @Test func thresholdIsConfigurable() {
        let medium = shaking(from: 0, to: 1, amplitude: 12, hz: 2)
        #expect(events(medium, ShakeDetector(threshold: 15)).isEmpty)
        #expect(events(medium, ShakeDetector(threshold: 11)).count == 1)
    }
}
