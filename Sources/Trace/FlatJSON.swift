// A parser and printer for the one JSON shape traces use: a flat object whose values are
// numbers, strings, booleans or null. Hand-written so that Trace needs no Foundation.

enum FlatJSONValue: Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null

    var kindName: String {
        switch self {
        case .number: return "a number"
        case .string: return "a string"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A parse failure; `message` names the problem and the column (1-based, in bytes).
struct FlatJSONError: Error, Equatable {
    var message: String
}

struct FlatJSONParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: Substring) { bytes = Array(text.utf8) }

    /// The members of the object, in file order. Duplicate keys are an error.
    static func parseObject(_ text: Substring) throws(FlatJSONError) -> [(key: String, value: FlatJSONValue)] {
        var parser = FlatJSONParser(text)
        return try parser.object()
    }

    private func fail(_ what: String) -> FlatJSONError {
        FlatJSONError(message: "bad JSON at column \(index + 1): \(what)")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let c = current, c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { index += 1 }
    }

    private mutating func expect(_ c: UInt8, _ what: String) throws(FlatJSONError) {
        skipSpace()
        guard current == c else { throw fail(current == nil ? "line ends where \(what) was expected" : "expected \(what)") }
        index += 1
    }

    private mutating func object() throws(FlatJSONError) -> [(key: String, value: FlatJSONValue)] {
        skipSpace()
        guard current == UInt8(ascii: "{") else { throw fail("a trace line must be a JSON object") }
        index += 1
        var members: [(key: String, value: FlatJSONValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw fail("expected a quoted key") }
                let keyStart = index
                let key = try string()
                if members.contains(where: { $0.key == key }) {
                    index = keyStart
                    throw fail("duplicate key \"\(key)\"")
                }
                try expect(UInt8(ascii: ":"), "':'")
                let value = try self.value()
                members.append((key, value))
                skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                if current == UInt8(ascii: "}") { index += 1; break }
                throw fail(current == nil ? "line ends inside the object" : "expected ',' or '}'")
            }
        }
        skipSpace()
        if current != nil { throw fail("unexpected text after the object") }
        return members
    }

    private mutating func value() throws(FlatJSONError) -> FlatJSONValue {
        skipSpace()
        guard let c = current else { throw fail("line ends where a value was expected") }
        switch c {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["): throw fail("nested objects and arrays are not part of the trace format")
        default: throw fail("expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(FlatJSONError) {
        for b in word.utf8 {
            guard current == b else { throw fail("expected \(word)") }
            index += 1
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// JSON number grammar, then the standard library's correctly rounded conversion so that
    /// every printed Double reads back bit for bit.
    private mutating func number() throws(FlatJSONError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { throw fail("leading zeros are not allowed in numbers") }
        } else if digits() == 0 {
            throw fail("expected digits")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw fail("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { throw fail("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw fail("number \(text) is out of range")
        }
        return value
    }

    private mutating func hexQuad() throws(FlatJSONError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current else { throw fail("line ends inside a \\u escape") }
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("bad hex digit in a \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private mutating func string() throws(FlatJSONError) -> String {
        index += 1 // opening quote
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw fail("line ends inside a string") }
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                // Input came from a Swift String, so it is valid UTF-8 already.
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = current else { throw fail("line ends inside an escape") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    let escapeStart = index - 2
                    var scalar = try hexQuad()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            index = escapeStart
                            throw fail("unpaired surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { index = escapeStart; throw fail("unpaired surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        index = escapeStart
                        throw fail("unpaired surrogate in a \\u escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("bad \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    index -= 1
                    throw fail("unknown escape \\\(Character(Unicode.Scalar(e)))")
                }
            default:
                if c < 0x20 { index -= 1; throw fail("control character inside a string") }
                out.append(c)
            }
        }
    }
}

/// How the project writes JSON scalars: traces here, state dumps in Exhibits.
public enum FlatJSONPrinter {
    /// Integral values print without a fraction (as in the examples); everything else
    /// uses Swift's shortest representation that reads back to the same Double.
    static func number(_ v: Double) -> String {
        precondition(v.isFinite, "callers reject non-finite numbers first")
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }

    /// `s` as a JSON string literal, quotes included.
    public static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
