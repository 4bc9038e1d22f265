import Foundation
import Testing
import Geometry
import SystemFakes
import Syscalls
import Diagnostics
@testable import Sensors

@Suite struct IIOScanTypeTests {
    @Test func parsesTheABIForms() {
        #expect(IIOScanType("le:s12/16>>4\n") == IIOScanType(bigEndian: false, signed: true, bits: 12, storageBits: 16, shift: 4))
        #expect(IIOScanType("be:u10/16>>6") == IIOScanType(bigEndian: true, signed: false, bits: 10, storageBits: 16, shift: 6))
        #expect(IIOScanType("le:s64/64>>0") == IIOScanType(bigEndian: false, signed: true, bits: 64, storageBits: 64))
        #expect(IIOScanType("le:s16/32X3>>0") == IIOScanType(bigEndian: false, signed: true, bits: 16, storageBits: 32, repeatCount: 3))
        #expect(IIOScanType("be:s24/32") == IIOScanType(bigEndian: true, signed: true, bits: 24, storageBits: 32))
        for bad in ["", "xx:s12/16>>4", "le:q12/16", "le:s12/12>>4", "le:s12/24", "le:s12", "le:s12/16>>x", "le:s40/32",
                    // From outside, none may trap or allocate without bound: a negative shift,
                    // a repeat count whose bytes overflow, one asking for a 55 GB buffer, bits
                    // beyond Int, a shift beyond the word.
                    "le:s12/16>>-4", "le:s16/16X4611686018427387904", "le:s16/16X100000000",
                    "le:s9223372036854775807/16", "le:s12/16>>9223372036854775807", "le:s12/16X0"] {
            #expect(IIOScanType(bad) == nil, "\(bad)")
        }
    }

    @Test func decodesShiftMaskSignAndEndianness() {
        let lis = IIOScanType("le:s12/16>>4")!
        // -1000 as 12 bits, left-justified, with garbage in the low nibble.
        let w = UInt16(bitPattern: Int16(-1000) << 4) | 0x5
        let bytes: [UInt8] = [UInt8(w & 0xFF), UInt8(w >> 8)]
        #expect(bytes.withUnsafeBytes { lis.decode($0, at: 0) } == -1000)

        let be = IIOScanType("be:u10/16>>6")!
        let v: UInt16 = (1000 << 6) | 0x3F
        #expect([UInt8(v >> 8), UInt8(v & 0xFF)].withUnsafeBytes { be.decode($0, at: 0) } == 1000)

        let s24 = IIOScanType("be:s24/32>>8")!
        // 0x800000 in 24 bits is the most negative value.
        #expect([0x80, 0x00, 0x00, 0xFF].withUnsafeBytes { s24.decode($0, at: 0) } == -8_388_608)

        let u8 = IIOScanType("le:u8/8>>0")!
        #expect([0xFF].withUnsafeBytes { u8.decode($0, at: 0) } == 255)
        let s8 = IIOScanType("le:s8/8>>0")!
        #expect([0xFF].withUnsafeBytes { s8.decode($0, at: 0) } == -1)

        let repeated = IIOScanType("le:s16/16X3>>0")!
        let r: [UInt8] = [1, 0, 0xFE, 0xFF, 3, 0]
        #expect(r.withUnsafeBytes { [repeated.decode($0, at: 0, element: 0), repeated.decode($0, at: 0, element: 1), repeated.decode($0, at: 0, element: 2)] } == [1, -2, 3])
    }

    @Test func layoutAlignsEachChannelToItsStorageSize() {
        let s16 = IIOScanType("le:s12/16>>4")!, ts = IIOScanType("le:s64/64>>0")!
        // Given out of index order on purpose.
        let lis = IIOScanLayout([("in_timestamp", 3, ts), ("in_accel_z", 2, s16), ("in_accel_x", 0, s16), ("in_accel_y", 1, s16)])
        #expect(lis.channels.map(\.name) == ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"])
        #expect(lis.channels.map(\.offset) == [0, 2, 4, 8])
        #expect(lis.scanBytes == 16)

        let u8 = IIOScanType("le:u8/8>>0")!, s32 = IIOScanType("be:s32/32>>0")!
        let mixed = IIOScanLayout([("a", 0, u8), ("b", 1, s32), ("c", 2, u8)])
        #expect(mixed.channels.map(\.offset) == [0, 4, 8])
        #expect(mixed.scanBytes == 12)

        let noTimestamp = IIOScanLayout([("x", 0, s16), ("y", 1, s16), ("z", 2, s16)])
        #expect(noTimestamp.scanBytes == 6)
    }
}

@Suite struct FrequencyTests {
    @Test func choosesTheLowestRateAtOrAboveTheTarget() {
        #expect(FrequencyChoices("1 10 25 50 100 200 400 1600 5000 \n")!.choose(atLeast: 50) == 50)
        #expect(FrequencyChoices("12.5 26 52 104")!.choose(atLeast: 50) == 52)
        #expect(FrequencyChoices("1 10 25")!.choose(atLeast: 50) == 25)
        #expect(FrequencyChoices("[0.5 0.5 200]")!.choose(atLeast: 50) == 50)
        #expect(FrequencyChoices("[1 7 200]")!.choose(atLeast: 50) == 50)
        #expect(FrequencyChoices("[3 10 200]")!.choose(atLeast: 50) == 53)
        #expect(FrequencyChoices("[100 1 400]")!.choose(atLeast: 50) == 100)
        #expect(FrequencyChoices("[1 1 20]")!.choose(atLeast: 50) == 20)
        #expect(FrequencyChoices("fast slow") == nil)
        #expect(FrequencyChoices("[1 2]") == nil)
    }
}

@Suite struct IIOPolledTests {
    @Test func readsTheLIS3DHLayoutAndRaisesTheRate() throws {
        let tree = TempTree()
        tree.addLIS3DH(raw: (0, 1000, -20))
        let system = FakeI2CSystem()
        let paths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        let devices = IIODeviceInfo.enumerate(paths: paths, system: system)
        #expect(devices.count == 1)
        let d = try #require(devices.first)
        #expect(d.name == "lis3dh" && d.hasAccel && !d.hasPressure && !d.hasBuffer)
        let source = try IIOPolledAccelerometer(device: d, system: system)
        // Polled: a fast ODR keeps st_sensors' per-read sleep short; the kiosk reads at 100 Hz.
        #expect(tree.read("sys/iio:device0/sampling_frequency") == "200")
        #expect(source.samplingFrequency == 200)
        #expect(source.cadence == .poll(10_000))
        // A lower request never lowers what is set.
        #expect(try IIOPolledAccelerometer(device: d, system: system, deviceRate: 50).cadence == .poll(10_000))
        #expect(tree.read("sys/iio:device0/sampling_frequency") == "200")
        var out: [AccelerationSample] = []
        try source.read(now: 123, into: &out)
        #expect(out.count == 1 && out[0].time == 123)
        #expect(near(out[0].vector, Vec3(0, 1000 * lis3dhKernelScale, -20 * lis3dhKernelScale), 1e-12))
    }

    @Test func rangeFormOfAvailableFrequencies() throws {
        let tree = TempTree()
        tree.addLIS3DH(raw: (0, 0, 0))
        tree.write("sys/iio:device0/sampling_frequency_available", "[3 10 200]\n")
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device0", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        let source = try IIOPolledAccelerometer(device: d, system: system, deviceRate: 50)
        #expect(tree.read("sys/iio:device0/sampling_frequency") == "53")
        #expect(source.cadence == .poll(18_868))
    }

    @Test(arguments: ["1e300", "inf", "9.3e18", "nan", "-5", "1e-300", "fast"])
    func aSamplingFrequencyThatIsNoFrequencyIsLeftAloneNotTrusted(value: String) throws {
        // Seen crashing `run` at start-up (a restart loop under systemd): "1e300" became an
        // Int64 when printed, "1e-300" a period beyond any Int.
        let tree = TempTree()
        tree.addLIS3DH(raw: (0, 1000, 0))
        tree.write("sys/iio:device0/sampling_frequency", value + "\n")
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device0", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        let source = try IIOPolledAccelerometer(device: d, system: system)
        #expect(source.samplingFrequency == nil)
        #expect(source.cadence == .poll(20_000))   // the kiosk's own 50 Hz
        #expect(tree.read("sys/iio:device0/sampling_frequency") == value)
        _ = source.name
    }

    @Test func anOfferedMenuWithNoFrequencyInItIsIgnored() throws {
        for menu in ["1 10 inf", "1e300", "[1 10 1e300]", "[nan 1 200]", "[1 1e300 200]", "1 10 -25"] {
            #expect(FrequencyChoices(menu) == nil, "\(menu)")
        }
        let tree = TempTree()
        tree.addLIS3DH(raw: (0, 0, 0))
        tree.write("sys/iio:device0/sampling_frequency_available", "1 10 1e300\n")
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device0", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        // Without a usable menu the wanted rate is asked for as it is.
        let source = try IIOPolledAccelerometer(device: d, system: system)
        #expect(source.samplingFrequency == 200)
        #expect(formatFrequency(1e300) != "")
    }

    @Test func aZeroScaleAndAShearingMountAreDoubtsNamingTheFile() throws {
        let tree = TempTree()
        let dir = "sys/iio:device3/"
        tree.write(dir + "name", "lis3dh\n")
        for axis in ["x", "y", "z"] { tree.write(dir + "in_accel_\(axis)_raw", "100\n") }
        tree.write(dir + "in_accel_scale", "0.01\n")
        tree.write(dir + "in_accel_y_scale", "0\n")
        tree.write(dir + "mount_matrix", "2, 0, 0; 0, 1, 0; 0, 0, 1\n")
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device3", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        let clock = VirtualClock()
        var said: [String] = []
        let log = RateLimitedLog(clock: clock, sink: { said.append($0) })
        let source = try IIOPolledAccelerometer(device: d, system: system, log: log)
        #expect(source.calibration.doubts.count == 2)
        #expect(said.contains { $0.contains("iio:device3/in_accel_y_scale is 0") && $0.contains("y axis") })
        #expect(said.contains { $0.contains("iio:device3") && $0.contains("not a turn or mirror") })
        // A plain turn is no doubt.
        tree.write(dir + "in_accel_y_scale", "0.01\n")
        tree.write(dir + "mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        #expect(try IIOAccelCalibration.read(directory: d.directory, system: system).doubts.isEmpty)
    }

    @Test func perAxisScaleOffsetAndMountMatrices() throws {
        let tree = TempTree()
        let dir = "sys/iio:device2/"
        tree.write(dir + "name", "mpu6050\n")
        tree.write(dir + "in_accel_x_raw", "100\n")
        tree.write(dir + "in_accel_y_raw", "-200\n")
        tree.write(dir + "in_accel_z_raw", "300\n")
        tree.write(dir + "in_accel_scale", "0.5\n")
        tree.write(dir + "in_accel_y_scale", "0.25\n")  // per-axis beats shared
        tree.write(dir + "in_accel_offset", "10\n")
        tree.write(dir + "in_accel_z_offset", "-300\n")
        let system = FakeI2CSystem()
        let paths = IIOPaths(sysfsRoot: tree.path("sys"))
        func reading() throws -> Vec3 {
            let d = IIODeviceInfo.read(id: "iio:device2", paths: paths, system: system)!
            var out: [AccelerationSample] = []
            try IIOPolledAccelerometer(device: d, system: system).read(now: 0, into: &out)
            return out[0].vector
        }
        // (raw + offset) × scale: x (100+10)·0.5, y (−200+10)·0.25, z (300−300)·0.5
        #expect(near(try reading(), Vec3(55, -47.5, 0)))

        // mount_matrix: device x = sensor y, device y = −sensor x.
        tree.write(dir + "mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        #expect(near(try reading(), Vec3(-47.5, -55, 0)))

        // in_mount_matrix (shared by direction) beats the device-wide one…
        tree.write(dir + "in_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, -1\n")
        #expect(near(try reading(), Vec3(55, -47.5, 0)))
        // …and in_accel_mount_matrix beats both.
        tree.write(dir + "in_accel_mount_matrix", "-1, 0, 0; 0, -1, 0; 0, 0, 1\n")
        #expect(near(try reading(), Vec3(-55, 47.5, 0)))

        // A malformed matrix is an error naming the file.
        tree.write(dir + "in_accel_mount_matrix", "1, 0; 0, 1\n")
        let d = IIODeviceInfo.read(id: "iio:device2", paths: paths, system: system)!
        #expect {
            _ = try IIOPolledAccelerometer(device: d, system: system)
        } throws: { error in
            "\(error)".contains("in_accel_mount_matrix") && "\(error)".contains("1, 0; 0, 1")
        }
    }

    @Test func rawWithoutScaleIsAClearError() {
        let tree = TempTree()
        let dir = "sys/iio:device0/"
        tree.write(dir + "name", "odd\n")
        for a in ["x", "y", "z"] { tree.write(dir + "in_accel_\(a)_raw", "1\n") }
        let system = FakeI2CSystem()
        let d = IIODeviceInfo.read(id: "iio:device0", paths: IIOPaths(sysfsRoot: tree.path("sys")), system: system)!
        #expect(throws: IIOSetupError.self) { _ = try IIOPolledAccelerometer(device: d, system: system) }
    }

    @Test func discoverySortsDevicesAndTellsAccelFromPressure() {
        let tree = TempTree()
        tree.addLIS3DH(id: "iio:device10", raw: (0, 0, 0))
        tree.write("sys/iio:device2/name", "bmp280\n")
        tree.write("sys/iio:device2/in_pressure_input", "101.325\n")
        tree.write("sys/iio:device3/name", "tsl2561\n")
        tree.write("sys/iio:device3/in_illuminance0_input", "40\n")
        tree.write("sys/trigger0/name", "x\n")
        let list = IIODeviceInfo.enumerate(paths: IIOPaths(sysfsRoot: tree.path("sys")), system: FakeI2CSystem())
        #expect(list.map(\.id) == ["iio:device2", "iio:device3", "iio:device10"])
        #expect(list.map(\.hasAccel) == [false, false, true])
        #expect(list.map(\.hasPressure) == [true, false, false])
    }
}

@Suite struct IIOBufferedTests {
    @Test func setsUpTheBufferAndDecodesScans() throws {
        let tree = TempTree()
        tree.addLIS3DH(raw: (0, 0, 0), buffered: true)
        let system = FakeI2CSystem()
        let paths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        let d = IIODeviceInfo.read(id: "iio:device0", paths: paths, system: system)!
        #expect(d.hasBuffer)
        let source = try IIOBufferedAccelerometer(device: d, paths: paths, system: system)
        let dir = "sys/iio:device0/"
        for c in ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"] { #expect(tree.read(dir + "scan_elements/\(c)_en") == "1") }
        #expect(tree.read(dir + "trigger/current_trigger") == "lis3dh-trigger")
        #expect(tree.read(dir + "buffer/enable") == "1")
        #expect(tree.read(dir + "buffer/length") == "64")
        #expect(tree.read(dir + "current_timestamp_clock") == "monotonic")
        #expect(tree.read(dir + "sampling_frequency") == "50")
        guard case .fileDescriptor(let fd) = source.cadence else { Issue.record("no fd"); return }
        #expect(fd >= 0)
        #expect(source.layout.scanBytes == 16)

        tree.append("dev/iio:device0", lis3dhScan(0, 1000, -1000, timestampNanoseconds: 5_000_000_000)
                                     + lis3dhScan(-2048, 2047, 1, timestampNanoseconds: 5_020_000_000))
        var out: [AccelerationSample] = []
        try source.read(now: 9, into: &out)
        #expect(out.count == 2)
        #expect(out.map(\.time) == [5_000_000, 5_020_000])
        let g = lis3dhKernelScale
        #expect(near(out[0].vector, Vec3(0, 1000 * g, -1000 * g), 1e-9))
        #expect(near(out[1].vector, Vec3(-2048 * g, 2047 * g, g), 1e-9))

        // Nothing new: no samples, no error.
        out.removeAll()
        try source.read(now: 10, into: &out)
        #expect(out.isEmpty)

        source.close()
        #expect(tree.read(dir + "buffer/enable") == "0")
    }

    @Test func bigEndianUnsignedOutOfOrderChannelsWithoutTimestamp() throws {
        let tree = TempTree()
        let dir = "sys/iio:device1/"
        tree.write(dir + "name", "odd\n")
        for (axis, index) in [("x", 2), ("y", 0), ("z", 1)] {
            tree.write(dir + "in_accel_\(axis)_raw", "0\n")
            tree.write(dir + "scan_elements/in_accel_\(axis)_en", "0\n")
            tree.write(dir + "scan_elements/in_accel_\(axis)_index", "\(index)\n")
            tree.write(dir + "scan_elements/in_accel_\(axis)_type", "be:u10/16>>6\n")
        }
        // A channel we do not want must be switched off.
        tree.write(dir + "scan_elements/in_temp_en", "1\n")
        tree.write(dir + "scan_elements/in_temp_index", "3\n")
        tree.write(dir + "scan_elements/in_temp_type", "le:s16/16>>0\n")
        tree.write(dir + "in_accel_scale", "0.1\n")
        tree.write(dir + "in_accel_offset", "-512\n")
        tree.write(dir + "buffer/enable", "0\n")
        tree.write(dir + "buffer/length", "0\n")
        tree.write(dir + "trigger/current_trigger", "odd-dev1\n")  // already chosen
        tree.writeBytes("dev/iio:device1", [])
        let system = FakeI2CSystem()
        let paths = IIOPaths(sysfsRoot: tree.path("sys"), devRoot: tree.path("dev"))
        let d = IIODeviceInfo.read(id: "iio:device1", paths: paths, system: system)!
        let source = try IIOBufferedAccelerometer(device: d, paths: paths, system: system)
        #expect(tree.read(dir + "scan_elements/in_temp_en") == "0")
        #expect(source.trigger == "odd-dev1")
        #expect(source.layout.scanBytes == 6)
        func be10(_ v: UInt16) -> [UInt8] { let w = v << 6; return [UInt8(w >> 8), UInt8(w & 0xFF)] }
        // Scan order: y (index 0), z (1), x (2).
        tree.append("dev/iio:device1", be10(612) + be10(412) + be10(1023))
        var out: [AccelerationSample] = []
        try source.read(now: 77, into: &out)
        #expect(out.count == 1)
        #expect(out[0].time == 77)  // no timestamp channel: read time
        #expect(near(out[0].vector, Vec3((1023 - 512) * 0.1, 10, -10), 1e-9))
    }

    @Test func withoutATriggerTheSupervisorFallsBackToPolling() {
        let tree = TempTree()
        let config = configuration(tree)
        tree.addLIS3DH(raw: (0, 1000, 0), buffered: true, withTrigger: false)
        let clock = VirtualClock(start: 1_000_000)
        let lines = LogLines()
        let sensors = MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: lines.log(clock: clock))
        #expect(sensors.accelerometer is IIOPolledAccelerometer)
        #expect(lines.lines.contains { $0.contains("buffered capture on iio:device0 lis3dh failed") && $0.contains("polling") })
        #expect(sensors.fileDescriptors.isEmpty)
        #expect(sensors.nextDeadline == 0)
        let update = sensors.service()
        #expect(update.samples.count == 1)
        #expect(near(sensors.worldGravity, Vec2(0, 1000 * lis3dhKernelScale / standardGravity), 1e-12))
    }

    /// A buffered LIS3DH with nothing queued yet, and the supervisor reading it (clock at 1 s).
    func bufferedLIS3DH() -> (tree: TempTree, clock: VirtualClock, sensors: MotionSensors) {
        let tree = TempTree()
        let config = configuration(tree)
        tree.addLIS3DH(raw: (0, 0, 0), buffered: true)
        let clock = VirtualClock(start: 1_000_000)
        return (tree, clock, MotionSensors(configuration: config, system: FakeI2CSystem(), clock: clock, log: LogLines().log(clock: clock)))
    }

    /// A buffered sensor that stops sending keeps its last tilt: when it last sent says so.
    @Test func aSilentSensorShowsInWhenItLastSentASample() {
        let (tree, clock, sensors) = bufferedLIS3DH()
        defer { sensors.close() }
        #expect(sensors.lastSampleAt == 1_000_000)                    // opened: the count starts
        clock.advance(by: 500_000)
        tree.append("dev/iio:device0", lis3dhScan(-1000, 0, 0, timestampNanoseconds: 1_500_000_000))
        #expect(sensors.service().samples.count == 1)
        #expect(sensors.lastSampleAt == 1_500_000)
        clock.advance(by: 30_000_000)                                 // then nothing for 30 s
        #expect(sensors.service().samples.isEmpty)
        #expect(sensors.lastSampleAt == 1_500_000)
    }

    @Test func supervisorUsesBufferedModeAndExposesTheFD() {
        let (tree, _, sensors) = bufferedLIS3DH()
        #expect(sensors.accelerometer is IIOBufferedAccelerometer)
        #expect(sensors.fileDescriptors.count == 1)
        #expect(sensors.nextDeadline == nil)  // nothing polled, no barometer, nothing lost
        tree.append("dev/iio:device0", lis3dhScan(-1000, 0, 0, timestampNanoseconds: 2_000_000_000))
        let update = sensors.service()
        #expect(update.samples.count == 1)
        // x = −1 g: the right edge points down, so things fall right.
        #expect(near(sensors.worldGravity, Vec2(1000 * lis3dhKernelScale / standardGravity, 0), 1e-12))
        sensors.close()
        #expect(tree.read("sys/iio:device0/buffer/enable") == "0")
    }
}
