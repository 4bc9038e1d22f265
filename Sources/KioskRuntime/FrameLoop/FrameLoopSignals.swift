#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Geometry
import Platform
import Syscalls

/// The signals a running kiosk takes through its loop, so that none can end the process
/// with the console still in graphics mode (a closed SSH session sends SIGHUP; Ctrl-\ sends
/// SIGQUIT).
extension FrameLoop {
    /// The signals that end the loop cleanly.
    public static let leavingSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]
    /// Every signal the loop takes (`EventLoop.holdSignals` them from the very start).
    public static let handledSignals: [Int32] = leavingSignals + [SIGUSR1, SIGUSR2]

    /// Ends the loop on SIGTERM, SIGINT, SIGHUP or SIGQUIT (saying which), and after `seconds`
    /// if given; on SIGUSR1 says how it is doing, dumps the black box and goes on; on SIGUSR2
    /// writes a screenshot; on SIGHUP reloads instead when `onReload` is set.
    public func leaveOnSignals(orAfter seconds: Double? = nil) throws(SystemError) {
        try loop.onSignals(FrameLoop.handledSignals) { [unowned(unsafe) self] signal in
            if signal == SIGUSR1 {
                self.say("SIGUSR1: " + self.statusLine())
                self.tap.dumpAskedFor(screen: self.display?.backBuffer)
                return
            }
            if signal == SIGUSR2 {
                self.housekeeping.writeScreenshot(of: self.display)
                return
            }
            if signal == SIGHUP, let reload = self.onReload {
                reload()
                return
            }
            self.say("\(FrameLoop.signalName(signal)): leaving")
            self.loop.stop()
        }
        guard let seconds, seconds.isFinite, seconds >= 0 else { return }
        let timer = try loop.addTimer { [unowned(unsafe) self] in self.loop.stop() }
        try timer.arm(after: Microseconds(min(seconds, 1e9) * 1e6))
        keepAlive.append(timer)
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }

    /// What a technician asking with SIGUSR1 learns: what is showing, frames and touches since
    /// start, the display and the memory in use.
    func statusLine() -> String {
        let seconds = Double(clock.now - started) / 1_000_000
        var line = "showing \(content.summaryName), \(framesPresented) frames, \(touchesSeen) touches in \(fixed1(seconds)) s"
        if let display { line += ", on \(display.name)" }
        if let latency = health.touchToPhoton.summary { line += ", " + latency }
        return line + ", RSS \(residentKilobytes() / 1024) MB"
    }
}
