import Diagnostics
import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// The kiosk's motion input: picks an accelerometer (and barometer), keeps it alive across
/// unplug/replug, maps its axes to the screen, filters gravity, detects shakes and tracks
/// altitude. Single-threaded: call it from the main loop.
///
/// Main-loop contract (`FrameLoop` keeps it): watch `fileDescriptors` (readable →
/// `service`), wake by `nextDeadline` (→ `service`), call `rescan` on udev add/remove events
/// of the iio and i2c-dev subsystems. After `service`/`rescan`, re-read `fileDescriptors`
/// (they change with hot-plug).
public final class MotionSensors {
    public let configuration: MotionSensorConfiguration
    public let mapping: AxisMapping
    public private(set) var accelerometer: AccelerationSource
    public private(set) var barometer: IIOBarometer?
    /// The latest good sample, screen frame.
    public var latest: AccelerationSample? { pipeline.latest }
    /// Validation counts (dropped samples by reason).
    public var validator: SampleValidator { pipeline.validator }
    /// Validator → gravity filter → shake detector, and altitude: shared with replay.
    public private(set) var pipeline: MotionPipeline
    /// A black box starts a segment: see `MotionPipeline.restartShakeWindow`.
    public func restartShakeWindow() { pipeline.restartShakeWindow() }
    /// True while the configured/auto accelerometer is missing and fixed down gravity stands in.
    public private(set) var isFallingBack = false
    /// When the accelerometer in use last gave a sample (good or not), or, before its first,
    /// when it was opened: a sensor that stops sending (a dead interrupt line, a reader
    /// blocked in the kernel) keeps its last tilt, and only this tells.
    public private(set) var lastSampleAt: Microseconds
    /// Set-up notes (buffered → polled fallbacks, probes), for `devices` and logs.
    public private(set) var notes: [String] = []

    private let system: SystemCalls
    private let clock: Clock
    private let log: RateLimitedLog
    private let openI2CBus: (String) throws(SystemError) -> I2CBus
    private var nextAccelerometerRead: Microseconds = 0
    private var nextBarometerRead: Microseconds = 0
    private var nextRetry: Microseconds?
    private var retryDelay: Microseconds
    private var lastRescan: Microseconds?
    /// A barometer that was there and went away is looked for again on the retry schedule
    /// (one never seen is looked for only on `rescan`).
    private var barometerLost = false
    /// A named barometer that is not there is said once, not on every look.
    private var saidNamedBarometerMissing = false
    private var scratch: [AccelerationSample] = []
    /// No sample or pressure reading reaches the pipeline timed before this (`service`).
    private var earliestSampleTime = Microseconds.min
    /// The reading the stand last moved to, and when: rest is measured from there.
    private var restReference: Vec3?
    private var lastMovement: Microseconds = 0
    /// Whether polling runs at the resting pace now.
    public private(set) var isResting = false
    /// A finger is on the glass (the frame loop says so): the visitor may tilt any moment.
    public var fingersDown = false {
        didSet { if fingersDown != oldValue { followRest(now: clock.now) } }
    }

    public init(configuration: MotionSensorConfiguration, system: SystemCalls = LinuxSystem.shared, clock: Clock,
                log: RateLimitedLog? = nil,
                openI2CBus: ((String) throws(SystemError) -> I2CBus)? = nil) {
        self.configuration = configuration
        self.system = system
        self.clock = clock
        self.log = log ?? RateLimitedLog(clock: clock, interval: configuration.logInterval)
        if let openI2CBus {
            self.openI2CBus = openI2CBus
        } else {
            self.openI2CBus = { (path) throws(SystemError) -> I2CBus in try LinuxI2CBus(path: path, system: system) }
        }
        mapping = AxisMapping(board: configuration.board, rotation: configuration.rotation)
        pipeline = MotionPipeline(settings: configuration.motion)
        retryDelay = configuration.retryInterval
        accelerometer = FixedDownGravity()
        let now = clock.now
        lastSampleAt = now
        if let found = openAccelerometer() {
            accelerometer = found
        } else if needsDevice {
            isFallingBack = true
            self.log.always("motion: no accelerometer found for \(configuration.accelerometer); using fixed down gravity")
            scheduleRetry(now: now)
        }
        if configuration.barometer != .none { barometer = openBarometer() }
    }

    deinit { close() }

    public func close() {
        accelerometer.close()
        barometer = nil
    }

    // MARK: Reading the state

    /// Filtered gravity (specific force), screen frame, m/s²; upright before any sample.
    public var gravity: Vec3 { pipeline.gravity }
    /// The dynamics world's gravity: (−gx, +gy)/9.80665 in y-down screen space (UIKit units).
    public var worldGravity: Vec2 { pipeline.worldGravity }
    /// Acceleration without gravity, screen frame, m/s².
    public var linearAcceleration: Vec3 { pipeline.linearAcceleration }
    /// Metres above the start, smoothed; nil without a barometer reading.
    public var altitude: Double? { pipeline.altitude }
    public var pressureKilopascals: Double? { pipeline.lastPressure }

    /// The arrow-key source when configured, to feed key presses into.
    public var arrowKeys: ArrowKeyTilt? { accelerometer.kind == .arrowKeys ? arrowKeySource : nil }
    private var arrowKeySource: ArrowKeyTilt?

    // MARK: Main-loop integration

    /// Fds to watch for readability (buffered IIO); empty when everything is polled.
    public var fileDescriptors: [Int32] {
        if case .fileDescriptor(let fd) = accelerometer.cadence { return [fd] }
        return []
    }

    /// When `service` must run next (monotonic µs), nil when only fds or key events matter.
    public var nextDeadline: Microseconds? {
        var d: Microseconds?
        func consider(_ t: Microseconds?) { if let t { d = min(d ?? t, t) } }
        if case .poll = accelerometer.cadence { consider(nextAccelerometerRead) }
        if barometer != nil { consider(nextBarometerRead) }
        consider(nextRetry)
        return d
    }

    /// Reads what is ready, runs filters and detectors, retries lost sensors when due.
    /// Never throws: trouble is counted, logged at a bounded rate, and survived.
    ///
    /// `notBefore`: the time the consumer has already reached (the frame loop's content). A
    /// sample stamped earlier (a reader thread's, a kernel buffer's, taken before the last
    /// frame but handed over after it) is timed then, and no sample is timed before the one
    /// the pipeline took last: the pipeline filters each sample at the time the consumer
    /// gets it, the time a trace records, so a replay filters exactly as the stand did.
    @discardableResult
    public func service(notBefore: Microseconds? = nil) -> MotionUpdate {
        let now = clock.now
        if let notBefore { earliestSampleTime = max(earliestSampleTime, notBefore) }
        var update = MotionUpdate()
        if let retry = nextRetry, now >= retry { attemptRecovery(now: now) }
        readAccelerometer(now: now, into: &update)
        readBarometer(now: now, into: &update)
        return update
    }

    /// A udev add/remove happened (or the configuration wants a fresh look): look for lost
    /// or missing sensors now, at most once per 250 ms.
    public func rescan() {
        let now = clock.now
        if let last = lastRescan, now - last < 250_000 {
            if isFallingBack || (configuration.barometer != .none && barometer == nil) { nextRetry = last + 250_000 }
            return
        }
        retryDelay = configuration.retryInterval
        attemptRecovery(now: now)
    }

    // MARK: Internals

    /// Whether the configuration asks for a real device (vs. keys/fixed/replay).
    private var needsDevice: Bool {
        switch configuration.accelerometer {
        case .auto, .iio, .i2c: return true
        case .arrowKeys, .fixedDown, .replay: return false
        }
    }

    private func attemptRecovery(now: Microseconds) {
        lastRescan = now
        nextRetry = nil
        if isFallingBack {
            if let found = openAccelerometer() {
                accelerometer.close()
                accelerometer = found
                isFallingBack = false
                lastSampleAt = now
                pipeline.sourceChanged()
                restReference = nil
                isResting = false
                nextAccelerometerRead = now
                retryDelay = configuration.retryInterval
                log.always("motion: accelerometer back: \(found.name)")
            }
        }
        if configuration.barometer != .none && barometer == nil {
            barometer = openBarometer()
            if let b = barometer {
                log.always("motion: barometer \(barometerLost ? "back" : "found"): \(b.name)")
                barometerLost = false
                nextBarometerRead = now
            }
        }
        if isFallingBack || barometerLost { scheduleRetry(now: now) }
    }

    /// The next look for a lost sensor: 1 s, 2 s, 4 s, … up to the maximum.
    private func scheduleRetry(now: Microseconds) {
        nextRetry = now + retryDelay
        retryDelay = min(configuration.maximumRetryInterval, retryDelay * 2)
    }

    private func loseAccelerometer(_ reason: String, now: Microseconds) {
        log.always("motion: accelerometer \(accelerometer.name) went away (\(reason)); using fixed down gravity until it returns")
        accelerometer.close()
        accelerometer = FixedDownGravity()
        isFallingBack = true
        restReference = nil
        isResting = false
        retryDelay = configuration.retryInterval
        scheduleRetry(now: now)
    }

    /// Polls slowly while the stand rests, at the source's own rate otherwise.
    private func followRest(now: Microseconds) {
        guard case .poll(let interval) = accelerometer.cadence else { isResting = false; return }
        let rest = !fingersDown && restReference != nil && now - lastMovement >= configuration.restAfter
        guard rest != isResting else { return }
        isResting = rest
        let pace = rest ? max(interval, configuration.restingPollInterval) : interval
        (accelerometer as? BackgroundPolledSource)?.setPace(pace)
        if !rest { nextAccelerometerRead = min(nextAccelerometerRead, now) }
    }

    private func readAccelerometer(now: Microseconds, into update: inout MotionUpdate) {
        let source = accelerometer
        if case .poll(let interval) = source.cadence {
            guard now >= nextAccelerometerRead else { return }
            // Keep the phase but never queue up missed polls.
            let pace = isResting ? max(interval, configuration.restingPollInterval) : interval
            nextAccelerometerRead = max(nextAccelerometerRead + pace, now + pace / 2)
        }
        scratch.removeAll(keepingCapacity: true)
        var failure: SensorReadError?
        do { try source.read(now: now, into: &scratch) } catch { failure = error }
        let direct = source.frame == .screen && source.cadence == .onChange
        update.direct = direct
        if !scratch.isEmpty { lastSampleAt = now }
        for raw in scratch {
            let time = max(raw.time, earliestSampleTime)
            earliestSampleTime = time
            let s = AccelerationSample(time: time, vector: source.frame == .device ? mapping.screen(raw.vector) : raw.vector)
            let outcome = pipeline.add(s, direct: direct)
            update.read.append(MotionReading(sample: s, outcome: outcome, worldGravity: pipeline.worldGravity))
            switch outcome {
            case .dropped(let reason):
                log.log("motion bad sample \(reason.rawValue)",
                        "motion: dropped sample \(s.vector) from \(source.name): \(reason.rawValue) (\(validator.dropped[reason] ?? 0) so far)")
            case .accepted(let shake):
                update.samples.append(s)
                update.gravityChanged = true
                if let shake { update.shakes.append(shake) }
                if restReference.map({ (s.vector - $0).length > configuration.restThreshold }) ?? true {
                    restReference = s.vector
                    lastMovement = s.time
                }
            }
        }
        followRest(now: now)
        switch failure {
        case .gone(let why)?:
            if source.kind == .fixedDown { break }
            loseAccelerometer(why, now: now)
            // Fixed gravity takes over at once.
            readAccelerometer(now: now, into: &update)
        case .failed(let why)?:
            pipeline.countReadErrors(source.failuresInLastError)
            log.log("motion read error", "motion: reading \(source.name) failed: \(why) (\(validator.dropped[.readError] ?? 0) so far)")
        case nil:
            break
        }
    }

    private func readBarometer(now: Microseconds, into update: inout MotionUpdate) {
        guard let b = barometer, now >= nextBarometerRead else { return }
        nextBarometerRead = max(nextBarometerRead + b.pollInterval, now + b.pollInterval / 2)
        do {
            var p = try b.read(now: now)
            p.time = max(p.time, earliestSampleTime)
            earliestSampleTime = p.time
            let droppedBefore = pipeline.altitudeDropped
            if pipeline.add(pressure: p) { update.altitudeChanged = true }
            update.pressures.append(p)
            if pipeline.altitudeDropped > droppedBefore {
                log.log("barometer bad sample", "motion: dropped pressure \(p.kilopascals) kPa from \(b.name)")
            }
        } catch {
            switch error {
            case .gone(let why):
                log.always("motion: barometer \(b.name) went away (\(why))")
                barometer = nil
                barometerLost = true
                if nextRetry == nil {
                    retryDelay = configuration.retryInterval
                    scheduleRetry(now: now)
                }
            case .failed(let why):
                log.log("barometer read error", "motion: reading \(b.name) failed: \(why)")
            }
        }
    }

    private func note(_ s: String) {
        notes.append(s)
        log.log("motion setup \(s)", "motion: \(s)")
    }

    /// Opens the configured accelerometer; nil when the device it needs is absent.
    private func openAccelerometer() -> AccelerationSource? {
        switch configuration.accelerometer {
        case .arrowKeys:
            let keys = ArrowKeyTilt()
            arrowKeySource = keys
            return keys
        case .fixedDown: return FixedDownGravity()
        case .replay(let samples, let loops): return ReplayedAccelerometer(samples: samples, loops: loops)
        case .iio(let wanted):
            let devices = IIODeviceInfo.enumerate(paths: configuration.iioPaths, system: system)
                .filter { $0.hasAccel && ($0.id == wanted || $0.name == wanted) }
            return devices.lazy.compactMap { self.openIIO($0) }.first
        case .i2c(let bus, let chip, let address):
            return openI2C(busPath: bus, chip: chip, address: address)
        case .auto:
            for device in IIODeviceInfo.enumerate(paths: configuration.iioPaths, system: system) where device.hasAccel {
                if let s = openIIO(device) { return s }
            }
            guard configuration.probeI2CInAuto else { return nil }
            for bus in MotionSensors.i2cBuses(devRoot: configuration.i2cDevRoot, system: system) {
                if let s = openI2C(busPath: bus, chip: nil, address: nil) { return s }
            }
            return nil
        }
    }

    private func openIIO(_ device: IIODeviceInfo) -> AccelerationSource? {
        if configuration.iioMode != .polled && device.hasBuffer {
            do {
                return try IIOBufferedAccelerometer(device: device, paths: configuration.iioPaths, system: system,
                                                    triggerName: configuration.iioTrigger,
                                                    minimumRate: configuration.minimumRate, log: log)
            } catch {
                note("buffered capture on \(device.description) failed (\(error)); polling sysfs instead")
                if configuration.iioMode == .buffered { return nil }
            }
        } else if configuration.iioMode == .buffered {
            note("\(device.description) has no buffer; polling sysfs instead")
        }
        do {
            let polled = try IIOPolledAccelerometer(device: device, system: system,
                                                    deviceRate: max(configuration.minimumRate, configuration.polledDeviceRate), log: log)
            if let now = configuration.backgroundPollingClock { return BackgroundPolledSource(polled, now: now) }
            return polled
        } catch {
            note("\(device.description) unusable: \(error)")
            return nil
        }
    }

    private func openI2C(busPath: String, chip: I2CAccelChip?, address: UInt8?) -> AccelerationSource? {
        let bus: I2CBus
        do { bus = try openI2CBus(busPath) } catch {
            if error.errno != ENOENT { note("\(error)") }
            return nil
        }
        let scan = probeI2CAccelerometers(bus: bus, chips: chip.map { [$0] } ?? I2CAccelChip.allCases, address: address)
        for busy in scan.busy { note("\(busPath) 0x\(hexByte(busy)) is bound to a kernel driver (read it through IIO)") }
        guard let first = scan.found.first else { bus.close(); return nil }
        do {
            return try I2CAccelerometer(bus: bus, chip: first.chip, address: first.address)
        } catch {
            note("\(first.description): \(error)")
            bus.close()
            return nil
        }
    }

    private func openBarometer() -> IIOBarometer? {
        let pressure = IIODeviceInfo.enumerate(paths: configuration.iioPaths, system: system).filter { $0.hasPressure }
        switch configuration.barometer {
        case .none:
            return nil
        case .first:
            for device in pressure {
                if let b = try? IIOBarometer(device: device, system: system) { return b }
            }
            return nil
        case .named(let wanted):
            // The one the stand names (by name or sysfs folder), never another in its place.
            guard let device = pressure.first(where: { $0.name == wanted || $0.id == wanted }) else {
                if !saidNamedBarometerMissing {
                    saidNamedBarometerMissing = true
                    let found = pressure.isEmpty ? "none" : pressure.map { "\($0.id) \($0.name)" }.joined(separator: ", ")
                    log.always("motion: no IIO pressure sensor named \(echoed(wanted)) ([sensors] barometer); found: \(found); no altitude")
                }
                return nil
            }
            do throws(IIOSetupError) { return try IIOBarometer(device: device, system: system) } catch {
                if !saidNamedBarometerMissing {
                    saidNamedBarometerMissing = true
                    log.always("motion: barometer \(device.id) \(device.name) cannot be read: \(error); no altitude")
                }
                return nil
            }
        }
    }

    /// /dev/i2c-N paths in bus-number order.
    public static func i2cBuses(devRoot: String, system: SystemCalls) -> [String] {
        system.listDirectory(devRoot)
            .filter { $0.hasPrefix("i2c-") && Int($0.dropFirst(4)) != nil }
            .sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }
            .map { devRoot + "/" + $0 }
    }

    // MARK: Inventory for `motionkiosk devices`

    /// Lines about every accelerometer and barometer found, marking those in use. Probes
    /// I2C buses read-only (identity registers) and skips addresses a kernel driver owns.
    public func deviceLines() -> [String] {
        var lines: [String] = []
        let iio = IIODeviceInfo.enumerate(paths: configuration.iioPaths, system: system)
        let usedName = accelerometer.name
        for d in iio where d.hasAccel {
            let used = usedName.hasPrefix("IIO \(d.id) ")
            let mode = used ? (accelerometer.kind == .iioBuffered ? "buffered" : "polled") : (d.hasBuffer ? "buffer available" : "sysfs only")
            lines.append("accelerometer \(d.id) \(d.name) [IIO, \(mode)]\(used ? " — in use" : "")")
        }
        for busPath in MotionSensors.i2cBuses(devRoot: configuration.i2cDevRoot, system: system) {
            var inUse: I2CAccelProbe?
            if case .userspaceI2C(let probe) = accelerometer.kind { inUse = probe }
            if let p = inUse, p.busPath == busPath {
                lines.append("accelerometer \(p.description) [userspace I2C] — in use")
                continue
            }
            guard let bus = try? openI2CBus(busPath) else { continue }
            let scan = probeI2CAccelerometers(bus: bus)
            bus.close()
            for p in scan.found { lines.append("accelerometer \(p.description) [userspace I2C]") }
            for a in scan.busy { lines.append("i2c \(busPath) 0x\(hexByte(a)): bound to a kernel driver") }
        }
        if isFallingBack {
            lines.append("accelerometer: none usable — fixed down gravity in use")
        } else if !accelerometer.kind.isDevice {
            lines.append("accelerometer: \(accelerometer.name) in use")
        }
        lines.append("accelerometer axes: board mount \(configuration.board), panel rotation \(configuration.rotation)°")
        for d in iio where d.hasPressure {
            let used = barometer?.device.id == d.id
            lines.append("barometer \(d.id) \(d.name) [IIO]\(used ? " — in use" : "")")
        }
        if !iio.contains(where: { $0.hasPressure }) { lines.append("barometer: none") }
        lines.append(contentsOf: notes.map { "note: \($0)" })
        return lines
    }

    /// `deviceLines` without a running instance: sets sensors up as the kiosk would, lists,
    /// and releases them.
    public static func deviceLines(configuration: MotionSensorConfiguration, system: SystemCalls = LinuxSystem.shared,
                                   clock: Clock, log: RateLimitedLog? = nil) -> [String] {
        let sensors = MotionSensors(configuration: configuration, system: system, clock: clock,
                                    log: log ?? RateLimitedLog(clock: clock, sink: { _ in }))
        defer { sensors.close() }
        return sensors.deviceLines()
    }
}
