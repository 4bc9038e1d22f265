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
            let parts = value?.split(separator: "x").compactMap { Int($0) } ?? []
            guard parts.count == 2, (64...8192).contains(parts[0]), (64...8192).contains(parts[1]) else { return visitUsage("--size needs WxH, each side 64…8192, e.g. 480x800") }
            width = parts[0]; height = parts[1]; i += 2
        case "--rotation":
            guard let v = value, let degrees = Int(v), let r = PanelRotation(rawValue: degrees) else { return visitUsage("--rotation needs 0, 90, 180 or 270") }
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
    let panel = VirtualPanel(screen: ScreenTransform(portraitWidth: width, portraitHeight: height, rotation: rotation))
    let renderer = SceneRenderer(canvas: Canvas(buffer: panel.backBuffer), fonts: fonts)
    var steps: [(name: String, firstFrame: Int)] = []
    steps.reserveCapacity(checkpoints.count)
    func moment(_ k: Int) -> Microseconds { Microseconds(k) * 1_000_000 / 60 }
    var k = 0, nextTouch = 0, nextCheckpoint = 0, frames = 0
    motionkiosk_frame_marker()
    while frames < 200_000 {
        let now = moment(k)
        while nextTouch < touches.count, touches[nextTouch].time <= now {
            app.handle(touches[nextTouch])
            nextTouch += 1
        }
        app.advance(to: now)
        while nextCheckpoint < checkpoints.count, checkpoints[nextCheckpoint].time <= now {
            steps.append((checkpoints[nextCheckpoint].name, frames))
            nextCheckpoint += 1
        }
        let damage = app.render(with: renderer)
        if !damage.isEmpty { try? panel.present(damage: damage) }
        motionkiosk_frame_marker()
        frames += 1
        if nextTouch == touches.count, nextCheckpoint == checkpoints.count { break }
        // At rest, the next frame is at the next touch, checkpoint or deadline.
        k += 1
        if !app.isAnimating {
            var wake = earliestMoment(nextTouch < touches.count ? touches[nextTouch].time : nil,
                                      nextCheckpoint < checkpoints.count ? checkpoints[nextCheckpoint].time : nil)
            if let due = app.nextDeadline { wake = earliestMoment(wake, due) }
            if let wake, wake > moment(k) {
                k = Int(wake * 60 / 1_000_000)
                while moment(k) < wake { k += 1 }
            }
        }
    }
    let list = steps.map { #"{"name":"\#($0.name)","first_frame":\#($0.firstFrame)}"# }.joined(separator: ",")
    print(#"{"bench":"visit","width":\#(width),"height":\#(height),"rotation":\#(rotation.rawValue),"languages":"\#(languages.joined(separator: ","))","demo_seconds":\#(demoSeconds ?? 0),"frames":\#(frames),"visit_ms":\#(moment(k) / 1000),"steps":[\#(list)]}"#)
    return 0
}

private func earliestMoment(_ a: Microseconds?, _ b: Microseconds?) -> Microseconds? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}

private func visitUsage(_ problem: String) -> Int32 {
    FileHandleStderr.write("visit: \(problem)\nusage: motionkiosk-bench visit [--size WxH] [--rotation DEG] [--demo-seconds S] [--languages a,b,c]\n")
    return 2
}
