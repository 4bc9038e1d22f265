import CSystem

/// Writes out what is buffered for stdout; false when it, or anything printed before,
/// could not be written (a full disk, /dev/full, a closed pipe): errno says why.
public func flushStandardOutput() -> Bool { motionkiosk_flush_stdout() == 0 }
