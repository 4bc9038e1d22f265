import Diagnostics
import Geometry
import Platform
import Syscalls

/// `motionkiosk pattern` once its flags are read: the installer's test pattern
/// (`TestPatternScene`) in a frame loop, on the stand's display, or on the virtual panel
/// where none can be driven (it says so); `frameFile` gets the first frame as a PNG.
public func testPatternSession(loop: EventLoop, clock: any Clock, seconds: Double?, frameFile: String?,
                               say: @escaping (String) -> Void) throws(KioskError) -> ScreenSession {
    var settings = FrameLoopSettings()
    settings.frameFile = frameFile
    settings.say = { say("pattern: \($0)") }
    settings.firstFrameLine = { "frame on screen, \(fixed1($0)) ms after main" }
    let frames = FrameLoop(loop: loop, clock: clock, log: Log(), content: TestPatternScene(say: say), settings: settings)
    do throws(SystemError) { try frames.leaveOnSignals(orAfter: seconds) } catch { throw KioskError("\(error)") }
    return ScreenSession(tool: "pattern", frames: frames, clock: clock, say: say)
}

extension ScreenSession {
    /// What the pattern says when it shows on the virtual panel.
    public static func patternOnVirtualPanel(_ panel: VirtualPanel, because reason: String) -> String {
        "showing the pattern on the virtual panel (\(panel.name)): \(reason)"
    }
}
