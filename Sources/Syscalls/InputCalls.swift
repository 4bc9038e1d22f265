#if canImport(Glibc)
import Glibc
#endif
import CInput

// libudev and libinput, behind protocols so that Platform's touch mapping, hot-plug
// bookkeeping and card discovery are tested with scripted events. Events are copied into
// Swift values here; no libinput pointer leaves this file.

/// One udev device (enumerated, or from the monitor with `action` set).
public struct UdevDevice: Sendable, Equatable {
    public var syspath: String
    public var sysname: String
    public var subsystem: String
    public var devnode: String?
    /// "add", "remove", "change" for monitor events; nil when enumerated.
    public var action: String?
    public var properties: [String: String]
    public init(syspath: String, sysname: String, subsystem: String, devnode: String?, action: String? = nil,
                properties: [String: String] = [:]) {
        self.syspath = syspath; self.sysname = sysname; self.subsystem = subsystem; self.devnode = devnode
        self.action = action; self.properties = properties
    }
}

public protocol UdevMonitoring: AnyObject {
    /// Readable when an event is queued.
    var fd: Int32 { get }
    /// The next queued event, nil when none is left.
    func receive() -> UdevDevice?
}

public protocol UdevCalls: AnyObject {
    func devices(subsystem: String) -> [UdevDevice]
    func monitor(subsystems: [String]) throws(SystemError) -> any UdevMonitoring
}

private func udevDevice(_ dev: OpaquePointer, action: Bool) -> UdevDevice {
    func s(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
    var props: [String: String] = [:]
    var entry = udev_device_get_properties_list_entry(dev)
    while let e = entry {
        if let name = s(udev_list_entry_get_name(e)) { props[name] = s(udev_list_entry_get_value(e)) ?? "" }
        entry = udev_list_entry_get_next(e)
    }
    return UdevDevice(syspath: s(udev_device_get_syspath(dev)) ?? "", sysname: s(udev_device_get_sysname(dev)) ?? "",
                      subsystem: s(udev_device_get_subsystem(dev)) ?? "", devnode: s(udev_device_get_devnode(dev)),
                      action: action ? s(udev_device_get_action(dev)) : nil, properties: props)
}

/// The real libudev.
public final class LibUdev: UdevCalls {
    let udev: OpaquePointer

    public init() throws(SystemError) {
        guard let u = udev_new() else { throw SystemError(errno: errno != 0 ? errno : ENOMEM, attempt: "udev_new") }
        udev = u
    }
    deinit { udev_unref(udev) }

    public func devices(subsystem: String) -> [UdevDevice] {
        guard let en = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(en) }
        udev_enumerate_add_match_subsystem(en, subsystem)
        udev_enumerate_scan_devices(en)
        var out: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(en)
        while let e = entry {
            if let path = udev_list_entry_get_name(e), let dev = udev_device_new_from_syspath(udev, path) {
                out.append(udevDevice(dev, action: false))
                udev_device_unref(dev)
            }
            entry = udev_list_entry_get_next(e)
        }
        return out.sorted { $0.sysname < $1.sysname }
    }

    public func monitor(subsystems: [String]) throws(SystemError) -> any UdevMonitoring {
        try LibUdevMonitor(udev: udev, subsystems: subsystems)
    }
}

final class LibUdevMonitor: UdevMonitoring {
    let monitor: OpaquePointer
    let fd: Int32

    init(udev: OpaquePointer, subsystems: [String]) throws(SystemError) {
        guard let m = udev_monitor_new_from_netlink(udev, "udev") else {
            throw SystemError(errno: errno != 0 ? errno : ENOMEM, attempt: "udev_monitor_new_from_netlink")
        }
        for s in subsystems { udev_monitor_filter_add_match_subsystem_devtype(m, s, nil) }
        let r = udev_monitor_enable_receiving(m)
        if r < 0 {
            udev_monitor_unref(m)
            throw SystemError(errno: -r, attempt: "udev_monitor_enable_receiving")
        }
        monitor = m
        fd = udev_monitor_get_fd(m)
        // Non-blocking, so that draining the queue stops when it is empty.
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }
    deinit { udev_monitor_unref(monitor) }

    func receive() -> UdevDevice? {
        guard let dev = udev_monitor_receive_device(monitor) else { return nil }
        defer { udev_device_unref(dev) }
        return udevDevice(dev, action: true)
    }
}

// MARK: - libinput

public enum InputCapability: String, Sendable, CaseIterable {
    case keyboard, pointer, touch, tabletTool = "tablet-tool", tabletPad = "tablet-pad", gesture, `switch`
}

public struct InputDeviceInfo: Sendable, Equatable {
    /// Our own number for the device, stable while it is plugged in.
    public var id: Int
    public var name: String
    /// "event3".
    public var sysname: String
    public var capabilities: [InputCapability]
    /// udev says ID_INPUT_TOUCHSCREEN=1 (direct touch: maps 1:1 onto the panel).
    public var isTouchscreen: Bool
    public var widthMillimetres: Double?
    public var heightMillimetres: Double?
    /// The calibration matrix libinput applies (from LIBINPUT_CALIBRATION_MATRIX), nil when identity.
    public var calibration: [Float]?
    public init(id: Int, name: String, sysname: String, capabilities: [InputCapability], isTouchscreen: Bool,
                widthMillimetres: Double? = nil, heightMillimetres: Double? = nil, calibration: [Float]? = nil) {
        self.id = id; self.name = name; self.sysname = sysname; self.capabilities = capabilities
        self.isTouchscreen = isTouchscreen; self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres; self.calibration = calibration
    }
}

/// What libinput reports, in panel pixels (transformed with the panel size) and monotonic µs.
public enum RawInputEvent: Sendable, Equatable {
    case deviceAdded(InputDeviceInfo)
    case deviceRemoved(device: Int)
    /// `slot` is libinput's seat slot: unique across all touch devices of the seat.
    case touchDown(device: Int, slot: Int32, x: Double, y: Double, time: UInt64)
    case touchMotion(device: Int, slot: Int32, x: Double, y: Double, time: UInt64)
    case touchUp(device: Int, slot: Int32, time: UInt64)
    case touchCancel(device: Int, slot: Int32, time: UInt64)
    case touchFrame(device: Int, time: UInt64)
    case pointerMotion(device: Int, dx: Double, dy: Double, time: UInt64)
    case pointerAbsolute(device: Int, x: Double, y: Double, time: UInt64)
    case pointerButton(device: Int, button: UInt32, pressed: Bool, time: UInt64)
    case key(device: Int, code: UInt32, pressed: Bool, time: UInt64)
}

public protocol InputEventSource: AnyObject {
    /// Readable when libinput has something to dispatch.
    var fd: Int32 { get }
    /// Device nodes that could not be opened for lack of permission, oldest first.
    var deniedDevices: [String] { get }
    /// Dispatches and drains libinput's queue; positions are in a panel of this size.
    func readEvents(panelWidth: Int, panelHeight: Int) -> [RawInputEvent]
}

/// How libinput opens and closes the seat's device nodes (its open_restricted and
/// close_restricted), through the seam: a node the kiosk may not open (EACCES, EPERM: the
/// user is not in the input group) is remembered for the log; libinput gets -errno and goes
/// on without that device.
public final class RestrictedOpener {
    let system: any SystemCalls
    /// Device nodes refused for lack of permission, oldest first.
    public private(set) var denied: [String] = []

    public init(system: any SystemCalls) { self.system = system }

    /// A descriptor, or -errno as libinput wants it.
    public func open(_ path: String, flags: Int32) -> Int32 {
        do throws(SystemError) { return try system.open(path, flags: flags) } catch {
            if error.errno == EACCES || error.errno == EPERM { denied.append(path) }
            return -error.errno
        }
    }

    public func close(_ fd: Int32) { system.close(fd) }
}

/// libinput on a udev seat. Devices are opened through open_restricted (a plain open: the
/// kiosk runs with the input group or as root). LIBINPUT_CALIBRATION_MATRIX, set by a udev
/// rule or hwdb entry, is applied by libinput itself before the *_transformed coordinates
/// are computed, so a miscalibrated touchscreen is fixed in udev, not here.
public final class LibInputSeat: InputEventSource {
    let opener: RestrictedOpener
    public var deniedDevices: [String] { opener.denied }
    let udev: OpaquePointer
    let context: OpaquePointer
    let interface: UnsafeMutablePointer<libinput_interface>
    public let fd: Int32
    public let seat: String
    private var nextDeviceId = 1

    public init(seat: String = "seat0", system: any SystemCalls = LinuxSystem.shared) throws(SystemError) {
        opener = RestrictedOpener(system: system)
        guard let u = udev_new() else { throw SystemError(errno: ENOMEM, attempt: "udev_new") }
        interface = .allocate(capacity: 1)
        interface.initialize(to: libinput_interface(
            open_restricted: { path, flags, data in
                guard let path, let data else { return -EINVAL }
                return Unmanaged<RestrictedOpener>.fromOpaque(data).takeUnretainedValue().open(String(cString: path), flags: flags)
            },
            close_restricted: { fd, data in
                guard let data else { return }
                Unmanaged<RestrictedOpener>.fromOpaque(data).takeUnretainedValue().close(fd)
            }))
        guard let li = libinput_udev_create_context(interface, Unmanaged.passUnretained(opener).toOpaque(), u) else {
            udev_unref(u); interface.deallocate()
            throw SystemError(errno: ENOMEM, attempt: "libinput_udev_create_context")
        }
        if libinput_udev_assign_seat(li, seat) != 0 {
            libinput_unref(li); udev_unref(u); interface.deallocate()
            throw SystemError(errno: EINVAL, attempt: "libinput_udev_assign_seat \(seat)")
        }
        udev = u; context = li; self.seat = seat
        fd = libinput_get_fd(li)
    }
    deinit {
        libinput_unref(context)
        udev_unref(udev)
        interface.deallocate()
    }

    public func readEvents(panelWidth: Int, panelHeight: Int) -> [RawInputEvent] {
        _ = libinput_dispatch(context)
        var out: [RawInputEvent] = []
        let w = UInt32(max(1, panelWidth)), h = UInt32(max(1, panelHeight))
        while let ev = libinput_get_event(context) {
            defer { libinput_event_destroy(ev) }
            guard let device = libinput_event_get_device(ev) else { continue }
            let type = libinput_event_get_type(ev)
            if type == LIBINPUT_EVENT_DEVICE_ADDED {
                let id = nextDeviceId; nextDeviceId += 1
                libinput_device_set_user_data(device, UnsafeMutableRawPointer(bitPattern: id))
                out.append(.deviceAdded(info(device, id: id)))
                continue
            }
            let id = Int(bitPattern: libinput_device_get_user_data(device))
            switch type {
            case LIBINPUT_EVENT_DEVICE_REMOVED:
                out.append(.deviceRemoved(device: id))
            case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
                let t = libinput_event_get_touch_event(ev)
                let slot = libinput_event_touch_get_seat_slot(t)
                let x = libinput_event_touch_get_x_transformed(t, w), y = libinput_event_touch_get_y_transformed(t, h)
                let time = libinput_event_touch_get_time_usec(t)
                out.append(type == LIBINPUT_EVENT_TOUCH_DOWN
                           ? .touchDown(device: id, slot: slot, x: x, y: y, time: time)
                           : .touchMotion(device: id, slot: slot, x: x, y: y, time: time))
            case LIBINPUT_EVENT_TOUCH_UP:
                let t = libinput_event_get_touch_event(ev)
                out.append(.touchUp(device: id, slot: libinput_event_touch_get_seat_slot(t), time: libinput_event_touch_get_time_usec(t)))
            case LIBINPUT_EVENT_TOUCH_CANCEL:
                let t = libinput_event_get_touch_event(ev)
                out.append(.touchCancel(device: id, slot: libinput_event_touch_get_seat_slot(t), time: libinput_event_touch_get_time_usec(t)))
            case LIBINPUT_EVENT_TOUCH_FRAME:
                let t = libinput_event_get_touch_event(ev)
                out.append(.touchFrame(device: id, time: libinput_event_touch_get_time_usec(t)))
            case LIBINPUT_EVENT_POINTER_MOTION:
                let p = libinput_event_get_pointer_event(ev)
                out.append(.pointerMotion(device: id, dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p),
                                          time: libinput_event_pointer_get_time_usec(p)))
            case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
                let p = libinput_event_get_pointer_event(ev)
                out.append(.pointerAbsolute(device: id, x: libinput_event_pointer_get_absolute_x_transformed(p, w),
                                            y: libinput_event_pointer_get_absolute_y_transformed(p, h),
                                            time: libinput_event_pointer_get_time_usec(p)))
            case LIBINPUT_EVENT_POINTER_BUTTON:
                let p = libinput_event_get_pointer_event(ev)
                out.append(.pointerButton(device: id, button: libinput_event_pointer_get_button(p),
                                          pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED,
                                          time: libinput_event_pointer_get_time_usec(p)))
            case LIBINPUT_EVENT_KEYBOARD_KEY:
                let k = libinput_event_get_keyboard_event(ev)
                out.append(.key(device: id, code: libinput_event_keyboard_get_key(k),
                                pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED,
                                time: libinput_event_keyboard_get_time_usec(k)))
            default:
                break
            }
        }
        return out
    }

    private func info(_ device: OpaquePointer, id: Int) -> InputDeviceInfo {
        let caps: [(InputCapability, libinput_device_capability)] = [
            (.keyboard, LIBINPUT_DEVICE_CAP_KEYBOARD), (.pointer, LIBINPUT_DEVICE_CAP_POINTER),
            (.touch, LIBINPUT_DEVICE_CAP_TOUCH), (.tabletTool, LIBINPUT_DEVICE_CAP_TABLET_TOOL),
            (.tabletPad, LIBINPUT_DEVICE_CAP_TABLET_PAD), (.gesture, LIBINPUT_DEVICE_CAP_GESTURE),
            (.switch, LIBINPUT_DEVICE_CAP_SWITCH),
        ]
        var touchscreen = false
        if let ud = libinput_device_get_udev_device(device) {
            if let v = udev_device_get_property_value(ud, "ID_INPUT_TOUCHSCREEN") { touchscreen = String(cString: v) == "1" }
            udev_device_unref(ud)
        }
        var w = 0.0, h = 0.0
        let hasSize = libinput_device_get_size(device, &w, &h) == 0
        var matrix = [Float](repeating: 0, count: 6)
        // get_matrix returns non-zero when the matrix is not the identity.
        let calibrated = libinput_device_config_calibration_has_matrix(device) != 0
            && matrix.withUnsafeMutableBufferPointer { libinput_device_config_calibration_get_matrix(device, $0.baseAddress) } != 0
        return InputDeviceInfo(
            id: id, name: String(cString: libinput_device_get_name(device)),
            sysname: String(cString: libinput_device_get_sysname(device)),
            capabilities: caps.filter { libinput_device_has_capability(device, $0.1) != 0 }.map { $0.0 },
            isTouchscreen: touchscreen, widthMillimetres: hasSize ? w : nil, heightMillimetres: hasSize ? h : nil,
            calibration: calibrated ? matrix : nil)
    }
}
