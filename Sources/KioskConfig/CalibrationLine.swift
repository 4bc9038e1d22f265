/// A configuration file's text with `[touch] calibration` set to `line` (as
/// `motionkiosk calibrate --save` writes it): the key's line (or lines, for a list spread
/// over several) in the [touch] table replaced, else added to that table, else the table
/// added at the end. Everything else is kept as it was, comments included.
public func configurationText(_ text: String, withCalibration line: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    func tableName(_ l: String) -> String? {
        let t = l.trimmingLeadingSpaces
        guard t.hasPrefix("["), !t.hasPrefix("[["), let close = t.firstIndex(of: "]") else { return nil }
        return String(t[t.index(after: t.startIndex)..<close].trimmingLeadingSpaces.trimmingTrailingSpaces)
    }
    guard let table = lines.firstIndex(where: { tableName($0) == "touch" }) else {
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n\n") + "[touch]\n" + line + "\n"
    }
    let end = lines[(table + 1)...].firstIndex { tableName($0) != nil } ?? lines.count
    if let key = lines[(table + 1)..<end].firstIndex(where: { l in
        let t = l.trimmingLeadingSpaces
        return t.hasPrefix("calibration") && t.dropFirst("calibration".count).trimmingLeadingSpaces.hasPrefix("=")
    }) {
        // A list written over several lines ends at the line holding its closing bracket.
        var last = key
        let opens = lines[key].filter { $0 == "[" }.count, closes = lines[key].filter { $0 == "]" }.count
        if opens > closes { last = lines[(key + 1)..<end].firstIndex { $0.contains("]") } ?? key }
        lines.replaceSubrange(key...last, with: [line])
    } else {
        var at = end
        while at > table + 1 && lines[at - 1].trimmingLeadingSpaces.isEmpty { at -= 1 }
        lines.insert(line, at: at)
    }
    return lines.joined(separator: "\n") + "\n"
}

private extension StringProtocol {
    var trimmingLeadingSpaces: Substring { let s = self[...]; return Substring(s.drop { $0 == " " || $0 == "\t" }) }
    var trimmingTrailingSpaces: Substring {
        var s = Substring(self[...])
        while let last = s.last, last == " " || last == "\t" { s.removeLast() }
        return s
    }
}
