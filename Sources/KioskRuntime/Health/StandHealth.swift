#if canImport(Glibc)
import Glibc
#endif
import Exhibits
import Geometry
import OpeningHours
import Syscalls

/// What a technician's dashboard needs to know about one stand, gathered by the frame loop
/// and written as Prometheus metrics (`motionkiosk_…`) for node_exporter's textfile
/// collector: no port is opened.
public final class StandHealth {
    /// Frame-time histogram bounds, seconds: from well inside a 60 Hz frame to a stall.
    public static let frameTimeBounds = [0.001, 0.002, 0.004, 0.008, 0.0167, 0.033, 0.1, 0.25, 1.0]

    struct TouchDevice { var name: String; var lastTouch: Microseconds? }

    private var frameBuckets = [Int](repeating: 0, count: StandHealth.frameTimeBounds.count)
    private var frames = 0
    private var frameSeconds = 0.0
    var startToFirstFrameSeconds: Double?
    var displayOn = false
    /// Page flips whose completion never came (each time the mode was set again).
    var flipsLost = 0
    /// Scanout buffers the DRM display made (fewer than asked when memory was short); nil on
    /// the virtual panel.
    public var scanoutBuffers: Int?
    /// Times the display's screen went away (unplugged, switched off) while the kiosk ran.
    var screenLosses = 0
    /// Phantom taps the touch panel made and the kiosk ignored (`PhantomTapFilter`).
    var phantomTaps = 0
    /// The process's resident memory when the metrics are written, KiB (0: unknown).
    var residentKilobytes = 0
    /// The process's start, seconds since 1970 (wall clock, read once).
    let processStartTime: Double
    private var touchDevices: [Int: TouchDevice] = [:]
    /// From a touch to the glass showing what it did.
    public internal(set) var touchToPhoton = TouchToPhoton()
    /// Whether the wall clock can be trusted (`motionkiosk_clock_trusted`); nil: not reported.
    public var clock: ClockTrust?
    /// The accelerometer's stuck-sample count when the file was last written.
    private var stuckSamplesBefore = 0

    public init(processStartTime: Double) { self.processStartTime = processStartTime }

    func frame(took: Microseconds) {
        let seconds = Double(max(0, took)) / 1_000_000
        frames += 1
        frameSeconds += seconds
        for (i, bound) in StandHealth.frameTimeBounds.enumerated() where seconds <= bound { frameBuckets[i] += 1 }
    }

    func deviceAdded(_ info: InputDeviceInfo) {
        guard info.capabilities.contains(.touch) else { return }
        touchDevices[info.id] = TouchDevice(name: info.name, lastTouch: touchDevices[info.id]?.lastTouch)
    }
    func deviceRemoved(_ id: Int) { touchDevices[id] = nil }
    func touchDown(device: Int, at time: Microseconds) {
        if touchDevices[device] == nil { touchDevices[device] = TouchDevice(name: "device \(device)", lastTouch: nil) }
        touchDevices[device]?.lastTouch = time
    }

    /// The accelerometer as the metrics show it.
    public struct Accelerometer {
        public var present: Bool
        public var dropped: [String: Int]
        public var stuckSamples: Int
        /// Since the sensor last gave a sample (or was opened); nil while none is present.
        public var secondsSinceSample: Double?
        public init(present: Bool, dropped: [String: Int], stuckSamples: Int, secondsSinceSample: Double? = nil) {
            self.present = present; self.dropped = dropped; self.stuckSamples = stuckSamples
            self.secondsSinceSample = secondsSinceSample
        }
    }

    /// The metrics file's text at `now` (monotonic µs, the clock touches were stamped with).
    public func metrics(now: Microseconds, visitors: VisitorCounts?, accelerometer: Accelerometer?) -> String {
        var p = PrometheusText()
        p.family("motionkiosk_process_start_time_seconds", .gauge, help: "When the kiosk process started, seconds since 1970.")
        p.sample("motionkiosk_process_start_time_seconds", [], processStartTime)
        p.family("motionkiosk_display_on", .gauge, help: "1 while the display shows the kiosk, 0 while it is off or lost.")
        p.sample("motionkiosk_display_on", [], displayOn ? 1 : 0)
        if let clock {
            p.family("motionkiosk_clock_trusted", .gauge,
                     help: "1 when the wall clock is synchronised or was set from a real-time clock at boot; 0 while the opening hours wait for it.")
            p.sample("motionkiosk_clock_trusted", [], clock.isTrusted(at: now) ? 1 : 0)
        }
        p.family("motionkiosk_display_flips_lost_total", .counter,
                 help: "Page flips whose completion never came within a second; the kiosk set the mode again each time.")
        p.sample("motionkiosk_display_flips_lost_total", [], Double(flipsLost))
        if let buffers = scanoutBuffers {
            p.family("motionkiosk_display_scanout_buffers", .gauge,
                     help: "Scanout buffers the display cycles through; 1 when the kernel had no memory for more (frames may tear).")
            p.sample("motionkiosk_display_scanout_buffers", [], Double(buffers))
        }
        p.family("motionkiosk_display_screen_lost_total", .counter,
                 help: "Times the screen went away (HDMI unplugged, monitor off) while the kiosk ran; it ran dark until the screen came back.")
        p.sample("motionkiosk_display_screen_lost_total", [], Double(screenLosses))
        p.family("motionkiosk_touch_phantom_total", .counter,
                 help: "Phantom taps ignored: a panel's quiet taps repeating at one spot on a steady period.")
        p.sample("motionkiosk_touch_phantom_total", [], Double(phantomTaps))
        p.family("motionkiosk_resident_memory_bytes", .gauge,
                 help: "The kiosk process's resident memory: it should stay flat over months.")
        p.sample("motionkiosk_resident_memory_bytes", [], residentKilobytes > 0 ? Double(residentKilobytes) * 1024 : .nan)
        p.family("motionkiosk_start_to_first_frame_seconds", .gauge, help: "From the loop's start to the first frame on the glass.")
        p.sample("motionkiosk_start_to_first_frame_seconds", [], startToFirstFrameSeconds ?? .nan)
        p.family("motionkiosk_frames_total", .counter, help: "Frames drawn and handed to the display.")
        p.sample("motionkiosk_frames_total", [], Double(frames))
        p.family("motionkiosk_frame_time_seconds", .histogram, help: "Time to draw and present one frame.")
        p.histogram("motionkiosk_frame_time_seconds", bounds: StandHealth.frameTimeBounds, cumulative: frameBuckets,
                    sum: frameSeconds, count: frames)

        p.family("motionkiosk_touch_to_photon_seconds", .histogram,
                 help: "From a touch frame's kernel time to the page flip that showed the first frame drawn after it.")
        p.histogram("motionkiosk_touch_to_photon_seconds", bounds: TouchToPhoton.bounds, cumulative: touchToPhoton.buckets,
                    sum: touchToPhoton.sumSeconds, count: touchToPhoton.count)

        p.family("motionkiosk_touch_device_seconds_since_touch", .gauge,
                 help: "Seconds since a finger last went down on this touchscreen (NaN: none since start).")
        for (_, d) in touchDevices.sorted(by: { $0.key < $1.key }) {
            p.sample("motionkiosk_touch_device_seconds_since_touch", [("device", d.name)],
                     d.lastTouch.map { Double(max(0, now - $0)) / 1_000_000 } ?? .nan)
        }
        p.family("motionkiosk_touch_devices", .gauge, help: "Touchscreens the kiosk reads now.")
        p.sample("motionkiosk_touch_devices", [], Double(touchDevices.count))

        if let v = visitors {
            p.family("motionkiosk_exhibit_shown", .gauge, help: "1 for what is on the screen now (launcher, an exhibit).")
            for name in v.screens { p.sample("motionkiosk_exhibit_shown", [("exhibit", name)], name == v.showing ? 1 : 0) }
            p.family("motionkiosk_touches_total", .counter, help: "Fingers that went down, by exhibit.")
            for name in v.screens { p.sample("motionkiosk_touches_total", [("exhibit", name)], Double(v.touches[name] ?? 0)) }
            p.family("motionkiosk_sessions_total", .counter, help: "Times visitors opened each exhibit.")
            for name in v.exhibits { p.sample("motionkiosk_sessions_total", [("exhibit", name)], Double(v.sessions[name] ?? 0)) }
            p.family("motionkiosk_idle_resets_total", .counter, help: "Returns to the launcher (or resets) after nobody played.")
            p.sample("motionkiosk_idle_resets_total", [], Double(v.idleResets))
            p.family("motionkiosk_attract_conversions_total", .counter, help: "Attract-loop demos a visitor stopped by touching.")
            p.sample("motionkiosk_attract_conversions_total", [], Double(v.attractConversions))
            p.family("motionkiosk_stuck_touches", .gauge, help: "Fingers held still longer than [touch] stuck_seconds (default 10 min), dropped until they lift: a stuck contact or a leaning object.")
            p.sample("motionkiosk_stuck_touches", [], Double(v.stuckTouches))
        }

        if let a = accelerometer {
            p.family("motionkiosk_accelerometer_present", .gauge, help: "1 while an accelerometer gives tilt, 0 while fixed gravity stands in.")
            p.sample("motionkiosk_accelerometer_present", [], a.present ? 1 : 0)
            p.family("motionkiosk_accelerometer_stuck", .gauge, help: "1 when the accelerometer repeated the same reading since the last write.")
            p.sample("motionkiosk_accelerometer_stuck", [], a.stuckSamples > stuckSamplesBefore ? 1 : 0)
            stuckSamplesBefore = a.stuckSamples
            p.family("motionkiosk_accelerometer_seconds_since_sample", .gauge,
                     help: "Seconds since the accelerometer last gave a sample (NaN: none present); tilt freezes when it stops.")
            p.sample("motionkiosk_accelerometer_seconds_since_sample", [], a.secondsSinceSample ?? .nan)
            p.family("motionkiosk_accelerometer_dropped_samples_total", .counter, help: "Samples refused, by reason.")
            for reason in a.dropped.keys.sorted() {
                p.sample("motionkiosk_accelerometer_dropped_samples_total", [("reason", reason)], Double(a.dropped[reason] ?? 0))
            }
        }
        return p.text
    }
}
