/// The order the row passes visit the rows in. Two rows that share a moving body must keep
/// their order (Gauss-Seidel: the later one sees what the earlier one did); rows that share
/// none commute, bit for bit. A row that shares a body with the row just before it waits for
/// that row's stores before it can start, where an independent one overlaps it in the
/// processor. Here the rows are reordered, only where they commute, so that a row shares no
/// moving body with the `RowSchedule.spacing` rows before it where possible (with rows of two
/// in kiosk500, a fifth of neighbours shared one in constraint order, 0.6 % after).
struct RowSchedule {
    /// How many rows ahead (in constraint order) a row may be taken from (4 and 16 measured
    /// alike).
    static let window = 8
    /// A row is preferred when it shares no moving body with this many rows emitted before it
    /// (1 measured as well as 2 or 3, and finds more).
    static let spacing: Int32 = 1

    /// Per body: the emission (counted from 1) of the last row that moved it; the last pass over
    /// the window that saw it in a row not yet emitted.
    var lastEmitted = Storage<Int32>(capacity: 64, fill: 0)
    var seenInWindow = Storage<Int32>(capacity: 64, fill: 0)
    /// Per row: the bodies it moves (A and B of each lane; the "no body" slot for the others).
    /// The rows in the new order. The window: rows not yet emitted, in constraint order.
    var movers = Storage<SIMD8<Int32>>(capacity: 128, fill: SIMD8())
    var order = Storage<SIMD4<Int32>>(capacity: 128, fill: SIMD4())
    var window = Storage<Int32>(capacity: RowSchedule.window, fill: 0)

    func release() { lastEmitted.release(); seenInWindow.release(); movers.release(); order.release(); window.release() }
}

extension DynamicsWorld {
    /// Reorders the rows' constraint groups `pairedRows[0..<count]` (constraint order) as
    /// `RowSchedule` describes: each time, the first row of the window that shares no moving
    /// body with a row before it in the window (which it would then have to follow) nor with
    /// the last rows emitted; else the window's first. Run when the pairing changes.
    func scheduleRows(_ count: Int) {
        let cc = constraints.base, groups = pairedRows.base
        let n = bodies.count
        // Slot n stands for "no body": never seen, emitted long ago.
        let none = Int32(n), longAgo = Int32.min / 2
        schedule.lastEmitted.reserve(n + 1); schedule.seenInWindow.reserve(n + 1)
        schedule.order.reserve(count); schedule.movers.reserve(count)
        let lastEmitted = schedule.lastEmitted.base, seen = schedule.seenInWindow.base
        let order = schedule.order.base, movers = schedule.movers.base, window = schedule.window.base
        for b in 0...n { lastEmitted[b] = longAgo; seen[b] = 0 }
        for r in 0..<count {
            var m = SIMD8<Int32>(repeating: none)
            for lane in 0..<4 where groups[r][lane] >= 0 {
                let k = cc + Int(groups[r][lane])
                if k.pointee.movesA { m[2 * lane] = k.pointee.a }
                if k.pointee.movesB { m[2 * lane + 1] = k.pointee.b }
            }
            movers[r] = m
        }
        var pending = 0, source = 0, emitted: Int32 = 0, pass: Int32 = 0
        while Int(emitted) < count {
            while pending < RowSchedule.window && source < count { window[pending] = Int32(source); pending += 1; source += 1 }
            pass += 1
            var chosen = 0
            for p in 0..<pending {
                let m = movers[Int(window[p])]
                var ready = true, recent = longAgo
                for j in 0..<8 {
                    let body = Int(m[j])
                    ready = ready && seen[body] != pass
                    recent = max(recent, lastEmitted[body])
                }
                if ready && emitted - recent >= RowSchedule.spacing { chosen = p; break }
                for j in 0..<8 { seen[Int(m[j])] = pass }
                seen[n] = 0
            }
            let row = Int(window[chosen])
            order[Int(emitted)] = groups[row]
            emitted += 1
            let m = movers[row]
            for j in 0..<8 { lastEmitted[Int(m[j])] = emitted }
            lastEmitted[n] = longAgo
            for p in chosen..<(pending - 1) { window[p] = window[p + 1] }
            pending -= 1
        }
        for r in 0..<count { groups[r] = order[r] }
    }
}
