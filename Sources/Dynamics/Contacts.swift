/// Persistent contacts, one per overlapping pair of fattened boxes, kept across steps so that
/// impulses warm-start and began/ended events can be told apart. Points live at 2c and 2c+1.
struct ContactTable {
    var count = 0
    var a: Storage<Int32>, b: Storage<Int32>
    var key: Storage<UInt64>
    var pointCount: Storage<Int>
    var nx: Storage<Double>, ny: Storage<Double>
    var friction: Storage<Double>, restitution: Storage<Double>
    var seen: Storage<UInt32>
    var touching: Storage<Bool>
    /// An elastic impact was resolved on this contact during the step (the bounce may have
    /// happened just before the surfaces met).
    var impact: Storage<Bool>
    // Points.
    var rAx: Storage<Double>, rAy: Storage<Double>, rBx: Storage<Double>, rBy: Storage<Double>
    var separation: Storage<Double>
    var normalImpulse: Storage<Double>, tangentImpulse: Storage<Double>
    var id: Storage<UInt32>

    init(capacity: Int) {
        let c = capacity, p = 2 * capacity
        a = Storage(capacity: c, fill: 0); b = Storage(capacity: c, fill: 0); key = Storage(capacity: c, fill: 0)
        pointCount = Storage(capacity: c, fill: 0)
        nx = Storage(capacity: c, fill: 0); ny = Storage(capacity: c, fill: 0)
        friction = Storage(capacity: c, fill: 0); restitution = Storage(capacity: c, fill: 0)
        seen = Storage(capacity: c, fill: 0); touching = Storage(capacity: c, fill: false)
        impact = Storage(capacity: c, fill: false)
        rAx = Storage(capacity: p, fill: 0); rAy = Storage(capacity: p, fill: 0)
        rBx = Storage(capacity: p, fill: 0); rBy = Storage(capacity: p, fill: 0)
        separation = Storage(capacity: p, fill: 0)
        normalImpulse = Storage(capacity: p, fill: 0); tangentImpulse = Storage(capacity: p, fill: 0)
        id = Storage(capacity: p, fill: 0)
    }

    mutating func reserve(_ n: Int) {
        let p = 2 * n
        a.reserve(n); b.reserve(n); key.reserve(n); pointCount.reserve(n); nx.reserve(n); ny.reserve(n)
        friction.reserve(n); restitution.reserve(n); seen.reserve(n); touching.reserve(n); impact.reserve(n)
        rAx.reserve(p); rAy.reserve(p); rBx.reserve(p); rBy.reserve(p); separation.reserve(p)
        normalImpulse.reserve(p); tangentImpulse.reserve(p); id.reserve(p)
    }

    func release() {
        a.release(); b.release(); key.release(); pointCount.release(); nx.release(); ny.release()
        friction.release(); restitution.release(); seen.release(); touching.release(); impact.release()
        rAx.release(); rAy.release(); rBx.release(); rBy.release(); separation.release()
        normalImpulse.release(); tangentImpulse.release(); id.release()
    }

    /// Appends a fresh contact; returns its index.
    mutating func append(_ bodyA: Int, _ bodyB: Int, _ k: UInt64, stamp: UInt32) -> Int {
        reserve(count + 1)
        let c = count
        a[c] = Int32(bodyA); b[c] = Int32(bodyB); key[c] = k
        pointCount[c] = 0; seen[c] = stamp; touching[c] = false; impact[c] = false
        normalImpulse[2 * c] = 0; normalImpulse[2 * c + 1] = 0
        tangentImpulse[2 * c] = 0; tangentImpulse[2 * c + 1] = 0
        count += 1
        return c
    }

    /// Moves the last contact into slot `c` (swap-removal); returns the key of the moved one.
    mutating func removeSwapping(_ c: Int) -> UInt64? {
        let last = count - 1
        count -= 1
        guard c != last else { return nil }
        a[c] = a[last]; b[c] = b[last]; key[c] = key[last]; pointCount[c] = pointCount[last]
        nx[c] = nx[last]; ny[c] = ny[last]; friction[c] = friction[last]; restitution[c] = restitution[last]
        seen[c] = seen[last]; touching[c] = touching[last]; impact[c] = impact[last]
        for k in 0..<2 {
            let d = 2 * c + k, s = 2 * last + k
            rAx[d] = rAx[s]; rAy[d] = rAy[s]; rBx[d] = rBx[s]; rBy[d] = rBy[s]
            separation[d] = separation[s]; normalImpulse[d] = normalImpulse[s]
            tangentImpulse[d] = tangentImpulse[s]; id[d] = id[s]
        }
        return key[c]
    }
}
