/// How a frame's display list lines up with the previous frame's: equal up to `start`, then
/// `shift` commands inserted there (> 0) or removed there (< 0), then the rest one for one.
/// Comparing item by item after a deletion would count every later command as changed (each
/// moved up one place) and repaint them all; lining them up again finds only what changed.
struct ListAlignment: Equatable {
    var start: Int
    var shift: Int

    init(start: Int, shift: Int) {
        self.start = start
        self.shift = shift
    }

    /// Commands removed or inserted at the first difference, when that explains the rest of
    /// the list better than index by index (fewer pairs that differ); else index by index,
    /// with the lists' difference in length taken at their end.
    init<Item: Equatable>(from old: [Item], to new: [Item]) {
        let common = min(old.count, new.count)
        let byIndex = ListAlignment(start: common, shift: new.count - old.count)
        guard byIndex.shift != 0 else { self = byIndex; return }
        var first = 0
        while first < common && old[first] == new[first] { first += 1 }
        guard first < common else { self = byIndex; return }
        let lined = ListAlignment(start: first, shift: byIndex.shift)
        self = lined.differences(old, new, from: first) < byIndex.differences(old, new, from: first) ? lined : byIndex
    }

    /// The previous list's index of the new list's command `j`; nil for an inserted one.
    @inline(__always)
    func oldIndex(ofNew j: Int) -> Int? {
        if j < start { return j }
        if j < start + max(shift, 0) { return nil }
        return j - shift
    }

    /// The previous list's commands that are gone.
    func removedOldIndices(oldCount: Int) -> Range<Int> {
        shift < 0 ? start..<min(start - shift, oldCount) : start..<start
    }

    /// How many leading commands of the new list stand for the previous list's first `count`
    /// (with what was inserted among them, without what was removed).
    func newCount(ofOldPrefix count: Int) -> Int {
        guard count > start else { return count }
        return shift > 0 ? count + shift : max(start, count + shift)
    }

    /// Pairs that differ from `first` on, plus commands inserted or removed: the repainting
    /// this alignment implies.
    private func differences<Item: Equatable>(_ old: [Item], _ new: [Item], from first: Int) -> Int {
        var count = abs(shift)
        for j in first..<new.count {
            if let o = oldIndex(ofNew: j), old[o] != new[j] { count += 1 }
        }
        return count
    }
}
