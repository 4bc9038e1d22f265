#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// Writes out what is buffered for stdout; false when it, or anything printed before,
/// could not be written (a full disk, /dev/full, a closed pipe): errno says why.
public func flushStandardOutput() -> Bool { motionkiosk_flush_stdout() == 0 }

/// Writes every byte of `text` to descriptor 1 (standard output) or 2 (standard error) at
/// once, unbuffered (the board test reads the log while the kiosk runs); false when they did
/// not all get there (a closed pipe, a full disk).
@discardableResult
public func writeStandardStream(_ fd: Int32, _ text: String, system: any SystemCalls = LinuxSystem.shared) -> Bool {
    do throws(SystemError) {
        try writeAll(Array(text.utf8), to: fd, named: fd == 2 ? "standard error" : "standard output", system: system)
        return true
    } catch {
        return false
    }
}
