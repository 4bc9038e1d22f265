// `import Glibc` for Embedded Swift builds: the C library (CGlibc) plus the few things the
// regular Glibc overlay adds that the project uses.
@_exported import CGlibc

public var errno: Int32 {
    get { motionkiosk_errno().pointee }
    set { motionkiosk_errno().pointee = newValue }
}

public func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { motionkiosk_open(path, flags, mode) }
public func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { motionkiosk_open(path, flags, 0) }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { motionkiosk_fcntl(fd, cmd, Int(value)) }
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { motionkiosk_fcntl(fd, cmd, 0) }
public func ioctl(_ fd: Int32, _ request: UInt, _ arg: UnsafeMutableRawPointer?) -> Int32 { motionkiosk_c_ioctl(fd, request, arg) }
public var MAP_FAILED: UnsafeMutableRawPointer! { motionkiosk_map_failed() }
public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { motionkiosk_environ() }
public var SIG_IGN: __sighandler_t? { motionkiosk_sig_ign() }
