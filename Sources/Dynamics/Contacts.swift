/// Persistent contacts, one per overlapping pair of fattened boxes, kept across steps so that
/// impulses warm-start and began/ended events can be told apart. `contacts[c]` is contact `c`;
/// its manifold points are `points[2c]` and `points[2c + 1]`. A new field is declared once, in
/// `Contact` or `ContactPoint`.
struct ContactTable {
    var count = 0
    private var rows: Storage<Contact>
    var points: Storage<ContactPoint>

    init(capacity: Int) {
        rows = Storage(capacity: capacity, fill: Contact())
        points = Storage(capacity: 2 * capacity, fill: ContactPoint())
    }

    subscript(c: Int) -> Contact {
        @inline(__always) unsafeAddress { UnsafePointer(rows.base + c) }
        @inline(__always) nonmutating unsafeMutableAddress { rows.base + c }
    }

    mutating func reserve(_ n: Int) {
        rows.reserve(n)
        points.reserve(2 * n)
    }

    func release() {
        rows.release()
        points.release()
    }

    /// Appends a fresh contact; returns its index.
    mutating func append(_ bodyA: Int, _ bodyB: Int, _ key: UInt64, stamp: UInt32) -> Int {
        reserve(count + 1)
        let c = count
        rows[c] = Contact(a: Int32(bodyA), b: Int32(bodyB), key: key, seen: stamp)
        points[2 * c].normalImpulse = 0; points[2 * c + 1].normalImpulse = 0
        points[2 * c].tangentImpulse = 0; points[2 * c + 1].tangentImpulse = 0
        count += 1
        return c
    }

    /// Moves the last contact into slot `c` (swap-removal); returns the key of the moved one.
    mutating func removeSwapping(_ c: Int) -> UInt64? {
        let last = count - 1
        count -= 1
        guard c != last else { return nil }
        rows[c] = rows[last]
        points[2 * c] = points[2 * last]
        points[2 * c + 1] = points[2 * last + 1]
        return rows[c].key
    }
}

struct Contact {
    var a: Int32 = 0, b: Int32 = 0
    var key: UInt64 = 0
    var pointCount = 0
    var nx = 0.0, ny = 0.0
    var friction = 0.0, restitution = 0.0
    /// The step stamp when the broad phase last saw the pair's boxes overlap.
    var seen: UInt32 = 0
    var touching = false
    /// An elastic impact was resolved on this contact during the step (the bounce may have
    /// happened just before the surfaces met).
    var impact = false
    /// Its pair's index among the broad phase's candidates, −1 if none (`CandidatePairs`).
    var candidate: Int32 = -1
    /// The bodies' poses when the manifold was last computed, and the gap up to which it
    /// holds every point (−∞: compute anew). See `updateContacts`.
    var xA = 0.0, yA = 0.0, angleA = 0.0, xB = 0.0, yB = 0.0, angleB = 0.0
    var reach = -Double.infinity
}

/// A manifold point: anchors from both centres, separation, the impulses carried over to
/// warm-start the next step, and the feature id that matches it to the next step's point.
struct ContactPoint {
    var rAx = 0.0, rAy = 0.0, rBx = 0.0, rBy = 0.0
    var separation = 0.0
    var normalImpulse = 0.0, tangentImpulse = 0.0
    var id: UInt32 = 0
    /// When last computed: the anchors in the bodies' own frames and the separation.
    var localAx = 0.0, localAy = 0.0, localBx = 0.0, localBy = 0.0
    var computedSeparation = 0.0
}
