import Foundation

/// A temporary folder holding a fake sysfs / dev tree; removed when released.
public final class TempTree {
    public let root: String
    public init() {
        var template = Array((NSTemporaryDirectory() + "/motionkiosk-sensors-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        root = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }

    public func path(_ relative: String) -> String { root + "/" + relative }

    public func write(_ relative: String, _ text: String) {
        let full = path(relative)
        try! FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try! text.write(toFile: full, atomically: false, encoding: .utf8)
    }
    public func writeBytes(_ relative: String, _ bytes: [UInt8]) {
        let full = path(relative)
        try! FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: full, contents: Data(bytes))
    }
    public func append(_ relative: String, _ bytes: [UInt8]) {
        let h = FileHandle(forWritingAtPath: path(relative))!
        h.seekToEndOfFile()
        h.write(Data(bytes))
        h.closeFile()
    }
    public func read(_ relative: String) -> String? {
        (try? String(contentsOfFile: path(relative), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    public func remove(_ relative: String) { try? FileManager.default.removeItem(atPath: path(relative)) }
    public func mkdir(_ relative: String) {
        try! FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    /// An IIO accelerometer laid out as the kernel's st_accel driver lays out a LIS3DH:
    /// per-axis scale (info_mask_separate) printed as INT_PLUS_MICRO, a device-wide
    /// mount_matrix (IIO_SHARED_BY_ALL), the lis3dh ODR list; `buffered` adds
    /// scan_elements (le:s12/16>>4, soft timestamp at index 3), buffer/ and, when the chip
    /// has an IRQ, a trigger.
    public func addLIS3DH(id: String = "iio:device0", raw: (Int, Int, Int), buffered: Bool = false, withTrigger: Bool = true) {
        let d = "sys/\(id)/"
        write(d + "name", "lis3dh\n")
        write(d + "in_accel_x_raw", "\(raw.0)\n")
        write(d + "in_accel_y_raw", "\(raw.1)\n")
        write(d + "in_accel_z_raw", "\(raw.2)\n")
        for axis in ["x", "y", "z"] { write(d + "in_accel_\(axis)_scale", "0.009806\n") }
        write(d + "in_accel_scale_available", "0.009806 0.019613 0.039226 0.117680\n")
        write(d + "mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1\n")
        write(d + "sampling_frequency", "1\n")
        write(d + "sampling_frequency_available", "1 10 25 50 100 200 400 1600 \n")
        if buffered {
            for (i, axis) in ["x", "y", "z"].enumerated() {
                write(d + "scan_elements/in_accel_\(axis)_en", "0\n")
                write(d + "scan_elements/in_accel_\(axis)_index", "\(i)\n")
                write(d + "scan_elements/in_accel_\(axis)_type", "le:s12/16>>4\n")
            }
            write(d + "scan_elements/in_timestamp_en", "0\n")
            write(d + "scan_elements/in_timestamp_index", "3\n")
            write(d + "scan_elements/in_timestamp_type", "le:s64/64>>0\n")
            write(d + "buffer/enable", "0\n")
            write(d + "buffer/length", "2\n")
            write(d + "trigger/current_trigger", "\n")
            write(d + "current_timestamp_clock", "realtime\n")
            if withTrigger { write("sys/trigger0/name", "lis3dh-trigger\n") }
            writeBytes("dev/\(id)", [])
        }
    }
}

/// One chip on a fake bus: 256 registers and how its address pointer behaves.
