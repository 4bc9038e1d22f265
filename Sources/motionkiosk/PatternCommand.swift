#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Geometry
import Gestures
import Platform
import Raster
import Syscalls

struct Pattern: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a test pattern: grid, corner markers, an arrow to the portrait top, colour bars, a dot under every finger.",
        discussion: """
        Logs one line per touch change ("touch down id=0 x=240.0 y=400.0", portrait pixels), the \
        gestures the gesture layer recognises ("gesture tap x=… y=…", "gesture pinch ended scale=…"), \
        and "pattern: frame on screen" once the first frame has been flipped to the display. \
        Leaves on Escape, SIGTERM, SIGINT or after --seconds, and gives the console back.
        """)

    @OptionGroup var displayOptions: DisplayOptions

    @Option(help: "Leave after this many seconds (default: run until Escape, SIGTERM or SIGINT).")
    var seconds: Double?

    @Option(help: "Once the first frame is on screen, write the portrait frame to this file (binary PPM).")
    var frameFile: String?

    @Flag(help: "Do not open input devices.")
    var noInput = false

    func run() throws {
        let clock = MonotonicClock()
        let started = clock.now
        let loop = try EventLoop()
        let udev = try? LibUdev()
        let session = PatternSession(loop: loop, clock: clock, started: started, frameFile: frameFile,
                                     seat: displayOptions.seat, input: !noInput)
        // However the run ends (signal, Escape, an error), the console comes back.
        defer { session.finish(wakeups: loop.wakeups) }
        if let timer = try leaveOnSignals(loop, orAfter: seconds, say: { log("pattern: \($0)") }) {
            session.keepAlive.append(timer)
        }

        var hotplug: DRMHotplugWait?
        switch try chooseDisplay(displayOptions, udev: udev, clock: clock) {
        case .drm(let display):
            try session.start(drm: display)
        case .waitForHotplug(let why):
            hotplug = try waitForDisplay(why, options: displayOptions, udev: udev, loop: loop, clock: clock,
                                         say: { log("pattern: \($0)") }, start: session.start(drm:))
        case .virtual(let reason):
            let panel = displayOptions.virtualPanel()
            log("pattern: showing the pattern on the virtual panel (\(panel.name)): \(reason)")
            try session.start(virtual: panel)
        }
        defer { _ = hotplug }

        try loop.run()
    }
}

/// The running pattern: display, console, touch input, and the frames they cause.
final class PatternSession {
    let loop: EventLoop
    let clock: MonotonicClock
    let started: Microseconds
    let frameFile: String?
    let seat: String
    let wantsInput: Bool
    var keepAlive: [AnyObject] = []

    private var display: (any Display)?
    /// Set when the display is a DRM scanout: flip events, pacing by the mode, the console.
    private var drm: DumbBufferDisplay?
    /// Pacing of the virtual panel, which has no flips: 60 frames a second at most.
    private var virtualPacing = FramePacing(refreshMilliHertz: 60_000)
    private var framesShown = 0
    private var console: TextConsole?
    private var input: TouchInput?
    private var pattern = TestPattern(width: 1, height: 1)
    private var damage: [PixelRect] = []
    private var paceTimer: LoopTimer?
    private var firstFrameLogged = false
    private var finished = false
    private let gestures = GestureEnvironment()
    private var gestureTimer: LoopTimer?

    init(loop: EventLoop, clock: MonotonicClock, started: Microseconds, frameFile: String?, seat: String, input: Bool) {
        self.loop = loop; self.clock = clock; self.started = started; self.frameFile = frameFile
        self.seat = seat; wantsInput = input
    }

    func start(drm display: DumbBufferDisplay) throws {
        drm = display
        log("pattern: \(display.name), \(display.usesAtomic ? "atomic" : "legacy") modesetting")
        for note in display.notes { log("pattern: \(note)") }
        console = TextConsole(system: LinuxSystem.shared)
        if let note = console?.note { log("pattern: \(note)") }
        try loop.addReader(display.fd) { [unowned self] in self.flipEventsReady() }
        try start(display)
    }

    func start(virtual panel: VirtualPanel) throws {
        try start(panel)
    }

    private func start(_ display: any Display) throws {
        self.display = display
        let screen = display.screen
        pattern = TestPattern(width: screen.portraitWidth, height: screen.portraitHeight)
        pattern.draw(into: display.backBuffer, clip: display.backBuffer.bounds)
        damage = [display.backBuffer.bounds]
        paceTimer = try loop.addTimer { [unowned self] in self.frameWanted() }
        setUpGestures()
        gestureTimer = try loop.addTimer { [unowned self] in
            self.gestures.advance(to: self.clock.now)
            self.armGestureTimer()
        }
        if wantsInput {
            do {
                let source = try LibInputSeat(seat: seat)
                input = try TouchInput(source: source, screen: screen, loop: loop) { [unowned self] in self.handle($0) }
            } catch {
                log("pattern: no input (\(error))")
            }
        }
        frameWanted()
    }

    func finish(wakeups: Int) {
        guard display != nil, !finished else { return }
        finished = true
        if let drm {
            let notesBefore = drm.notes.count
            drm.restore()
            console?.restore()
            for note in drm.notes.dropFirst(notesBefore) { log("pattern: \(note)") }
            log("pattern: console restored, \(wakeups) wakeups")
        } else {
            log("pattern: done, \(wakeups) wakeups")
        }
    }

    /// A tap and a pinch anywhere on the screen, logged for the installer and the board test.
    private func setUpGestures() {
        gestures.add(TapGestureRecognizer { tap in
            log("gesture tap x=\(fixed1(tap.location.x)) y=\(fixed1(tap.location.y))")
        })
        gestures.add(PinchGestureRecognizer { pinch in
            guard pinch.state != .changed else { return }
            log("gesture pinch \(pinch.state) scale=\(fixed2(pinch.scale)) x=\(fixed1(pinch.location.x)) y=\(fixed1(pinch.location.y))")
        })
    }

    /// The gesture layer's next deadline (a lift confirmed, a tap that waited in vain) on the loop.
    private func armGestureTimer() {
        guard let due = gestures.nextDeadline else { gestureTimer?.disarm(); return }
        try? gestureTimer?.arm(after: max(1, due - clock.now))
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .touches(let frame):
            gestures.handle(frame)
            let touches = frame.events
            armGestureTimer()
            for t in touches {
                log("touch \(t.phase == .move ? "motion" : t.phase.rawValue) id=\(t.slot) x=\(fixed1(t.position.x)) y=\(fixed1(t.position.y))")
                if let old = pattern.fingers[t.slot] { damage.append(pattern.dotRect(old)) }
                if t.phase == .down || t.phase == .move {
                    pattern.fingers[t.slot] = t.position
                    damage.append(pattern.dotRect(t.position))
                } else {
                    pattern.fingers[t.slot] = nil
                }
            }
            log("touch frame")
            frameWanted()
        case .key(let k):
            guard k.pressed, let command = k.command else { return }
            log("key \(command)")
            if command == .leave { loop.stop() }
        case .deviceAdded(let info):
            log("input added id=\(info.id) \(info.sysname) \"\(info.name)\" \(info.capabilities.map(\.rawValue).joined(separator: ","))\(info.isTouchscreen ? " touchscreen" : "")")
        case .permissionDenied(let path):
            log("pattern: \(InputEvent.permissionMessage(path))")
        case .deviceRemoved(let id):
            log("input removed id=\(id)")
            gestures.deviceRemoved(id, at: clock.now)
            armGestureTimer()
        }
    }

    /// Draws and presents when the pacing allows; otherwise the flip event or the timer calls again.
    private func frameWanted() {
        guard let display, !damage.isEmpty else { return }
        switch drm?.frameDecision() ?? virtualPacing.decide(now: clock.now) {
        case .waitForFlip:
            return
        case .waitUntil(let t):
            try? paceTimer?.arm(after: t - clock.now)
            return
        case .submitNow:
            break
        }
        let rects = damage
        damage = []
        for r in rects { pattern.draw(into: display.backBuffer, clip: r) }
        do {
            try display.present(damage: rects)
        } catch {
            log("pattern: \(error)")
            loop.stop()
            return
        }
        if let drm {
            framesShown = drm.framesShown
        } else {
            virtualPacing.submitted(at: clock.now, awaitingFlip: false)
            framesShown += 1
        }
        firstFrameOnScreen()
    }

    private func flipEventsReady() {
        guard let drm else { return }
        do { try drm.readFlipEvents() } catch { log("pattern: \(error)"); loop.stop(); return }
        framesShown = drm.framesShown
        firstFrameOnScreen()
        frameWanted()
    }

    private func firstFrameOnScreen() {
        guard let display, !firstFrameLogged, framesShown > 0 else { return }
        firstFrameLogged = true
        let sinceMain = Double(clock.now - started) / 1000
        var line = "pattern: frame on screen, \(fixed1(sinceMain)) ms after main"
        if let sinceStart = millisecondsSinceProcessStart() { line += ", \(fixed1(sinceStart)) ms after process start" }
        if let frameFile {
            do {
                try writePPM(display.backBuffer, to: frameFile)
                line += ", frame written to \(frameFile)"
            } catch {
                line += ", writing \(frameFile) failed: \(error)"
            }
        }
        log(line)
    }
}

func fixed2(_ v: Double) -> String {
    let hundredths = Int((v * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let frac = abs(hundredths) % 100
    return "\(sign)\(abs(hundredths) / 100).\(frac < 10 ? "0" : "")\(frac)"
}

func fixed1(_ v: Double) -> String {
    let tenths = Int((v * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
}

/// Process age from /proc (start time in clock ticks since boot vs. uptime), 10 ms resolution.
func millisecondsSinceProcessStart() -> Double? {
    guard let stat = try? LinuxSystem.shared.readSmallFile("/proc/self/stat"),
          let uptime = try? LinuxSystem.shared.readSmallFile("/proc/uptime"),
          let close = stat.lastIndex(of: ")") else { return nil }
    // Fields after the command name: state is field 3, starttime field 22.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 19, let ticks = Double(fields[19]),
          let up = Double(uptime.split(separator: " ").first ?? "") else { return nil }
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (up - ticks / hz) * 1000
}

/// Binary PPM (P6) of an XRGB8888 buffer: what the board test compares with the screendump.
func writePPM(_ buffer: PixelBuffer, to path: String) throws {
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
    var offset = 0
    while offset < bytes.count {
        let n = try bytes.withUnsafeBytes { try system.write(fd, from: UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        if n <= 0 { throw SystemError(errno: EIO, attempt: "write \(path)") }
        offset += n
    }
}
