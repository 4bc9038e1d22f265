import Foundation
import Testing
import Geometry
import SystemFakes
import Syscalls
@testable import Sensors

/// A polled source whose reads are counted; goes away after `lifetime` reads.
final class CountingSource: AccelerationSource, @unchecked Sendable {
        var kind: AccelerationSourceKind { .iioPolled }
    let name = "counting"
    let cadence = SampleCadence.poll(1_000)
    let lock = NSLock()
    var reads = 0
    var closed = false
    let lifetime: Int
    init(lifetime: Int = .max) { self.lifetime = lifetime }
    func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        lock.lock(); reads += 1; let n = reads; lock.unlock()
        if n > lifetime { throw .gone("unplugged") }
        if n % 10 == 0 { throw .failed("EIO") }
        samples.append(AccelerationSample(time: now, vector: Vec3(Double(n), 0, 0)))
    }
    func close() { lock.lock(); closed = true; lock.unlock() }
    var readCount: Int { lock.lock(); defer { lock.unlock() }; return reads }
}

@Suite struct BackgroundPollingTests {
    /// Drains until `enough` says so or ~5 s passed (a wait, not a timing assertion).
    func drain(_ s: BackgroundPolledSource, until enough: ([AccelerationSample], [SensorReadError]) -> Bool)
        -> ([AccelerationSample], [SensorReadError]) {
        var samples: [AccelerationSample] = [], errors: [SensorReadError] = []
        for _ in 0..<500 {
            do { try s.read(now: 0, into: &samples) } catch { errors.append(error) }
            if enough(samples, errors) { break }
            usleep(10_000)
        }
        return (samples, errors)
    }

    @Test func samplesArriveInOrderAndCloseStopsTheThread() {
        let inner = CountingSource()
        let source = BackgroundPolledSource(inner, now: monotonicMicroseconds)
        #expect(source.cadence == .poll(1_000))
        let (samples, errors) = drain(source) { s, _ in s.count >= 30 }
        #expect(samples.count >= 30)
        let values = samples.map(\.vector.x)
        #expect(values == values.sorted())
        #expect(!values.contains { Int($0) % 10 == 0 })  // failed reads gave no sample…
        #expect(!errors.isEmpty)                          // …but were reported
        #expect(errors.allSatisfy { if case .failed = $0 { return true } else { return false } })
        source.close()
        #expect(inner.closed)
        let after = inner.readCount
        usleep(20_000)
        #expect(inner.readCount == after)
    }

    /// At rest the reader sleeps for the slow pace; a faster pace wakes it at once.
    @Test func aSlowPaceReadsRarelyAndAFastOneWakesTheReaderAtOnce() {
        let inner = CountingSource(lifetime: 1_000_000)
        let source = BackgroundPolledSource(inner, now: monotonicMicroseconds)
        defer { source.close() }
        usleep(20_000)
        source.setPace(500_000)
        usleep(30_000)   // the read due now, then the slow pace
        let before = inner.readCount
        usleep(300_000)
        let slow = inner.readCount - before
        #expect(slow <= 1, "\(slow) reads in 0.3 s at a 0.5 s pace")
        source.setPace(1_000)
        // Back at the 1 ms pace the reader wakes at once: ten reads come long before the slow
        // pace's next one (0.5 s). A loaded machine may delay the thread, so allow 300 ms.
        let asked = monotonicMicroseconds()
        while inner.readCount - before - slow < 10 && monotonicMicroseconds() - asked < 300_000 { usleep(1_000) }
        let fast = inner.readCount - before - slow
        #expect(fast >= 10, "\(fast) reads in 0.3 s back at the 1 ms pace")
    }

    @Test func goneEndsTheThreadAndSurfaces() {
        let inner = CountingSource(lifetime: 5)
        let source = BackgroundPolledSource(inner, now: monotonicMicroseconds)
        let (samples, errors) = drain(source) { _, e in e.contains { if case .gone = $0 { return true } else { return false } } }
        #expect(samples.count == 5)
        #expect(errors.last == .gone("unplugged"))
        source.close()
        #expect(inner.readCount == 6)
    }

    /// The reader thread may fail several reads between two drains: each counts as a dropped
    /// sample (read error), not one per drain.
    @Test func everyFailedReadOfTheReaderThreadIsCounted() {
        let tree = TempTree()
        var config = configuration(tree)
        config.backgroundPollingClock = monotonicMicroseconds
        config.restingPollInterval = 0            // no slower reads at rest
        tree.addLIS3DH(raw: (0, 0, 1000))
        let clock = VirtualClock(start: 0)
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: LogLines().log(clock: clock))
        defer { sensors.close() }
        #expect(sensors.accelerometer is BackgroundPolledSource)
        guard case .poll(let interval) = sensors.accelerometer.cadence else { Issue.record("not polled"); return }
        tree.write("sys/iio:device0/in_accel_x_raw", "garbage\n")
        usleep(UInt32(3 * interval))              // reads before the garbage drained below
        sensors.service()
        let before = sensors.validator.dropped[.readError] ?? 0
        let drains = 10
        for _ in 0..<drains {
            usleep(UInt32(5 * interval))          // some five reads, all failing
            clock.advance(by: 5 * interval)
            sensors.service()
        }
        let counted = (sensors.validator.dropped[.readError] ?? 0) - before
        // One a drain at most, were drains counted instead of reads (some fifty are expected;
        // the margin is for a loaded machine's scheduling).
        #expect(counted > drains, "\(counted) read errors counted over \(drains) drains")
    }

    @Test func supervisorUsesTheReaderThreadAndSurvivesUnplug() {
        let tree = TempTree()
        var config = configuration(tree)
        config.backgroundPollingClock = monotonicMicroseconds
        tree.addLIS3DH(raw: (0, 0, 1000))
        let clock = VirtualClock(start: 0)
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: lines.log(clock: clock))
        #expect(sensors.accelerometer is BackgroundPolledSource)
        var got = 0
        for _ in 0..<500 where got == 0 {
            got += sensors.service().samples.count
            clock.advance(by: 20_000)
            usleep(5_000)
        }
        #expect(got > 0)
        #expect(near(sensors.gravity, Vec3(0, 0, 1000 * lis3dhKernelScale), 1e-12))
        tree.remove("sys/iio:device0")
        for _ in 0..<500 where !sensors.isFallingBack {
            sensors.service()
            clock.advance(by: 20_000)
            usleep(5_000)
        }
        #expect(sensors.isFallingBack)
        #expect(lines.lines.filter { $0.contains("went away") }.count == 1)
        sensors.close()
    }
}
