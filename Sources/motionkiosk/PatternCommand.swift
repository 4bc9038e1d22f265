import ArgumentParser
import Diagnostics
import Geometry
import KioskRuntime
import Platform
import Syscalls

struct Pattern: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a test pattern: grid, corner markers, an arrow to the portrait top, colour bars, a dot under every finger.",
        discussion: """
        Logs one line per touch change ("touch down id=0 x=240.0 y=400.0", portrait pixels), the \\
        gestures the gesture layer recognises ("gesture tap x=… y=…", "gesture pinch ended scale=…"), \\
        and "pattern: frame on screen" once the first frame has been flipped to the display. \\
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
        let say: (String) -> Void = { log($0) }
        var settings = FrameLoopSettings()
        settings.frameFile = frameFile
        settings.say = { say("pattern: \($0)") }
        settings.firstFrameLine = { "frame on screen, \(fixed1($0)) ms after main" }
        let frames = FrameLoop(loop: try EventLoop(), clock: clock, log: Log(), content: TestPatternScene(say: say), settings: settings)
        try frames.leaveOnSignals(orAfter: seconds)
        let display = displayOptions.settings
        let udev = try? LibUdev()
        let start: (any Display, TextConsole?) -> Void = { shown, console in
            do {
                try frames.start(display: shown, console: console)
                if !noInput { try frames.attachInput(LibInputSeat(seat: displayOptions.seat)) }
            } catch {
                say("pattern: no input (\(error))")
            }
        }
        var hotplug: DRMHotplugWait?
        switch try chooseDisplay(display, udev: udev, clock: clock) {
        case .drm(let drm):
            say("pattern: \(drm.name), \(drm.usesAtomic ? "atomic" : "legacy") modesetting")
            for note in drm.notes { say("pattern: \(note)") }
            start(drm, TextConsole(system: LinuxSystem.shared))
        case .waitForHotplug(let why):
            hotplug = try waitForDisplay(why, settings: display, udev: udev, loop: frames.loop, clock: clock,
                                         say: { say("pattern: \($0)") }, start: { start($0, TextConsole(system: LinuxSystem.shared)) })
        case .virtual(let reason):
            let panel = display.virtualPanel(clock: clock)
            say("pattern: showing the pattern on the virtual panel (\(panel.name)): \(reason)")
            start(panel, nil)
        }
        defer { _ = hotplug }
        try frames.run()
    }
}
