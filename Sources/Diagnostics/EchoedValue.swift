/// A value from outside (a config value, a flag, a file name) as a message shows it, in
/// quotes: control characters (C0, DEL, C1), line and paragraph separators and bidi
/// controls written as `\u{1B}`, so an escape sequence cannot drive the technician's
/// terminal or split a journal line, and a value longer than `limit` characters cut, with
/// its length said, so a 900 kB value cannot flood the log.
public func echoed(_ value: String, limit: Int = 80) -> String {
    var out = "'"
    var shown = 0
    var total = 0
    for scalar in value.unicodeScalars {
        total += 1
        guard shown < limit else { continue }
        shown += 1
        if echoedEscapes(scalar) {
            out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    out += "'"
    if total > shown { out += "… (\(total) characters)" }
    return out
}

/// A name from outside as is when it is short and harmless (a config key such as
/// `exhibits.order`), else `echoed`.
public func echoedName(_ name: String, limit: Int = 80) -> String {
    name.unicodeScalars.count <= limit && !name.unicodeScalars.contains(where: echoedEscapes) ? name : echoed(name, limit: limit)
}

/// What a terminal or a journal would act on rather than show.
func echoedEscapes(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
        || v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
}
