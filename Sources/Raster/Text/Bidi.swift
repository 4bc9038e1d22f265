import CFriBidi

/// The Unicode bidirectional algorithm's levels (by fribidi) and its line reordering (rule L2).
enum Bidi {
    /// Embedding levels of each character, and whether the paragraph runs right to left
    /// (from its first strong character).
    static func levels(of text: [UInt32]) -> (levels: [UInt8], rightToLeft: Bool) {
        let count = text.count
        guard count > 0, count < Int(Int32.max) else { return ([], false) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var base = motionkiosk_fribidi_auto_direction()
        let n = FriBidiStrIndex(count)
        let ok = text.withUnsafeBufferPointer { chars -> Bool in
            fribidi_get_bidi_types(chars.baseAddress, n, &types)
            fribidi_get_bracket_types(chars.baseAddress, n, types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, n, &base, &levels) != 0
        }
        guard ok else { return ([UInt8](repeating: 0, count: count), false) }
        return (levels.map { UInt8(clamping: Int($0)) }, base.rawValue == motionkiosk_fribidi_right_to_left().rawValue)
    }

    /// The visual order of pieces of one line, given each piece's level: from the highest
    /// level down to the lowest odd one, every maximal stretch at or above it is reversed.
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max() else { return order }
        let lowestOdd = (levels.filter { $0 % 2 == 1 }.min()) ?? (highest + 1)
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}
