// motionkiosk-bench dynamics: the kiosk500 scene (facts/physics.md) in our engine and in Box2D
// 2.4, same process, timed with sleeping off and with it on (600 steps: the pile is still
// settling, so sleeping saves what islands at rest cost); a run of each with sleeping on
// until everything sleeps tells when that happens. `--trajectories N` then times both engines
// (sleep off) on N starts nudged by micrometres: the pile is chaotic, and one start's time can
// sit well off the median one.
import CommandLineParser
import Geometry
import Dynamics
import CBox2DScene
import CFrameMarker

/// kiosk500 in screen pixels: 1 m = 100 px, y down (y_px = −100·y_m), so gravity is UIKit's
/// 1.0 (1000 px/s²) and the floor's top is y = 0. Angles flip sign with the mirror.
struct Kiosk500 {
    let world: DynamicsWorld
    var items: [ItemID] = []

    /// `nudge` 0 is the scene as specified; 1, 2, … start each body a few micrometres off along
    /// x (`kiosk500_nudge_m`, as the Box2D scene does): another trajectory of the same pile.
    init(sleeping: Bool, nudge: Int = 0) {
        world = DynamicsWorld(bounds: Rect(x: -1200, y: -3000, width: 2400, height: 3100), timeStep: 1.0 / 60, substeps: 4)
        world.sleepingEnabled = sleeping
        let gravity = GravityBehavior(), collision = CollisionBehavior(mode: .items)
        let material = ItemBehavior(), container = ItemBehavior()
        for m in [material, container] { m.friction = 0.6; m.elasticity = 0.2; m.density = 1 }
        container.isAnchored = true
        let floor = world.addItem(.rectangle(width: 2400, height: 100), center: Vec2(0, 50))
        let left = world.addItem(.rectangle(width: 100, height: 3000), center: Vec2(-1150, -1500))
        let right = world.addItem(.rectangle(width: 100, height: 3000), center: Vec2(1150, -1500))
        for wall in [floor, left, right] { collision.addItem(wall); container.addItem(wall) }
        for i in 0..<500 {
            let col = i % 20, row = i / 20
            var x = (-9.5 + Double(col) + 0.25 * Double(row % 2)) * 100
            if nudge > 0 { x += kiosk500_nudge_m(Int32(i), Int32(nudge)) * 100 }
            let y = -(1 + Double(row)) * 100
            let shape: ItemShape = i % 2 == 0 ? .circle(radius: 25) : .rectangle(width: 50, height: 50)
            let id = world.addItem(shape, center: Vec2(x, y), rotation: -0.1 * Double(i % 10))
            gravity.addItem(id); collision.addItem(id); material.addItem(id)
            items.append(id)
        }
        for b in [gravity, collision, material, container] { world.addBehavior(b) }
    }

    /// Every item's position, rotation and velocities, bit for bit (FNV-1a): the same on every
    /// CPU, or the engine is not deterministic there.
    var stateHash: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in items {
            guard let s = world.state(of: id) else { continue }
            for v in [s.center.x, s.center.y, s.rotation, s.velocity.x, s.velocity.y, s.angularVelocity] {
                hash = (hash ^ v.bitPattern) &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }

    /// Items outside the container: |x| > 11 m or below the floor.
    var escaped: Int {
        items.filter { id in
            let p = world.center(of: id)!
            return abs(p.x) > 1100 || p.y > 0 || !p.isFinite
        }.count
    }
}

/// The options, parsed and checked as the kiosk's own are (`CommandLineParser`).
private let dynamicsCommandLine = ToolSpec(name: "motionkiosk-bench", abstract: "Benchmarks that print one JSON line per result.",
                                           version: "", subcommands: [
    CommandSpec(name: "dynamics", abstract: "The kiosk500 scene in our engine and in Box2D 2.4.", options: [
        OptionSpec("steps", help: "Steps of every run.", defaultText: "600"),
        OptionSpec("repeats", help: "Timed runs of each engine; the best one counts.", defaultText: "5"),
        OptionSpec("nudge", help: "Trajectory K of the pile (0: the scene as specified), for --ours-only and --state-hash.", defaultText: "0"),
        OptionSpec("trajectories", help: "After the usual line, N nudged starts of both engines and their medians."),
        .flag("ours-only", help: "Our sleep-off runs alone, the best of --repeats."),
        .flag("state-hash", help: "Only where our engine leaves the scene, sleeping off and on."),
        .flag("counted", help: "Our engine once sleeping off, then once sleeping on, a frame marker before the first step and after each (per-step instruction counts under QEMU)."),
    ]),
])

func dynamicsBenchmark(_ arguments: [String]) -> Int32 {
    let command: ParsedCommand
    let steps: Int, repeats: Int, nudge: Int, trajectories: Int
    do throws(CommandLineError) {
        switch try dynamicsCommandLine.parse(["dynamics"] + arguments) {
        case .show(let text): print(text, terminator: ""); return 0
        case .run(let parsed): command = parsed
        }
        steps = try command.integer("steps", in: 1...1_000_000) ?? 600
        repeats = try command.integer("repeats", in: 1...1000) ?? 5
        nudge = try command.integer("nudge", in: 0...100) ?? 0
        trajectories = try command.integer("trajectories", in: 1...100) ?? 0
    } catch {
        FileHandleStderr.write("motionkiosk-bench dynamics: \(error.message)\n")
        return 2
    }

    // --state-hash: only where our engine leaves the scene, sleeping off and on (compared
    // across CPUs by board/cross/compare-cpus.sh).
    if command.flag("state-hash") {
        var hashes: [String] = []
        for sleeping in [false, true] {
            let scene = Kiosk500(sleeping: sleeping, nudge: nudge)
            for _ in 0..<steps { scene.world.step() }
            hashes.append(hex(scene.stateHash))
        }
        print("{\"bench\":\"dynamics_state\",\"scene\":\"kiosk500\",\"steps\":\(steps),\"state_hash\":\"\(hashes[0])\",\"sleeping_state_hash\":\"\(hashes[1])\"}")
        return 0
    }

    // --counted: each step's own instruction count under board/cross/frame-counts.c, set-up
    // outside them: the marker runs before a run's first step and after each step, so the
    // counter sees the sleep-off steps, one interval with the second scene's set-up, then the
    // sleep-on steps.
    if command.flag("counted") {
        for sleeping in [false, true] {
            let scene = Kiosk500(sleeping: sleeping, nudge: nudge)
            motionkiosk_frame_marker()
            for _ in 0..<steps {
                scene.world.step()
                motionkiosk_frame_marker()
            }
        }
        print("{\"bench\":\"dynamics_counted\",\"scene\":\"kiosk500\",\"steps\":\(steps),\"nudge\":\(nudge),\"runs\":\"sleeping off, then on\"}")
        return 0
    }

    /// One timed run of our engine: ms per step, and the scene as it was left.
    func timedRun(sleeping: Bool, nudge: Int = 0) -> (ms: Double, scene: Kiosk500) {
        let scene = Kiosk500(sleeping: sleeping, nudge: nudge)
        let start = monotonicSeconds()
        for _ in 0..<steps { scene.world.step() }
        return ((monotonicSeconds() - start) * 1000 / Double(steps), scene)
    }

    // --ours-only: our engine's best sleep-off run alone, for comparing builds of it (Box2D's
    // runs would double the time the comparison takes).
    if command.flag("ours-only") {
        var best = Double.infinity
        for _ in 0..<repeats { best = min(best, timedRun(sleeping: false, nudge: nudge).ms) }
        print("{\"bench\":\"dynamics_ours\",\"scene\":\"kiosk500\",\"steps\":\(steps),\"nudge\":\(nudge),\"ours_ms_per_step\":\(fmt(best))}")
        return 0
    }

    // Alternate the engines and keep each one's best run: the machine is shared.
    var ours = Double.infinity, box2d = Double.infinity
    var oursSleeping = Double.infinity, box2dSleeping = Double.infinity
    var escaped = 0, box2dEscaped: Int32 = 0, stateHash: UInt64 = 0
    for _ in 0..<repeats {
        for sleeping in [false, true] {
            let (ms, scene) = timedRun(sleeping: sleeping)
            var out: Int32 = 0
            let theirs = kiosk500_box2d_ms_per_step(Int32(steps), sleeping ? 1 : 0, 0, &out, nil)
            if sleeping {
                oursSleeping = min(oursSleeping, ms)
                box2dSleeping = min(box2dSleeping, theirs)
            } else {
                ours = min(ours, ms)
                box2d = min(box2d, theirs)
                escaped = scene.escaped
                stateHash = scene.stateHash
                box2dEscaped = out
            }
        }
    }

    let (asleepAt, sleepy) = firstAllAsleep(nudge: 0)
    var box2dOut: Int32 = 0, box2dAsleep = -1.0
    _ = kiosk500_box2d_ms_per_step(60 * 60, 1, 0, &box2dOut, &box2dAsleep)

    print("{\"bench\":\"dynamics\",\"scene\":\"kiosk500\",\"steps\":\(steps),\"ours_ms_per_step\":\(fmt(ours)),\"box2d_ms_per_step\":\(fmt(box2d)),\"ratio\":\(fmt(ours / box2d)),\"ours_sleeping_ms_per_step\":\(fmt(oursSleeping)),\"box2d_sleeping_ms_per_step\":\(fmt(box2dSleeping)),\"ratio_sleeping\":\(fmt(oursSleeping / box2dSleeping)),\"escaped\":\(escaped),\"box2d_escaped\":\(box2dEscaped),\"asleep_at_s\":\(fmt(asleepAt)),\"box2d_asleep_at_s\":\(fmt(box2dAsleep)),\"asleep_escaped\":\(sleepy.escaped),\"state_hash\":\"\(hex(stateHash))\"}")
    guard escaped == 0 else { return 1 }

    // --trajectories N: the pile is chaotic, and how long it takes depends on which way it
    // happens to fall. N nudged starts (sleep off) for both engines, each the best of two
    // runs; the medians say how far the scene as specified is typical.
    if trajectories > 0 {
        let n = trajectories
        var oursTimes: [Double] = [], theirTimes: [Double] = [], asleep: [Double] = []
        var nudgedEscaped = 0, neverAsleep = 0
        for nudge in 1...n {
            var ours = Double.infinity, theirs = Double.infinity
            // Bodies out of the container in this trajectory: the most any of its runs left out
            // (the two timed runs are the same run twice, the sleeping one another).
            var trajectoryEscaped = 0
            for _ in 0..<2 {
                let (ms, scene) = timedRun(sleeping: false, nudge: nudge)
                ours = min(ours, ms)
                trajectoryEscaped = max(trajectoryEscaped, scene.escaped)
                var out: Int32 = 0
                theirs = min(theirs, kiosk500_box2d_ms_per_step(Int32(steps), 0, Int32(nudge), &out, nil))
            }
            oursTimes.append(ours); theirTimes.append(theirs)
            // Ours only: Box2D 2.4 takes ~19 simulated seconds to sleep, too long to repeat.
            let (at, scene) = firstAllAsleep(nudge: nudge)
            nudgedEscaped += max(trajectoryEscaped, scene.escaped)
            if at < 0 { neverAsleep += 1 } else { asleep.append(at) }
        }
        oursTimes.sort(); theirTimes.sort(); asleep.sort()
        let asleepFigures = asleep.isEmpty ? "" : ",\"ours_asleep_at_s_median\":\(fmt(median(asleep))),\"ours_asleep_at_s_max\":\(fmt(asleep.last!))"
        let oursMedian = median(oursTimes), theirMedian = median(theirTimes)
        print("{\"bench\":\"dynamics_trajectories\",\"scene\":\"kiosk500\",\"steps\":\(steps),\"trajectories\":\(n),\"nudge_max_um\":3,\"ours_ms_per_step_median\":\(fmt(oursMedian)),\"ours_ms_per_step_min\":\(fmt(oursTimes.first!)),\"ours_ms_per_step_max\":\(fmt(oursTimes.last!)),\"box2d_ms_per_step_median\":\(fmt(theirMedian)),\"box2d_ms_per_step_min\":\(fmt(theirTimes.first!)),\"box2d_ms_per_step_max\":\(fmt(theirTimes.last!)),\"ratio_of_medians\":\(fmt(oursMedian / theirMedian))\(asleepFigures),\"ours_never_asleep\":\(neverAsleep),\"escaped\":\(nudgedEscaped)}")
        return nudgedEscaped == 0 && neverAsleep == 0 ? 0 : 1
    }
    return 0
}

/// The simulated time at which every body of the sleeping scene first sleeps (−1: not within a
/// minute), and the scene then.
private func firstAllAsleep(nudge: Int) -> (Double, Kiosk500) {
    let scene = Kiosk500(sleeping: true, nudge: nudge)
    for _ in 0..<(60 * 60) {
        scene.world.step()
        if scene.world.isPaused { return (scene.world.elapsedTime, scene) }
    }
    return (-1, scene)
}

/// The middle of sorted `values` (the mean of the two middle ones for an even count).
private func median(_ values: [Double]) -> Double {
    let n = values.count
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
}

/// Four decimals.
private func fmt(_ x: Double) -> String {
    let r = (x * 10_000).rounded() / 10_000
    return "\(r)"
}

/// Sixteen hex digits, without Foundation.
private func hex(_ v: UInt64) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int((v >> UInt64(shift)) & 0xF)]) }
    return text
}
