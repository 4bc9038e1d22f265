import Diagnostics
import Geometry
import Syscalls
#if canImport(Glibc)
import Glibc
#endif

/// An IIO accelerometer read through sysfs: one `in_accel_{x,y,z}_raw` file per axis each
/// poll. Works with every driver, at the price of three small reads per sample.
public final class IIOPolledAccelerometer: AccelerationSource {
    public var kind: AccelerationSourceKind { .iioPolled }
    public let device: IIODeviceInfo
    public let calibration: IIOAccelCalibration
    /// Rate in effect after `raiseSamplingFrequency` (nil when the driver does not say).
    public let samplingFrequency: Double?
    public let cadence: SampleCadence
    private let system: SystemCalls
    private let axisFiles: [String]
    private let axisIsProcessed: Bool
    private var closed = false

    public var name: String { "IIO \(device.id) \(device.name) (polled\(samplingFrequency.map { ", \(formatFrequency($0)) Hz" } ?? ""))" }

    /// Asks the device for at least `deviceRate` Hz. That is more than the kiosk polls
    /// (`cadence`: the device rate clamped to 50…100 Hz) on purpose: st_sensors drivers
    /// sleep 2/ODR in every one-shot `_raw` read, so a fast ODR keeps reads short
    /// (LIS3DH at 200 Hz: 10 ms per axis instead of 40 ms at 50 Hz).
    public init(device: IIODeviceInfo, system: SystemCalls, deviceRate: Double = 200, log: RateLimitedLog? = nil) throws(IIOSetupError) {
        guard device.hasAccel else { throw .unsupported("\(device.directory): no in_accel_{x,y,z}_raw") }
        self.device = device
        self.system = system
        calibration = try IIOAccelCalibration.read(directory: device.directory, system: system)
        for doubt in calibration.doubts { log?.always(doubt) }
        let raw = system.fileExists(device.directory + "/in_accel_x_raw")
        axisIsProcessed = !raw
        axisFiles = ["x", "y", "z"].map { device.directory + "/in_accel_\($0)_" + (raw ? "raw" : "input") }
        samplingFrequency = raiseSamplingFrequency(directory: device.directory, target: deviceRate, system: system, log: log)
        let rate = min(100, max(50, samplingFrequency ?? 50))
        cadence = .poll(Microseconds((1_000_000 / rate).rounded()))
    }

    public func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        if closed { throw .gone("\(device.id) closed") }
        var raw = [0.0, 0.0, 0.0]
        for i in 0..<3 {
            let text: String?
            do { text = try system.readSmallFile(axisFiles[i]) } catch { throw SensorReadError.from(error) }
            guard let t = text else { throw .gone("\(axisFiles[i]) vanished") }
            guard let v = Double(t.trimmingASCIIWhitespace()) else {
                throw .failed("\(axisFiles[i]): '\(t.trimmingASCIIWhitespace())' is not a number")
            }
            raw[i] = v
        }
        let v = calibration.apply(rawX: raw[0], rawY: raw[1], rawZ: raw[2])
        samples.append(AccelerationSample(time: now, vector: v))
    }

    public func close() { closed = true }
}

/// An IIO accelerometer in buffered mode: scans of x, y, z (and the timestamp when the
/// device has one) read from /dev/iio:deviceN, woken by epoll. Set-up enables the scan
/// elements, picks a trigger, sizes and enables the buffer; `close` undoes it.
public final class IIOBufferedAccelerometer: AccelerationSource {
    public var kind: AccelerationSourceKind { .iioBuffered }
    public let device: IIODeviceInfo
    public let calibration: IIOAccelCalibration
    public let layout: IIOScanLayout
    public let trigger: String?
    public let samplingFrequency: Double?
    private let system: SystemCalls
    private var fd: Int32
    private let axisChannels: [IIOScanLayout.Channel]
    private let timestampChannel: IIOScanLayout.Channel?
    /// Timestamps are used only when the kernel stamps with CLOCK_MONOTONIC (our clock);
    /// otherwise samples carry the time they were read.
    private let timestampsAreMonotonic: Bool
    private var buffer: [UInt8]

    public var name: String { "IIO \(device.id) \(device.name) (buffered\(trigger.map { ", trigger \($0)" } ?? ""))" }
    public var cadence: SampleCadence { .fileDescriptor(fd) }

    /// - Parameter triggerName: a trigger to use; otherwise the current one, else one whose
    ///   name starts with the device's name (drivers call theirs "lis3dh-trigger",
    ///   "mpu6050-dev0"), else buffered mode is not possible and set-up throws.
    public init(device: IIODeviceInfo, paths: IIOPaths, system: SystemCalls, triggerName: String? = nil,
                minimumRate: Double = 50, bufferLength: Int = 64, log: RateLimitedLog? = nil) throws(IIOSetupError) {
        self.device = device
        self.system = system
        let dir = device.directory
        guard device.hasAccel, device.hasBuffer else { throw .unsupported("\(dir): no scan_elements/buffer") }
        calibration = try IIOAccelCalibration.read(directory: dir, system: system)
        for doubt in calibration.doubts { log?.always(doubt) }

        func write(_ file: String, _ value: String) throws(IIOSetupError) {
            do { try system.writeSmallFile(dir + "/" + file, value) } catch { throw .read(error.description) }
        }
        func text(_ file: String) -> String? { ((try? system.readSmallFile(dir + "/" + file)) ?? nil)?.trimmingASCIIWhitespace() }

        // A buffer left enabled by someone else must be stopped before its layout changes.
        if text("buffer/enable") == "1" { try write("buffer/enable", "0") }

        // Enable exactly x, y, z and the timestamp; switch off every other channel.
        let wanted = ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"]
        var elements: [(name: String, index: Int, type: IIOScanType)] = []
        for file in system.listDirectory(dir + "/scan_elements") where file.hasSuffix("_en") {
            let channel = String(file.dropLast(3))
            let on = wanted.contains(channel)
            try write("scan_elements/" + file, on ? "1" : "0")
            guard on else { continue }
            guard let indexText = text("scan_elements/\(channel)_index"), let index = Int(indexText) else {
                throw .malformed("\(dir)/scan_elements/\(channel)_index missing or not a number")
            }
            guard let typeText = text("scan_elements/\(channel)_type"), let type = IIOScanType(typeText) else {
                throw .malformed("\(dir)/scan_elements/\(channel)_type: '\(text("scan_elements/\(channel)_type") ?? "missing")' is not [be|le]:[s|u]bits/storage[Xr][>>shift]")
            }
            elements.append((channel, index, type))
        }
        let laidOut = IIOScanLayout(elements)
        layout = laidOut
        let axes = ["in_accel_x", "in_accel_y", "in_accel_z"].compactMap { laidOut.channel(named: $0) }
        guard axes.count == 3 else { throw .unsupported("\(dir)/scan_elements: no in_accel_{x,y,z}_en") }
        axisChannels = axes
        timestampChannel = laidOut.channel(named: "in_timestamp")

        // Trigger: the configured one, the one already set, or the device's own.
        var chosen = triggerName
        if chosen == nil, let current = text("trigger/current_trigger"), !current.isEmpty { chosen = current }
        if chosen == nil {
            let triggers = system.listDirectory(paths.sysfsRoot).filter { $0.hasPrefix("trigger") }
            for t in triggers {
                if let n = ((try? system.readSmallFile(paths.sysfsRoot + "/" + t + "/name")) ?? nil)?.trimmingASCIIWhitespace(),
                   n.hasPrefix(device.name) {
                    chosen = n; break
                }
            }
        }
        if system.fileExists(dir + "/trigger/current_trigger") {
            guard let t = chosen else { throw .unsupported("\(dir): no trigger for buffered capture (device has no IRQ trigger and none configured)") }
            if text("trigger/current_trigger") != t { try write("trigger/current_trigger", t) }
        }
        trigger = chosen

        samplingFrequency = raiseSamplingFrequency(directory: dir, target: minimumRate, system: system, log: log)
        var monotonic = false
        if system.fileExists(dir + "/current_timestamp_clock") {
            if text("current_timestamp_clock") != "monotonic" {
                try? system.writeSmallFile(dir + "/current_timestamp_clock", "monotonic")
            }
            monotonic = text("current_timestamp_clock") == "monotonic"
        }
        timestampsAreMonotonic = monotonic

        try write("buffer/length", String(bufferLength))
        try write("buffer/enable", "1")
        do {
            fd = try system.open(paths.devRoot + "/" + device.id, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            try? system.writeSmallFile(dir + "/buffer/enable", "0")
            throw .read(error.description)
        }
        buffer = [UInt8](repeating: 0, count: max(1, laidOut.scanBytes) * bufferLength)
    }

    deinit { close() }

    public func read(now: Microseconds, into samples: inout [AccelerationSample]) throws(SensorReadError) {
        guard fd >= 0 else { throw .gone("\(device.id) closed") }
        let scanBytes = layout.scanBytes
        while true {
            var failure: SystemError?
            let n = buffer.withUnsafeMutableBytes { b -> Int in
                do throws(SystemError) { return try system.read(fd, into: b) } catch { failure = error; return 0 }
            }
            if let error = failure {
                if error.errno == EAGAIN || error.errno == EWOULDBLOCK { return }
                throw SensorReadError.from(error)
            }
            if n == 0 { return }
            let scans = n / scanBytes
            buffer.withUnsafeBytes { raw in
                for s in 0..<scans {
                    let base = s * scanBytes
                    let cx = axisChannels[0], cy = axisChannels[1], cz = axisChannels[2]
                    let x = Double(cx.type.decode(raw, at: base + cx.offset))
                    let y = Double(cy.type.decode(raw, at: base + cy.offset))
                    let z = Double(cz.type.decode(raw, at: base + cz.offset))
                    var time = now
                    if timestampsAreMonotonic, let t = timestampChannel {
                        time = t.type.decode(raw, at: base + t.offset) / 1000
                    }
                    samples.append(AccelerationSample(time: time, vector: calibration.apply(rawX: x, rawY: y, rawZ: z)))
                }
            }
            if n % scanBytes != 0 { throw .failed("/dev/\(device.id): read \(n) bytes, not a whole number of \(scanBytes)-byte scans") }
            if n < buffer.count { return }
        }
    }

    public func close() {
        guard fd >= 0 else { return }
        system.close(fd)
        fd = -1
        try? system.writeSmallFile(device.directory + "/buffer/enable", "0")
    }
}
