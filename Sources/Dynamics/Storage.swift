// Growable manually managed storage for the solver's hot data: no copy-on-write checks, no
// exclusivity checks, no bounds checks in the inner loops. Owned by the world, freed in its
// deinit. Indices are plain Ints chosen by the owner.
struct Storage<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    /// What new and cleared elements hold.
    private let fill: Element

    init(capacity: Int = 4, fill: Element) {
        self.capacity = max(capacity, 4)
        self.fill = fill
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
        base.initialize(repeating: fill, count: self.capacity)
    }

    /// Makes room for index `count - 1`; keeps the contents, fills the new tail.
    mutating func reserve(_ count: Int) {
        guard count > capacity else { return }
        var newCapacity = capacity
        while newCapacity < count { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: capacity)
        (grown + capacity).initialize(repeating: fill, count: newCapacity - capacity)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Puts the fill back into `range`.
    func clear(_ range: Range<Int>) {
        for i in range { base[i] = fill }
    }

    /// Addressors, so that `rows[i].field = x` stores one field in place.
    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base + i) }
        @inline(__always) nonmutating unsafeMutableAddress { base + i }
    }

    func release() {
        base.deinitialize(count: capacity)
        base.deallocate()
    }
}
