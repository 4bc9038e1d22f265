// motionkiosk-bench visit: the frames of a whole scripted visit (VisitTrace: every tile opened
// and played, home, the language switched twice, the idle reset, the attract loop and the
// touch that ends it), made as the kiosk makes them: the trace's touches go to KioskApp at
// their times as in a replay, and a frame is drawn at each 60 Hz moment while something moves,
// and at the moment of a touch, a checkpoint or a deadline when nothing does (a kiosk at rest
// draws nothing). SceneRenderer repaints the damage and a VirtualPanel turned as asked
// rotate-copies it into its scanout.
//
//   motionkiosk-bench visit [--size WxH] [--rotation 0|90|180|270] [--demo-seconds S] [--languages a,b,c]
//
// The frame marker runs once when the visit starts and once after each frame, so that an
// instruction counter splitting at it (board/cross/frame-counts.c under QEMU) gets each
// frame's own count. At the end one JSON line names the steps and the first frame of each:
//   {"bench":"visit","frames":N,…,"steps":[{"name":"open tilt-maze","first_frame":312},…]}
// (--demo-seconds: how much of each exhibit's demo is played, 3 by default, 0 for all of it;
// --languages: the stand's languages, en,ar,ja by default: Latin, Arabic, Japanese.)
import CFrameMarker
import Diagnostics
import Exhibits
import Geometry
import Gestures
import KioskRuntime
import Platform
import Raster
import Trace
import VisitorText

func visitBenchmark(_ arguments: [String]) -> Int32 {
    var width = 480, height = 800
    var rotation = PanelRotation.r90
    var demoSeconds: Double? = 3
    var languages = ["en", "ar", "ja"]
    var i = 0
    while i < arguments.count {
        let a = arguments[i]
        let value = i + 1 < arguments.count ? arguments[i + 1] : nil
        switch a {
        case "--size":
            guard let size = BenchStage.panelSize(value) else { return visitUsage(BenchStage.sizeProblem) }
            width = size.width; height = size.height; i += 2
        case "--rotation":
            guard let r = BenchStage.rotation(value) else { return visitUsage(BenchStage.rotationProblem) }
            rotation = r; i += 2
        case "--demo-seconds":
            guard let v = value, let s = Double(v), s >= 0, s <= 600 else { return visitUsage("--demo-seconds needs seconds, 0…600 (0: whole demos)") }
            demoSeconds = s == 0 ? nil : s; i += 2
        case "--languages":
            let codes = value?.split(separator: ",").map { String($0) } ?? []
            guard !codes.isEmpty, codes.allSatisfy({ code in Language.shipped.contains { $0.code == code } }) else {
                return visitUsage("--languages needs shipped codes separated by commas (\(Language.shipped.map { $0.code }.joined(separator: ",")))")
            }
            languages = codes; i += 2
        default:
            return visitUsage("unknown option '\(a)'")
        }
    }
    returnFrameSizedBuffersWhenFreed()      // as the kiosk does

    var settings = KioskApp.Settings()
    settings.width = width
    settings.height = height
    settings.languages = languages
    // The trace is laid out on fonts of its own: the kiosk's must not have shaped any text
    // before its first frame, as on a stand that just started.
    let fonts: FontSet, layoutFonts: FontSet
    do {
        fonts = try FontSet(showing: TextBook(languages: languages).everyString)
        layoutFonts = try FontSet(showing: TextBook(languages: languages).everyString)
    } catch {
        FileHandleStderr.write("visit: cannot load fonts: \(error)\n")
        return 1
    }
    let records = VisitTrace.records(settings: settings, fonts: layoutFonts, demoSeconds: demoSeconds)
    // The trace's touches as the replay turns them into frames, and its checkpoints.
    let touches: [Geometry.TouchFrame] = TraceRecord.touchFrames(records).map { frame in
        let time = Microseconds((frame.t * 1000).rounded())
        return Geometry.TouchFrame(time: time, events: frame.touches.map {
            TouchEvent(slot: $0.id, phase: $0.phase, position: Vec2($0.x, $0.y), time: time)
        })
    }
    var checkpoints: [(time: Microseconds, name: String)] = []
    for r in records { if case .checkpoint(let name) = r.payload { checkpoints.append((Microseconds((r.t * 1000).rounded()), name)) } }

    let app = KioskApp(settings: settings, fonts: fonts, log: Log(minimum: .error), start: 0)
    let stage = BenchStage(app: app, fonts: fonts, width: width, height: height, rotation: rotation)
    var steps: [(name: String, firstFrame: Int)] = []
    steps.reserveCapacity(checkpoints.count)
    motionkiosk_frame_marker()
    stage.marksFrames = true
    var nextTouch = 0, nextCheckpoint = 0
    // Touches and checkpoints in time order (a checkpoint first at a tie: it names the frame
    // its touch brings).
    while nextTouch < touches.count || nextCheckpoint < checkpoints.count {
        if nextCheckpoint < checkpoints.count, nextTouch == touches.count || checkpoints[nextCheckpoint].time <= touches[nextTouch].time {
            stage.run(until: checkpoints[nextCheckpoint].time)
            steps.append((checkpoints[nextCheckpoint].name, stage.frames))
            nextCheckpoint += 1
        } else {
            stage.handle(touches[nextTouch])
            nextTouch += 1
        }
    }
    stage.drawNextFrame()
    let frames = stage.frames
    let list = steps.map { #"{"name":"\#($0.name)","first_frame":\#($0.firstFrame)}"# }.joined(separator: ",")
    print(#"{"bench":"visit","width":\#(width),"height":\#(height),"rotation":\#(rotation.rawValue),"languages":"\#(languages.joined(separator: ","))","demo_seconds":\#(demoSeconds ?? 0),"frames":\#(frames),"visit_ms":\#(stage.nextFrameTime / 1000),"steps":[\#(list)]}"#)
    return 0
}

private func visitUsage(_ problem: String) -> Int32 {
    FileHandleStderr.write("visit: \(problem)\nusage: motionkiosk-bench visit [--size WxH] [--rotation DEG] [--demo-seconds S] [--languages a,b,c]\n")
    return 2
}
