// motionkiosk-bench frame: whole frames of an exhibit's heaviest case at 480×800, as the kiosk
// makes them: KioskApp advances the exhibit and draws its display list, SceneRenderer repaints
// the damage, and a VirtualPanel turned by 90° rotate-copies it into its scanout. The scene is
// built by touches through the app, as a visitor would build it, so the bench knows nothing of
// an exhibit's insides; the stand's frames are drawn meanwhile (BenchStage), so the measured
// frames find the renderer as a stand would.
//
//   motionkiosk-bench frame [--exhibit NAME]... [--frames N] [--size WxH] [--rotation 0|90|180|270] [--upright]
//   motionkiosk-bench frame --list    (the exhibits with a scene, one a line: every one by default)
// (--rotation: how the panel is mounted; 90 by default, 0 for a native portrait panel such
// as the 720×1280 Touch Display 2)
//
// Without --frames: timed, prints {"bench":"frame","exhibit":…,"ms_per_frame":…}.
// With --frames N: renders exactly N frames after the set-up, untimed, for
// `valgrind --tool=callgrind` (N = 0 measures the set-up alone; subtract it):
//   cp .build/release/motionkiosk-bench /tmp/bench && strip --strip-debug /tmp/bench
//   valgrind --tool=callgrind /tmp/bench frame --exhibit circle-draw --frames 0    # set-up
//   valgrind --tool=callgrind /tmp/bench frame --exhibit circle-draw --frames 60   # set-up + 60
//   instructions per frame = (second total − first total) / 60
// Under QEMU, board/cross/frame-counts.c gives each of the N frames' own count instead.
// (valgrind 3.19 gives up on the DWARF Swift 6.3 writes, hence the stripped copy; the symbol
// table stays, so callgrind_annotate still names functions.)
#if canImport(Glibc)
import Glibc
#endif
import CFrameMarker
import Diagnostics
import Exhibits
import Geometry
import Gestures
import KioskRuntime
import Platform
import Raster
import VisitorText

func frameBenchmark(_ arguments: [String]) -> Int32 {
    var names: [String] = []
    var fixedFrames: Int? = nil
    var width = 480, height = 800
    var upright = false
    var rotation = PanelRotation.r90
    var i = 0
    while i < arguments.count {
        let a = arguments[i]
        let value = i + 1 < arguments.count ? arguments[i + 1] : nil
        switch a {
        case "--list":
            // The exhibits with a scene, one a line: what scripts measure when given none.
            for exhibit in exhibitsWithBenchScenes { print(exhibit.name) }
            return 0
        case "--exhibit":
            guard let v = value else { return usage("--exhibit needs a name") }
            names.append(v); i += 2
        case "--frames":
            guard let v = value, let n = Int(v), n >= 0 else { return usage("--frames needs a count ≥ 0") }
            fixedFrames = n; i += 2
        case "--rotation":
            guard let r = BenchStage.rotation(value) else { return usage(BenchStage.rotationProblem) }
            rotation = r; i += 2
        case "--upright":
            upright = true; i += 1
        case "--size":
            guard let size = BenchStage.panelSize(value) else { return usage(BenchStage.sizeProblem) }
            width = size.width; height = size.height; i += 2
        default:
            return usage("unknown option '\(a)'")
        }
    }
    if names.isEmpty { names = exhibitsWithBenchScenes.map { $0.name } }
    returnFrameSizedBuffersWhenFreed()      // as the kiosk does (its memory is reported)

    // The fonts a stand with the default languages opens (their memory counts in rss_kb).
    let fonts: FontSet
    do { fonts = try FontSet(showing: TextBook().everyString) } catch {
        FileHandleStderr.write("frame: cannot load fonts: \(error)\n")
        return 1
    }
    var status: Int32 = 0
    for name in names {
        guard let exhibit = ExhibitRegistry.named(name) else {
            FileHandleStderr.write("frame: no exhibit named '\(name)' (exhibits: \(ExhibitRegistry.names.joined(separator: ", ")))\n")
            status = 1
            continue
        }
        let known = exhibitsWithBenchScenes.map { $0.name }.joined(separator: ", ")
        let frameCase: FrameCase
        switch exhibit.profile.benchScene {
        case .demo(let release, let what)?:
            frameCase = demoCase(exhibit, width: width, height: height, release: release, what: what)
        case .script(let script)?:
            guard let c = scriptedCase(script, exhibit: exhibit, width: width, height: height, upright: upright) else {
                FileHandleStderr.write("frame: \(name)'s benchmark script '\(script)' is not one the bench has\n")
                status = 2
                continue
            }
            frameCase = c
        case nil:
            FileHandleStderr.write("frame: no benchmark scene for exhibit '\(name)' (known: \(known))\n")
            status = 2
            continue
        }
        let result = runFrames(frameCase, width: width, height: height, rotation: rotation, fonts: fonts, fixedFrames: fixedFrames)
        print(result)
    }
    return status
}

private func usage(_ problem: String) -> Int32 {
    FileHandleStderr.write("frame: \(problem)\nusage: motionkiosk-bench frame [--list] [--exhibit NAME]... [--frames N] [--size WxH] [--rotation DEG] [--upright]\n")
    return 2
}

/// Builds the scene on a stage that draws the stand's frames meanwhile (set-up), then the
/// measured frames: the next 60 Hz moments, each drawn. Timed runs keep the best of three
/// passes over fresh scenes.
private func runFrames(_ frameCase: FrameCase, width: Int, height: Int, rotation: PanelRotation, fonts: FontSet, fixedFrames: Int?) -> String {
    func makeScene() -> BenchStage {
        var settings = KioskApp.Settings()
        settings.width = width
        settings.height = height
        settings.initialExhibit = frameCase.exhibit
        // A demo scene's exhibit is made as the attract loop makes it (its demo's seed).
        settings.playsDemo = true
        settings.idleTimeout = nil
        settings.attractAfter = nil
        let app = KioskApp(settings: settings, fonts: fonts, log: Log(minimum: .error), start: 0)
        // A panel mounted sideways by default, so every frame pays the rotate-copy as on a kiosk.
        let stage = BenchStage(app: app, fonts: fonts, width: width, height: height, rotation: rotation)
        stage.run(through: frameCase.build(stage, 100_000))
        return stage
    }

    if let frames = fixedFrames {
        let stage = makeScene()
        let p0 = itemPositions(stage.app)
        // Each frame's own instruction count, under board/cross/frame-counts.c: a marker
        // before the first frame and after each.
        motionkiosk_frame_marker()
        stage.marksFrames = true
        for _ in 0..<frames { stage.drawNextFrame() }
        let p1 = itemPositions(stage.app)
        let moved = p1.filter { p0[$0.key] != nil && p0[$0.key] != $0.value }.count
        // What the process holds after the frames and the most it held: one scene per
        // process gives the exhibit's figures (board/memory-x86.sh runs one per exhibit).
        let memory = #""rss_kb":\#(residentKilobytes()),"peak_rss_kb":\#(peakResidentKilobytes()),"still_layer_commands":\#(stage.renderer.layerCount)"#
        return #"{"bench":"frame","exhibit":"\#(frameCase.exhibit.name)","frames":\#(frames),\#(frameCase.describe(stage.app)),"moved":\#(moved),"width":\#(width),"height":\#(height),\#(memory)}"#
    }

    let frames = 60
    var best = Double.infinity
    var presented = 0
    var description = ""
    for _ in 0..<3 {
        let stage = makeScene()
        let before = stage.panel.presentedFrames
        let t0 = monotonicSeconds()
        for _ in 0..<frames { stage.drawNextFrame() }
        best = min(best, (monotonicSeconds() - t0) * 1000 / Double(frames))
        presented = stage.panel.presentedFrames - before
        description = frameCase.describe(stage.app)
    }
    // What moves in each measured frame, on a fresh scene outside the timing: in the first
    // and the last, the fewest and most in any one, and how many moved at all (the rest
    // stood still).
    var movingMin = Int.max, movingMax = 0, movingAtStart = 0, movingAtEnd = 0
    var everMoved = Set<Int>()
    do {
        let stage = makeScene()
        var before = itemPositions(stage.app)
        for k in 0..<frames {
            stage.drawNextFrame()
            let now = itemPositions(stage.app)
            let moving = now.filter { before[$0.key] != nil && before[$0.key] != $0.value }.map { $0.key }
            if k == 0 { movingAtStart = moving.count }
            movingAtEnd = moving.count
            movingMin = min(movingMin, moving.count)
            movingMax = max(movingMax, moving.count)
            everMoved.formUnion(moving)
            before = now
        }
    }
    let ms = (best * 1000).rounded() / 1000
    return #"{"bench":"frame","exhibit":"\#(frameCase.exhibit.name)","ms_per_frame":\#(ms),"frames":\#(frames),"presented":\#(presented),\#(description),"moving_first_frame":\#(movingAtStart),"moving_last_frame":\#(movingAtEnd),"moving_min":\#(movingMin),"moving_max":\#(movingMax),"moved_at_all":\#(everMoved.count),"width":\#(width),"height":\#(height),"rotation":\#(rotation.rawValue)}"#
}
