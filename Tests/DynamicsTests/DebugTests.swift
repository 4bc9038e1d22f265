import Testing
import Geometry
@testable import Dynamics

@Suite struct DebugTests {
    @Test func trace() {
        for g in [1.0, 10.0] {
            let (scene, balls, _) = QualityTests().cradle(lifted: 1)
            scene.gravity.magnitude = g
            var maxMid = 0.0, maxEnd = 0.0
            run(scene.world, steps: 120 * 8) { i in
                let v = balls.map { scene.world.velocity(of: $0)!.length }
                if i > 120 * 7 { maxMid = max(maxMid, v[1], v[2], v[3]); maxEnd = max(maxEnd, v[0], v[4]) }
            }
            print("g", g, "after 7 s: max middle speed", maxMid, "max end speed", maxEnd, scene.world.isPaused)
        }
    }
}
