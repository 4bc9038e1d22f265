/// The broad phase: which pairs of bodies have overlapping boxes this step, as a sweep and
/// prune along x would find them, and in the order it would find them.
///
/// A full sweep of a resting pile visits every body stacked in the same columns (some 16 per
/// body in the bench) and looks each overlapping pair up in the pair table, every step. Here
/// the sweep runs over boxes fattened by a margin instead, and its pairs (the candidates) are
/// kept, each with its contact: while every body's box stays inside its fattened one, every
/// pair whose boxes overlap is a candidate, so testing the candidates finds the same pairs as
/// the sweep would. A body whose box leaves its fattened one is fattened afresh and looked up
/// alone (Box2D 2.4's way with its tree). The contacts made are exactly the sweep's: the
/// margin only widens the list that is tested, never the overlap test itself.
struct CandidatePairs {
    struct Pair {
        var a: Int32, b: Int32
        /// The pair's contact, −1 while it has none, `unknown` until the pair's boxes first
        /// overlap (then it is looked up); kept up to date by contact creation and
        /// `destroyContact` (a linked contact knows its pair's index, `Contact.candidate`).
        var contact: Int32
    }
    static let unknown: Int32 = -2

    struct FatBox {
        var minX: Double, maxX: Double, minY: Double, maxY: Double
        /// Contains no box: a body not swept yet is never taken as inside its fattened box.
        static let none = FatBox(minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)
    }

    var pairs = Storage<Pair>(capacity: 256, fill: Pair(a: 0, b: 0, contact: -1))
    var count = 0
    /// False after anything that may change which pairs can collide (configuration, removal):
    /// the next step sweeps all bodies again.
    var valid = false
    /// How many bodies the candidates were swept from.
    var members = 0
    /// Per body: its fattened box, and whether it is awake and free to move this step.
    var fat = Storage<FatBox>(capacity: 64, fill: .none)
    var active = Storage<Bool>(capacity: 64, fill: false)
    /// Per body: its place in the sweep order this step; whether it is being looked up again.
    var rank = Storage<Int32>(capacity: 64, fill: 0)
    var requeried = Storage<Bool>(capacity: 64, fill: false)
    /// Scratch: bodies that left their fattened box; candidates found overlapping without a
    /// contact.
    var escaped = Storage<Int32>(capacity: 64, fill: 0)
    var fresh = Storage<Int32>(capacity: 64, fill: 0)

    mutating func reserve(bodies n: Int) {
        fat.reserve(n); active.reserve(n); rank.reserve(n); requeried.reserve(n); escaped.reserve(n)
    }

    func release() {
        pairs.release(); fat.release(); active.release(); rank.release(); requeried.release()
        escaped.release(); fresh.release()
    }
}

/// A body's broad-phase box as the sweep reads it.
struct SweepBox {
    var minX: Double, maxX: Double, minY: Double, maxY: Double
    var body: Int32
    var active: Bool
}

extension DynamicsWorld {
    /// How far the candidates' boxes are fattened. Small: a pile at rest keeps its boxes
    /// within 2 px, and every candidate costs a test each step. (10 px found 2,073
    /// candidates in the bench's pile and 2 px 1,441, for 1,180 overlapping pairs; falling
    /// bodies leave either every step or two. Margins grown with the speed, or the direction
    /// of motion, cost more than they saved.) Never negative nor NaN: a fattened box must
    /// contain its box, or candidates would be missed.
    var candidateMargin: Double {
        let margin = 0.02 * tuning.lengthUnit
        return margin > 0 ? margin : 0
    }

    @inline(__always)
    func fattened(_ box: Box, _ margin: Double) -> CandidatePairs.FatBox {
        CandidatePairs.FatBox(minX: box.minX - margin, maxX: box.maxX + margin, minY: box.minY - margin, maxY: box.maxY + margin)
    }

    /// Sweep and prune along x: insertion sort of the (nearly sorted) order, then the pairs
    /// whose boxes overlap (from the candidates, `CandidatePairs`). New overlaps get a
    /// contact, in sweep order; contacts whose boxes parted are destroyed.
    func updatePairs() {
        let n = sapOrder.count
        broad.reserve(bodies: bodies.count)
        let box = bodies.box, slot = bodies.slot
        let fat = broad.fat.base, active = broad.active.base
        let escaped = broad.escaped.base
        var escapedCount = 0
        var wellFormed = true
        sapOrder.withUnsafeMutableBufferPointer { order in
            if n > 1 {
                for i in 1..<n {
                    let e = order[i], key = box[Int(e)].minX
                    var j = i - 1
                    while j >= 0 && box[Int(order[j])].minX > key { order[j + 1] = order[j]; j -= 1 }
                    order[j + 1] = e
                }
            }
            for i in 0..<n {
                let b = Int(order[i])
                let minX = box[b].minX, maxX = box[b].maxX, minY = box[b].minY, maxY = box[b].maxY
                active[b] = slot[b].isActive
                // NaN (or an inverted box) breaks the equivalence of the candidates' overlap
                // test with the sweep's: such a step sweeps, as before.
                if !(minX <= maxX && minY <= maxY) { wellFormed = false }
                let f = fat[b]
                if !(minX >= f.minX && maxX <= f.maxX && minY >= f.minY && maxY <= f.maxY) {
                    escaped[escapedCount] = Int32(b); escapedCount += 1
                }
            }
        }
        if !wellFormed {
            broad.valid = false
            sweepAllPairs()
            destroyPartedContacts()
            return
        }
        // Looking one body up costs a pass over all bodies; many at once, one sweep.
        if !broad.valid || broad.members != n || escapedCount * 16 > n {
            sweepCandidates()
        } else if escapedCount > 0 {
            requery(escapedCount)
        }
        // Every contact seen: none to destroy.
        if markOverlappingCandidates() < contacts.count { destroyPartedContacts() }
    }

    /// The sweep over this step's boxes, with a pair-table look-up of every overlapping pair:
    /// what `updatePairs` does when a box is not well formed.
    private func sweepAllPairs() {
        let n = sapOrder.count
        let bt = bodies, box = bodies.box, slot = bodies.slot, stamp = self.stamp
        sweepBoxes.reserve(n)
        let sweep = sweepBoxes.base
        for i in 0..<n {
            let a = Int(sapOrder[i])
            sweep[i] = SweepBox(minX: box[a].minX, maxX: box[a].maxX, minY: box[a].minY, maxY: box[a].maxY,
                                body: sapOrder[i], active: slot[a].isActive)
        }
        for i in 0..<n {
            let a = Int(sweep[i].body)
            let activeA = sweep[i].active
            let hiX = sweep[i].maxX, loY = sweep[i].minY, hiY = sweep[i].maxY
            var j = i + 1
            while j < n {
                if sweep[j].minX > hiX { break }
                let b = Int(sweep[j].body)
                j += 1
                if !activeA && !sweep[j - 1].active { continue }
                if sweep[j - 1].minY > hiY || sweep[j - 1].maxY < loY { continue }
                if !bt.shouldCollide(a, b) { continue }
                let key = PairTable.key(a, b)
                let c = pairs.find(key)
                if c >= 0 { contacts[Int(c)].seen = stamp; continue }
                _ = createContact(a, b, key)
            }
        }
    }

    /// A contact for bodies `a` and `b` (pair key `key`), seen this step; returns its index.
    private func createContact(_ a: Int, _ b: Int, _ key: UInt64) -> Int {
        // Lower shape kind first: that is the order the manifold functions take.
        var first = a, second = b
        let ka = bodies.outline[a].kind.rawValue, kb = bodies.outline[b].kind.rawValue
        if ka > kb || (ka == kb && a > b) { first = b; second = a }
        let nc = contacts.append(first, second, key, stamp: stamp)
        mixMaterials(nc)
        pairs.insert(key, Int32(nc))
        return nc
    }

    /// Every body fattened afresh, and the candidates from a sweep over the fattened boxes.
    private func sweepCandidates() {
        let n = sapOrder.count
        let bt = bodies, box = bodies.box, margin = candidateMargin
        let fat = broad.fat.base
        for b in 0..<bt.count { fat[b] = .none }
        sweepBoxes.reserve(n)
        let sweep = sweepBoxes.base
        for i in 0..<n {
            let b = Int(sapOrder[i])
            let f = fattened(box[b], margin)
            fat[b] = f
            sweep[i] = SweepBox(minX: f.minX, maxX: f.maxX, minY: f.minY, maxY: f.maxY, body: sapOrder[i], active: false)
        }
        // In the boxes' order, sorted by minX: one margin off every minX keeps the order.
        let ct = contacts
        for c in 0..<ct.count { ct[c].candidate = -1 }
        // A local copy of the list, grown here and stored back: no exclusivity checks.
        var list = broad.pairs
        var count = 0
        for i in 0..<n {
            let a = sweep[i].body
            let hiX = sweep[i].maxX, loY = sweep[i].minY, hiY = sweep[i].maxY
            var j = i + 1
            while j < n && sweep[j].minX <= hiX {
                let b = sweep[j].body
                if sweep[j].minY <= hiY && sweep[j].maxY >= loY && bt.shouldCollide(Int(a), Int(b)) {
                    if count == list.capacity { list.reserve(count + 1) }
                    list[count] = CandidatePairs.Pair(a: a, b: b, contact: CandidatePairs.unknown)
                    count += 1
                }
                j += 1
            }
        }
        broad.pairs = list
        broad.count = count
        broad.valid = true
        broad.members = n
    }

    /// The escaped bodies (`broad.escaped[0..<count]`) fattened afresh: their candidates are
    /// dropped and looked for again against every body's fattened box.
    private func requery(_ count: Int) {
        let bt = bodies, box = bodies.box, margin = candidateMargin
        let fat = broad.fat.base, requeried = broad.requeried.base, escaped = broad.escaped.base
        for k in 0..<count {
            let b = Int(escaped[k])
            requeried[b] = true
            fat[b] = fattened(box[b], margin)
        }
        // Drop their pairs, keeping the others' order and links.
        let list = broad.pairs.base, ct = contacts
        var kept = 0
        for e in 0..<broad.count {
            let p = list[e]
            if requeried[Int(p.a)] || requeried[Int(p.b)] {
                if p.contact >= 0 { ct[Int(p.contact)].candidate = -1 }
                continue
            }
            if kept != e {
                list[kept] = p
                if p.contact >= 0 { ct[Int(p.contact)].candidate = Int32(kept) }
            }
            kept += 1
        }
        var pairCount = kept
        var grown = broad.pairs
        let members = sapOrder.count
        sapOrder.withUnsafeBufferPointer { order in
            for k in 0..<count {
                let a = Int(escaped[k])
                let f = fat[a]
                for i in 0..<members {
                    let b = Int(order[i])
                    // A pair of two looked-up bodies is found once, from the lower index.
                    if b == a || (requeried[b] && b < a) { continue }
                    let g = fat[b]
                    if g.minX <= f.maxX && f.minX <= g.maxX && g.minY <= f.maxY && f.minY <= g.maxY && bt.shouldCollide(a, b) {
                        if pairCount == grown.capacity { grown.reserve(pairCount + 1) }
                        grown[pairCount] = CandidatePairs.Pair(a: Int32(a), b: Int32(b), contact: CandidatePairs.unknown)
                        pairCount += 1
                    }
                }
            }
        }
        broad.pairs = grown
        broad.count = pairCount
        for k in 0..<count { requeried[Int(escaped[k])] = false }
    }

    /// The sweep's test on every candidate: a pair with an awake body whose boxes overlap.
    /// Pairs with a contact mark it seen; the others get one, in the order the sweep would
    /// have met them (lower sweep rank first, then the other's rank).
    /// Returns how many contacts it marked or made.
    private func markOverlappingCandidates() -> Int {
        let box = bodies.box.base, active = broad.active.base
        let stamp = self.stamp
        let count = broad.count
        broad.fresh.reserve(count)
        let list = broad.pairs.base, fresh = broad.fresh.base
        var freshCount = 0, seenCount = 0
        var ct = contacts
        for e in 0..<count {
            let pair = list + e
            let a = box + Int(pair.pointee.a), b = box + Int(pair.pointee.b)
            // The sweep's test (b after a: b.minX ≤ a.maxX, the y ranges meet) made symmetric:
            // for well-formed boxes in sorted order a.minX ≤ b.minX ≤ b.maxX holds anyway.
            if !(a.pointee.minX <= b.pointee.maxX && b.pointee.minX <= a.pointee.maxX
                 && a.pointee.minY <= b.pointee.maxY && b.pointee.minY <= a.pointee.maxY) { continue }
            if !active[Int(pair.pointee.a)] && !active[Int(pair.pointee.b)] { continue }
            var c = pair.pointee.contact
            if c == CandidatePairs.unknown {
                c = pairs.find(PairTable.key(Int(pair.pointee.a), Int(pair.pointee.b)))
                pair.pointee.contact = c
                if c >= 0 { ct[Int(c)].candidate = Int32(e) }
            }
            if c >= 0 { ct[Int(c)].seen = stamp; seenCount += 1 } else { fresh[freshCount] = Int32(e); freshCount += 1 }
        }
        if freshCount == 0 { return seenCount }
        // The sweep's order: each body's place in it.
        let rank = broad.rank.base
        for i in 0..<sapOrder.count { rank[Int(sapOrder[i])] = Int32(i) }
        @inline(__always) func order(_ e: Int32) -> (Int32, Int32) {
            let ra = rank[Int(list[Int(e)].a)], rb = rank[Int(list[Int(e)].b)]
            return ra < rb ? (ra, rb) : (rb, ra)
        }
        // Few a step: insertion sort.
        for i in 1..<max(freshCount, 1) {
            let e = fresh[i], key = order(e)
            var j = i - 1
            while j >= 0 && order(fresh[j]) > key { fresh[j + 1] = fresh[j]; j -= 1 }
            fresh[j + 1] = e
        }
        for k in 0..<freshCount {
            let e = Int(fresh[k])
            let a = Int(list[e].a), b = Int(list[e].b)
            let nc = createContact(a, b, PairTable.key(a, b))
            list[e].contact = Int32(nc)
            ct = contacts
            ct[nc].candidate = Int32(e)
        }
        return seenCount + freshCount
    }

    /// Contacts whose boxes no longer overlap go (with an ended event if touching), except
    /// between two sleeping bodies, which the sweep does not look at.
    private func destroyPartedContacts() {
        let slot = bodies.slot, stamp = self.stamp
        var c = 0
        while c < contacts.count {
            if contacts[c].seen != stamp {
                let a = Int(contacts[c].a), b = Int(contacts[c].b)
                let inactive = !slot[a].isActive && !slot[b].isActive
                if inactive && shouldCollide(a, b) { c += 1; continue }
                if contacts[c].touching { queueEvent(contact: c, began: false) }
                destroyContact(c)
                continue
            }
            c += 1
        }
    }
}
