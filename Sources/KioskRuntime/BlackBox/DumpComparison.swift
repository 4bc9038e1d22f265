/// A black-box dump's state.json against a replay's state at its "blackbox" checkpoint
/// (`motionkiosk replay DUMP-FOLDER`).
public enum DumpComparison {
    /// Whether they are equal, and what to say: to stdout when equal, to stderr when not
    /// (with the first difference and the bytes around it).
    public static func compare(stateFile file: String, replayed: String?, exact: Bool) -> (equal: Bool, lines: [String]) {
        let stand: String
        do { stand = try readTextFile(file) } catch { return (false, ["\(file): \(error)"]) }
        guard let replayed else { return (false, ["the trace has no \"blackbox\" checkpoint to compare with \(file)"]) }
        let expected = stand.hasSuffix("\n") ? String(stand.dropLast()) : stand
        if replayed == expected { return (true, ["the replay's state at \"blackbox\" equals the stand's (\(file))"]) }
        let a = Array(expected.utf8), b = Array(replayed.utf8)
        var i = 0
        while i < min(a.count, b.count), a[i] == b[i] { i += 1 }
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, i - 60)..<min(bytes.count, i + 60)], as: UTF8.self)
        }
        return (false, ["the replay's state differs from \(file) at byte \(i)\(exact ? "" : " (the dump is partial: it starts mid-visit)"):",
                        "  stand:  …\(around(a))…",
                        "  replay: …\(around(b))…"])
    }
}
