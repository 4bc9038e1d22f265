#if canImport(Glibc)
import Glibc
#endif
import Raster
import Syscalls

/// Resident memory of this process, from /proc/self/statm.
public func residentKilobytes() -> Int {
    guard let statm = try? LinuxSystem.shared.readSmallFile("/proc/self/statm") else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]), pages >= 0, pages < Int.max / 65_536 else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// Makes the C library serve every allocation of a megabyte or more (frame-sized: a still
/// layer, the canvas's cells) by mmap, so that freeing one gives its memory back. By default
/// glibc raises that threshold past a frame after the first such free and keeps the later
/// ones in its heap, resident after they are freed (three layers made and dropped in turn:
/// 8.6 MB held at 720×1280). Allocations that size are rare: one system call each is cheap.
public func returnFrameSizedBuffersWhenFreed() {
    LinuxSystem.shared.serveAllocationsByMmap(from: 1 << 20)
}

/// The most this process has held resident so far (VmHWM of /proc/self/status), 0 when unknown.
public func peakResidentKilobytes() -> Int {
    guard let status = try? LinuxSystem.shared.readSmallFile("/proc/self/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let fields = line.split(separator: " ")
        if fields.count > 1, let kilobytes = Int(fields[1]) { return kilobytes }
    }
    return 0
}

/// Process age, 10 ms resolution: its start in /proc/self/stat (clock ticks since boot)
/// against CLOCK_BOOTTIME (`sinceBoot`, µs), the clock that start is counted on. Not
/// /proc/uptime: the service's `ProcSubset=pid` hides it, and the first-frame line lost
/// the figure on every stand.
public func millisecondsSinceProcessStart(system: any SystemCalls = LinuxSystem.shared,
                                          sinceBoot: Int64 = bootTimeMicroseconds()) -> Double? {
    guard let stat = try? system.readSmallFile("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    // Fields after the command name: state is field 3, starttime field 22.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard fields.count > 19, let ticks = Double(fields[19]), ticks.isFinite, ticks >= 0, hz > 0 else { return nil }
    let age = Double(sinceBoot) / 1000 - ticks / hz * 1000
    return age >= 0 ? age : nil
}

/// Binary PPM (P6) of an XRGB8888 buffer: what the board test compares with the screendump.
public func writePPM(_ buffer: PixelBuffer, to path: String) throws(SystemError) {
    var bytes = Array("P6\n\(buffer.width) \(buffer.height)\n255\n".utf8)
    bytes.reserveCapacity(bytes.count + buffer.width * buffer.height * 3)
    for y in 0..<buffer.height {
        let row = buffer.row32(y)
        for x in 0..<buffer.width {
            let p = row[x]
            bytes.append(UInt8(truncatingIfNeeded: p >> 16)); bytes.append(UInt8(truncatingIfNeeded: p >> 8)); bytes.append(UInt8(truncatingIfNeeded: p))
        }
    }
    let system = LinuxSystem.shared
    let fd = try system.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
    defer { system.close(fd) }
    try writeAll(bytes, to: fd, named: path, system: system)
}

/// "12.3": one decimal, without Foundation.
public func fixed1(_ v: Double) -> String {
    guard v.isFinite, abs(v) < 1e15 else { return "\(v)" }
    let tenths = Int((v * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
}

/// "12.34": two decimals, without Foundation.
public func fixed2(_ v: Double) -> String {
    guard v.isFinite, abs(v) < 1e15 else { return "\(v)" }
    let hundredths = Int((v * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let frac = abs(hundredths) % 100
    return "\(sign)\(abs(hundredths) / 100).\(frac < 10 ? "0" : "")\(frac)"
}
