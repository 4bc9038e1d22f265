/// Open-addressing hash map from a body pair to its contact index. Lookups only: nothing ever
/// iterates it, so its layout cannot leak into the simulation order. Key and value share a
/// slot: the broad phase looks up every overlapping pair every step, and one cache line per
/// lookup is what it costs.
struct PairTable {
    private struct Slot {
        var key: UInt64
        var value: Int32
    }

    private var slots: Storage<Slot>
    private var mask: Int
    private(set) var count = 0
    private var used = 0   // live + tombstones
    private static let empty: UInt64 = .max
    private static let tombstone: UInt64 = .max - 1

    init(capacity: Int = 1024) {
        var c = 16
        while c < capacity * 2 { c *= 2 }
        slots = Storage(capacity: c, fill: Slot(key: PairTable.empty, value: -1))
        mask = c - 1
    }

    static func key(_ a: Int, _ b: Int) -> UInt64 {
        let lo = UInt64(min(a, b)), hi = UInt64(max(a, b))
        return lo << 32 | hi
    }

    @inline(__always) private func slot(_ key: UInt64) -> Int {
        var h = key &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }

    func find(_ key: UInt64) -> Int32 {
        var i = slot(key)
        while true {
            let k = slots[i].key
            if k == key { return slots[i].value }
            if k == PairTable.empty { return -1 }
            i = (i + 1) & mask
        }
    }

    mutating func insert(_ key: UInt64, _ value: Int32) {
        if (used + 1) * 2 > mask + 1 { rehash() }
        var i = slot(key), firstTomb = -1
        while true {
            let k = slots[i].key
            if k == key { slots[i].value = value; return }
            if k == PairTable.empty { break }
            if k == PairTable.tombstone && firstTomb < 0 { firstTomb = i }
            i = (i + 1) & mask
        }
        if firstTomb >= 0 { i = firstTomb } else { used += 1 }
        slots[i] = Slot(key: key, value: value)
        count += 1
    }

    /// Points an existing key at a new value (a contact moved by swap-removal).
    func update(_ key: UInt64, _ value: Int32) {
        var i = slot(key)
        while slots[i].key != PairTable.empty {
            if slots[i].key == key { slots[i].value = value; return }
            i = (i + 1) & mask
        }
    }

    mutating func remove(_ key: UInt64) {
        var i = slot(key)
        while slots[i].key != PairTable.empty {
            if slots[i].key == key { slots[i] = Slot(key: PairTable.tombstone, value: -1); count -= 1; return }
            i = (i + 1) & mask
        }
    }

    private mutating func rehash() {
        let old = slots, oldCapacity = mask + 1
        var c = oldCapacity
        while c < (count + 1) * 4 { c *= 2 }
        slots = Storage(capacity: c, fill: Slot(key: PairTable.empty, value: -1))
        mask = c - 1
        count = 0; used = 0
        for i in 0..<oldCapacity where old[i].key < PairTable.tombstone {
            insert(old[i].key, old[i].value)
        }
        old.release()
    }

    func release() { slots.release() }
}
