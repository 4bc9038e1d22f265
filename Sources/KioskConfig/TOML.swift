/// A TOML document reduced to what a kiosk configuration needs: tables (`[a]`, `[a.b]`),
/// `key = value` with strings, integers (decimal, 0x, 0o, 0b, underscores), floats, booleans
/// and arrays (nested, multi-line). Every value remembers its line, so that errors found
/// later, while checking meaning, still name the line. Inline tables, dates and array-of-tables
/// are rejected with a plain message rather than half-supported.
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])

    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "true or false"
        case .array: "an array"
        }
    }
}

public struct TOMLEntry: Equatable, Sendable {
    /// Full dotted key: "display.rotation".
    public var key: String
    public var value: TOMLValue
    public var line: Int
}

public struct TOMLDocument: Sendable {
    /// Entries in file order.
    public var entries: [TOMLEntry]
    /// Table headers in file order with their lines ("exhibits.motion-cube", 14).
    public var tables: [(name: String, line: Int)]

    public func entry(_ key: String) -> TOMLEntry? { entries.first { $0.key == key } }
}

public struct TOMLError: Error, Equatable, CustomStringConvertible, Sendable {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

public enum TOMLParser {
    public static func parse(_ text: String) throws(TOMLError) -> TOMLDocument {
        var scanner = Scanner(Array(text.utf8))
        var entries: [TOMLEntry] = []
        var tables: [(name: String, line: Int)] = []
        var seenKeys: [String: Int] = [:]
        var seenTables: [String: Int] = [:]
        var prefix = ""

        while true {
            scanner.skipBlankAndComments()
            guard let c = scanner.peek() else { break }
            let line = scanner.line
            if c == UInt8(ascii: "[") {
                scanner.advance()
                if scanner.peek() == UInt8(ascii: "[") {
                    throw TOMLError(line: line, message: "arrays of tables ([[...]]) are not used in this file")
                }
                scanner.skipSpaces()
                let parts = try scanner.dottedKey()
                scanner.skipSpaces()
                guard scanner.peek() == UInt8(ascii: "]") else {
                    throw TOMLError(line: line, message: "expected ']' to close the table header")
                }
                scanner.advance()
                try scanner.expectEndOfLine()
                let name = parts.joined(separator: ".")
                if let first = seenTables[name] {
                    throw TOMLError(line: line, message: "table [\(name)] is already defined at line \(first)")
                }
                seenTables[name] = line
                tables.append((name: name, line: line))
                prefix = name + "."
                continue
            }
            let parts = try scanner.dottedKey()
            scanner.skipSpaces()
            guard scanner.peek() == UInt8(ascii: "=") else {
                throw TOMLError(line: line, message: "expected '=' after key '\(parts.joined(separator: "."))'")
            }
            scanner.advance()
            scanner.skipSpaces()
            let value = try scanner.value()
            try scanner.expectEndOfLine()
            let key = prefix + parts.joined(separator: ".")
            if let first = seenKeys[key] {
                throw TOMLError(line: line, message: "key '\(key)' is already set at line \(first)")
            }
            seenKeys[key] = line
            entries.append(TOMLEntry(key: key, value: value, line: line))
        }
        return TOMLDocument(entries: entries, tables: tables)
    }
}

private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
    mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }
    mutating func skipSpaces() {
        while let c = peek(), c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { advance() }
    }
    mutating func skipComment() {
        if peek() == UInt8(ascii: "#") { while let c = peek(), c != UInt8(ascii: "\n") { advance() } }
    }
    mutating func skipBlankAndComments() {
        while let c = peek() {
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") {
                advance()
            } else if c == UInt8(ascii: "#") {
                skipComment()
            } else { break }
        }
    }
    mutating func expectEndOfLine() throws(TOMLError) {
        skipSpaces()
        skipComment()
        if peek() == UInt8(ascii: "\r") { advance() }
        guard let c = peek() else { return }
        guard c == UInt8(ascii: "\n") else {
            throw TOMLError(line: line, message: "unexpected '\(Character(Unicode.Scalar(c)))' after the value; one key = value per line")
        }
        advance()
    }

    static func isBareKeyByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    mutating func dottedKey() throws(TOMLError) -> [String] {
        var parts: [String] = []
        while true {
            skipSpaces()
            if peek() == UInt8(ascii: "\"") {
                parts.append(try basicString())
            } else {
                let start = index
                while let c = peek(), Scanner.isBareKeyByte(c) { advance() }
                if index == start {
                    let shown = peek().map { "'\(Character(Unicode.Scalar($0)))'" } ?? "end of file"
                    throw TOMLError(line: line, message: "expected a key, found \(shown)")
                }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            skipSpaces()
            if peek() == UInt8(ascii: ".") { advance(); continue }
            return parts
        }
    }

    mutating func value() throws(TOMLError) -> TOMLValue {
        guard let c = peek() else { throw TOMLError(line: line, message: "missing value at end of file") }
        switch c {
        case UInt8(ascii: "\""): return .string(try basicString())
        case UInt8(ascii: "'"): return .string(try literalString())
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): throw TOMLError(line: line, message: "inline tables are not used in this file; write a [table] instead")
        case UInt8(ascii: "\n"), UInt8(ascii: "#"): throw TOMLError(line: line, message: "missing value after '='")
        default: return try bareValue()
        }
    }

    /// Arrays nested deeper than this are refused: the parser recurses once per level, and a
    /// file of nothing but '[' would otherwise exhaust the stack (the deepest the kiosk reads
    /// is 2, a mount matrix).
    static let deepestArray = 32
    var arrayDepth = 0

    mutating func array() throws(TOMLError) -> TOMLValue {
        let startLine = line
        guard arrayDepth < Scanner.deepestArray else {
            throw TOMLError(line: line, message: "arrays nested more than \(Scanner.deepestArray) deep")
        }
        arrayDepth += 1
        defer { arrayDepth -= 1 }
        advance()  // [
        var items: [TOMLValue] = []
        while true {
            skipBlankAndComments()
            guard let c = peek() else { throw TOMLError(line: startLine, message: "array is not closed with ']'") }
            if c == UInt8(ascii: "]") { advance(); return .array(items) }
            items.append(try value())
            skipBlankAndComments()
            if peek() == UInt8(ascii: ",") { advance(); continue }
            skipBlankAndComments()
            if peek() == UInt8(ascii: "]") { advance(); return .array(items) }
            if peek() == nil { throw TOMLError(line: startLine, message: "array is not closed with ']'") }
            throw TOMLError(line: line, message: "expected ',' or ']' in array")
        }
    }

    mutating func literalString() throws(TOMLError) -> String {
        let startLine = line
        advance()
        let start = index
        while let c = peek(), c != UInt8(ascii: "'") {
            if c == UInt8(ascii: "\n") { throw TOMLError(line: startLine, message: "string is not closed on its line") }
            advance()
        }
        guard peek() != nil else { throw TOMLError(line: startLine, message: "string is not closed") }
        let s = String(decoding: bytes[start..<index], as: UTF8.self)
        advance()
        return s
    }

    mutating func basicString() throws(TOMLError) -> String {
        let startLine = line
        advance()
        var out: [UInt8] = []
        while true {
            guard let c = peek() else { throw TOMLError(line: startLine, message: "string is not closed") }
            if c == UInt8(ascii: "\n") { throw TOMLError(line: startLine, message: "string is not closed on its line") }
            advance()
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard let e = peek() else { throw TOMLError(line: startLine, message: "string is not closed") }
            advance()
            switch e {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "\\"): out.append(92)
            case UInt8(ascii: "\""): out.append(34)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let count = e == UInt8(ascii: "u") ? 4 : 8
                var scalar: UInt32 = 0
                for _ in 0..<count {
                    guard let h = peek(), let d = hexDigit(h) else {
                        throw TOMLError(line: line, message: "bad \\u escape in string")
                    }
                    scalar = scalar * 16 + d
                    advance()
                }
                guard let u = Unicode.Scalar(scalar) else { throw TOMLError(line: line, message: "bad \\u escape in string") }
                out.append(contentsOf: Array(String(u).utf8))
            default:
                throw TOMLError(line: line, message: "unknown escape '\\\(Character(Unicode.Scalar(e)))' in string")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }

    mutating func bareValue() throws(TOMLError) -> TOMLValue {
        let start = index
        while let c = peek(), c != UInt8(ascii: ","), c != UInt8(ascii: "]"), c != UInt8(ascii: "\n"),
              c != UInt8(ascii: "#"), c != UInt8(ascii: " "), c != UInt8(ascii: "\t"), c != UInt8(ascii: "\r") {
            advance()
        }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        if word == "true" { return .boolean(true) }
        if word == "false" { return .boolean(false) }
        if let i = Scanner.integer(word) { return .integer(i) }
        if let f = Scanner.float(word) { return .float(f) }
        throw TOMLError(line: line, message: "'\(word)' is not a value: write text in quotes (\"\(word)\"), a number, true or false")
    }

    static func integer(_ word: String) -> Int64? {
        var s = Substring(word)
        var negative = false
        if s.hasPrefix("+") { s = s.dropFirst() } else if s.hasPrefix("-") { negative = true; s = s.dropFirst() }
        var radix = 10
        if s.hasPrefix("0x") { radix = 16; s = s.dropFirst(2) }
        else if s.hasPrefix("0o") { radix = 8; s = s.dropFirst(2) }
        else if s.hasPrefix("0b") { radix = 2; s = s.dropFirst(2) }
        guard !s.isEmpty, !s.hasPrefix("_"), !s.hasSuffix("_"), !hasDoubleUnderscore(s) else { return nil }
        let digits = withoutUnderscores(s)
        // The sign goes in with the digits: no negation that could overflow, and a second
        // sign ("--1", "-0x-8…") is refused by the parse.
        guard digits.first != "-", digits.first != "+" else { return nil }
        return Int64((negative ? "-" : "") + digits, radix: radix)
    }

    private static func hasDoubleUnderscore(_ s: Substring) -> Bool {
        var previous: Character = " "
        for c in s {
            if c == "_" && previous == "_" { return true }
            previous = c
        }
        return false
    }

    private static func withoutUnderscores(_ s: Substring) -> String {
        var out = ""
        for c in s where c != "_" { out.append(c) }
        return out
    }

    static func float(_ word: String) -> Double? {
        switch word {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "+nan", "-nan": return .nan
        default: break
        }
        guard !word.hasPrefix("."), !word.hasSuffix("."), !hasDoubleUnderscore(Substring(word)) else { return nil }
        return Double(withoutUnderscores(Substring(word)))
    }
}
