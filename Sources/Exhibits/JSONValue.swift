import Trace

/// A JSON value with object keys kept in insertion order, so that state dumps are stable
/// byte for byte: the same seed and trace give the same file.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// Written with at most `decimals` fraction digits, trailing zeros dropped.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    /// Compact JSON text. Numbers keep 3 decimals: a tenth of a millipixel is noise in a state dump.
    public func serialized(decimals: Int = 3) -> String {
        var out = ""
        write(into: &out, decimals: decimals)
        return out
    }

    private func write(into out: inout String, decimals: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d): out += JSONValue.format(d, decimals: decimals)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out, decimals: decimals)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, into: &out)
                out += ":"
                value.write(into: &out, decimals: decimals)
            }
            out += "}"
        }
    }

    static func format(_ d: Double, decimals: Int) -> String {
        guard d.isFinite else { return "null" }  // JSON has no NaN or infinity
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (d * scale).rounded() / scale
        // Whole numbers up to 2^53 (every one a Double holds exactly) print as integers.
        if rounded == rounded.rounded(), abs(rounded) <= 9_007_199_254_740_992 { return String(Int64(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return text }
        if let dot = text.firstIndex(of: ".") {
            let maxEnd = text.index(dot, offsetBy: decimals + 1, limitedBy: text.endIndex) ?? text.endIndex
            text = String(text[..<maxEnd])
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    static func writeString(_ s: String, into out: inout String) {
        out += FlatJSONPrinter.string(s)
    }
}
