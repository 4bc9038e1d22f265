import Testing
import Geometry
@testable import Dynamics

@Suite struct DiscWorldTests {
    static let area = Rect(x: 0, y: 0, width: 480, height: 720)
    static let down = Vec2(0, 1)

    /// Steps until every disc rests (at most `seconds`); returns the steps taken.
    @discardableResult
    func settle(_ world: inout DiscWorld, gravity: Vec2 = down, seconds: Double = 20) -> Int {
        let limit = Int(seconds / world.tuning.stepSeconds)
        var n = 0
        while world.awakeCount > 0 && n < limit { world.step(gravity: gravity); n += 1 }
        return n
    }

    func inside(_ world: DiscWorld, _ i: Int) -> Bool {
        let r = world.radius[i], a = world.area
        return world.px[i] - r >= a.minX - 1e-9 && world.px[i] + r <= a.maxX + 1e-9
            && world.py[i] - r >= a.minY - 1e-9 && world.py[i] + r <= a.maxY + 1e-9
    }

    @Test func aDroppedDiscComesToRestOnTheFloor() {
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1)
        world.append(id: 7, center: Vec2(240, 100), radius: 30)
        #expect(world.awakeCount == 0)              // a new disc rests until launched
        world.launch(0, velocity: .zero)
        let steps = settle(&world)
        #expect(world.awakeCount == 0 && !world.awake[0])
        #expect(steps > 0 && steps < Int(20 / world.tuning.stepSeconds))
        #expect(inside(world, 0))
        // On the floor, where it was dropped, still.
        #expect(abs(world.py[0] - (720 - 30)) < 1)
        #expect(world.px[0] == 240)
        #expect(world.vx[0] == 0 && world.vy[0] == 0)
    }

    @Test func discsRollingIntoEachOtherDoNotOverlapAtRest() {
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1)
        world.append(id: 1, center: Vec2(100, 690), radius: 30)
        world.append(id: 2, center: Vec2(300, 680), radius: 40)
        world.launch(0, velocity: Vec2(900, 0))      // along the floor, at the other one
        settle(&world)
        #expect(world.awakeCount == 0)
        let gap = Vec2(world.px[1], world.py[1]).distance(to: Vec2(world.px[0], world.py[0])) - 70
        #expect(gap > -world.tuning.contactSlop, "overlap \(-gap) px")
        #expect(world.px[1] > 300)                   // the hit one was knocked on
        #expect(inside(world, 0) && inside(world, 1))
    }

    @Test func sleepingDiscsStayStillUntilHit() {
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1)
        for k in 0..<6 { world.append(id: k, center: Vec2(60 + Double(k) * 70, 300), radius: 25) }
        let before = (world.px, world.py)
        for _ in 0..<600 { world.step(gravity: Vec2(0.3, 1)) }
        #expect(world.awakeCount == 0)
        #expect(world.px == before.0 && world.py == before.1)
        // A moving disc wakes the one it hits; the others stay put.
        world.append(id: 9, center: Vec2(130, 100), radius: 25)
        world.launch(6, velocity: Vec2(0, 1200))
        var woke = false
        for _ in 0..<60 {
            world.step(gravity: .zero)
            if world.awake[1] { woke = true }
        }
        #expect(woke)
        for k in [3, 4, 5] { #expect(world.px[k] == before.0[k] && world.py[k] == before.1[k] && !world.awake[k]) }
    }

    @Test func discsPlacedOverlappingIgnoreEachOther() {
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1)
        world.append(id: 1, center: Vec2(200, 300), radius: 40)
        world.append(id: 2, center: Vec2(230, 300), radius: 40)   // 50 px deep
        world.launch(0, velocity: Vec2(-300, 0))                    // moving apart: no impulse
        world.launch(1, velocity: Vec2(-400, 0))                    // and into the first: too deep to count
        world.step(gravity: .zero)
        #expect(world.vx[0] == -300 && world.vx[1] == -400)
    }

    @Test func launchesAreCappedAndNonFiniteOnesIgnored() {
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1.5)
        world.append(id: 1, center: Vec2(240, 300), radius: 20)
        world.launch(0, velocity: Vec2(.nan, 10))
        #expect(world.awakeCount == 0)
        world.launch(0, velocity: Vec2(30_000, 40_000))
        let speed = Vec2(world.vx[0], world.vy[0]).length
        #expect(abs(speed - world.tuning.maximumSpeed * 1.5) < 1e-9)
        #expect(abs(world.vx[0] / world.vy[0] - 0.75) < 1e-12)
    }

    @Test func removingByPointReturnsIndicesHighestFirstAndKeepsTheRest() {
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1)
        world.append(id: 10, center: Vec2(100, 100), radius: 50)
        world.append(id: 11, center: Vec2(400, 400), radius: 20)
        world.append(id: 12, center: Vec2(130, 110), radius: 50)
        world.launch(2, velocity: Vec2(10, 0))
        #expect(world.topmostDisc(containing: Vec2(120, 100)) == 12)
        #expect(world.removeDiscs(containing: Vec2(120, 100)) == [2, 0])
        #expect(world.ids == [11] && world.awakeCount == 0)
        #expect(world.topmostDisc(containing: Vec2(120, 100)) == nil)
    }

    @Test func gridFindsEveryOverlappingPairAndSurvivesWildPositions() {
        var grid = UniformGrid()
        let px = [10.0, 50, 470, 240, .nan, 1e300, -1e300]
        let py = [10.0, 30, 700, 360, 5, 1e300, 50]
        let radius = [20.0, 30, 15, 200, 5, 5, 5]
        grid.build(px: px, py: py, radius: radius, area: DiscWorldTests.area, cellSize: 48)
        #expect(grid.columns == 10 && grid.rows == 15)
        // Every cell a disc's box covers lists it.
        for i in 0..<4 {
            let r = grid.range(i)
            for y in Int(r.y)...Int(r.w) { for x in Int(r.x)...Int(r.z) { #expect(grid.members(x, y).contains(Int32(i))) } }
        }
        // Overlapping discs share a cell; far apart ones do not.
        func share(_ a: Int, _ b: Int) -> Bool {
            let ra = grid.range(a), rb = grid.range(b)
            return max(ra.x, rb.x) <= min(ra.z, rb.z) && max(ra.y, rb.y) <= min(ra.w, rb.w)
        }
        #expect(share(0, 1) && !share(0, 2) && !share(1, 2))
        // Far outside or not a number: clamped into the border cells.
        #expect(grid.range(4) == SIMD4(0, 0, 0, 0))
        #expect(grid.range(5) == SIMD4(9, 14, 9, 14))
        #expect(grid.range(6) == SIMD4(0, 0, 0, 1))
    }

    /// A busy world (knocks, sleep, waking, removal, late discs) run to a fixed state, hashed
    /// bit for bit: the broad phase may be rebuilt differently, but the pairs must meet in the
    /// same order, or the impulses (and so every position after) differ.
    @Test func aBusyWorldEndsInThePinnedState() {
        // Quick to rest, so that discs fall asleep and are knocked awake again all the time.
        var tuning = DiscTuning()
        tuning.restSpeed = 150
        tuning.restTime = 50_000
        var world = DiscWorld(area: DiscWorldTests.area, scale: 1, tuning: tuning)
        var random = SeededGenerator(seed: 16)
        var nextID = 0
        func add(_ count: Int) {
            for _ in 0..<count {
                let r = 5 + random.unit() * 12
                world.append(id: nextID, center: Vec2(r + random.unit() * (480 - 2 * r), r + random.unit() * (720 - 2 * r)), radius: r)
                nextID += 1
            }
        }
        func fling(_ count: Int) {
            for _ in 0..<count {
                let i = Int(random.unit() * Double(world.count))
                world.launch(i, velocity: Vec2(random.unit() * 1200 - 600, random.unit() * 1200 - 600))
            }
        }
        add(300)
        fling(40)
        var gravity = Vec2.zero
        for step in 0..<1300 {
            switch step {
            case 300: world.removeDiscs(containing: Vec2(world.px[100], world.py[100]))
            case 450: add(30); fling(25)
            case 700: gravity = Vec2(-0.05, 0.02)
            case 1000: fling(60)
            default: break
            }
            world.step(gravity: gravity)
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ v: UInt64) { hash = (hash ^ v) &* 0x0000_0100_0000_01b3 }
        for i in 0..<world.count {
            mix(UInt64(world.ids[i])); mix(world.px[i].bitPattern); mix(world.py[i].bitPattern)
            mix(world.vx[i].bitPattern); mix(world.vy[i].bitPattern); mix(world.awake[i] ? 1 : 0)
        }
        #expect(world.count < 330)
        #expect(hash == 0x825c_5d97_0d7d_1da4, "hash \(String(hash, radix: 16)) awake \(world.awakeCount)")
    }
}
