import CTOML

/// A TOML 1.0 value as toml++ read it. Tables keep their members with the line each starts
/// on, so that errors found later, while checking meaning, still name the line.
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case dateTime(TOMLDateTime)
    case array([TOMLValue])
    case table([TOMLMember])

    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "true or false"
        case .dateTime: "a date or time"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

public struct TOMLMember: Equatable, Sendable {
    public var key: String
    public var value: TOMLValue
    public var line: Int
}

/// A date, a time of day, or both, with or without a UTC offset (TOML's four kinds).
public struct TOMLDateTime: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case localDate, localTime, localDateTime, offsetDateTime }
    public var kind: Kind
    public var year = 0, month = 0, day = 0
    public var hour = 0, minute = 0, second = 0, nanosecond = 0
    public var offsetMinutes = 0

    /// RFC 3339: "1979-05-27T07:32:00.5-07:00", "1979-05-27", "07:32:00".
    public var description: String {
        let date = "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))"
        var time = "\(digits(hour, 2)):\(digits(minute, 2)):\(digits(second, 2))"
        if nanosecond > 0 {
            var fraction = digits(nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            time += "." + fraction
        }
        switch kind {
        case .localDate: return date
        case .localTime: return time
        case .localDateTime: return date + "T" + time
        case .offsetDateTime:
            if offsetMinutes == 0 { return date + "T" + time + "Z" }
            let sign = offsetMinutes < 0 ? "-" : "+"
            let minutes = offsetMinutes.magnitude
            return date + "T" + time + sign + digits(Int(minutes / 60), 2) + ":" + digits(Int(minutes % 60), 2)
        }
    }

    private func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// A setting: a value that is not a table, with its full key and the line it is on.
public struct TOMLEntry: Equatable, Sendable {
    /// The key's parts: ["display", "rotation"]; a quoted "a.b" is one part.
    public var path: [String]
    public var value: TOMLValue
    public var line: Int

    /// The key as a technician writes it: display.rotation, exhibits."a.b".
    public var key: String { TOMLDocument.spelling(path) }
}

public struct TOMLDocument: Sendable {
    /// The whole document: the root table.
    public var root: [TOMLMember]
    /// Every value that is not a table, in file order.
    public var entries: [TOMLEntry]
    /// Every table, written as a header, implied by one or by a dotted key, or inline, in file
    /// order with its line ("exhibits.motion-cube", 14).
    public var tables: [(name: String, line: Int)]

    public func entry(_ key: String) -> TOMLEntry? { entries.first { $0.key == key } }

    /// Joins key parts with dots, quoting a part that is not a bare key.
    public static func spelling(_ path: [String]) -> String {
        path.map { part in
            let bare = !part.isEmpty && part.utf8.allSatisfy { c in
                (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D
            }
            if bare { return part }
            var quoted = "\""
            for scalar in part.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                case "\t": quoted += "\\t"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        let hex = String(scalar.value, radix: 16, uppercase: true)
                        quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        quoted.unicodeScalars.append(scalar)
                    }
                }
            }
            return quoted + "\""
        }.joined(separator: ".")
    }
}

public struct TOMLError: Error, Equatable, CustomStringConvertible, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Reads TOML 1.0 with toml++ (through the CTOML shim) and keeps what the configuration
/// needs: the tree, the settings with their lines, and the tables.
public enum TOMLParser {
    public static func parse(_ text: String) throws(TOMLError) -> TOMLDocument {
        try parse(utf8: Array(text.utf8))
    }

    /// Bytes as they are in the file: toml++ refuses what is not UTF-8, naming the line.
    public static func parse(utf8 bytes: [UInt8]) throws(TOMLError) -> TOMLDocument {
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in mk_toml_parse(chars.baseAddress, chars.count) }
        }
        guard let document = parsed else { throw TOMLError(line: 0, column: 0, message: "not enough memory to read the file") }
        defer { mk_toml_free(document) }
        if mk_toml_failed(document) != 0 {
            let message = String(cString: mk_toml_error_message(document))
            throw TOMLError(line: Int(mk_toml_error_line(document)), column: Int(mk_toml_error_column(document)), message: message)
        }
        let count = mk_toml_node_count(document)
        guard count > 0, let first = mk_toml_nodes(document) else { return TOMLDocument(root: [], entries: [], tables: []) }
        let nodes = UnsafeBufferPointer(start: first, count: count)
        let bytes = mk_toml_text(document)

        // Children follow their parent in depth-first order.
        var children = [[Int]](repeating: [], count: count)
        for index in 1..<count {
            let parent = Int(nodes[index].parent)
            if parent >= 0 && parent < index { children[parent].append(index) }
        }
        func bytesAt(_ offset: UInt64, _ length: UInt64) -> String {
            guard length > 0, let bytes else { return "" }
            let start = UnsafeRawPointer(bytes).advanced(by: Int(offset)).assumingMemoryBound(to: UInt8.self)
            return String(decoding: UnsafeBufferPointer(start: start, count: Int(length)), as: UTF8.self)
        }
        func value(_ index: Int) -> TOMLValue {
            let node = nodes[index]
            switch node.kind {
            case Int32(MK_TOML_TABLE.rawValue):
                return .table(children[index].map { TOMLMember(key: bytesAt(nodes[$0].key_offset, nodes[$0].key_length), value: value($0), line: Int(nodes[$0].line)) })
            case Int32(MK_TOML_ARRAY.rawValue): return .array(children[index].map { value($0) })
            case Int32(MK_TOML_STRING.rawValue): return .string(bytesAt(node.text_offset, node.text_length))
            case Int32(MK_TOML_INTEGER.rawValue): return .integer(node.integer)
            case Int32(MK_TOML_FLOAT.rawValue): return .float(node.number)
            case Int32(MK_TOML_BOOLEAN.rawValue): return .boolean(node.integer != 0)
            default:
                let kind: TOMLDateTime.Kind
                switch node.kind {
                case Int32(MK_TOML_LOCAL_DATE.rawValue): kind = .localDate
                case Int32(MK_TOML_LOCAL_TIME.rawValue): kind = .localTime
                case Int32(MK_TOML_LOCAL_DATE_TIME.rawValue): kind = .localDateTime
                default: kind = .offsetDateTime
                }
                return .dateTime(TOMLDateTime(kind: kind, year: Int(node.year), month: Int(node.month), day: Int(node.day),
                                              hour: Int(node.hour), minute: Int(node.minute), second: Int(node.second),
                                              nanosecond: Int(node.nanosecond), offsetMinutes: Int(node.offset_minutes)))
            }
        }

        guard case .table(let root) = value(0) else { return TOMLDocument(root: [], entries: [], tables: []) }
        var entries: [(entry: TOMLEntry, column: Int)] = []
        var tables: [(name: String, line: Int, column: Int)] = []
        func collect(_ index: Int, _ path: [String]) {
            for child in children[index] {
                let node = nodes[child]
                let childPath = path + [bytesAt(node.key_offset, node.key_length)]
                if node.kind == Int32(MK_TOML_TABLE.rawValue) {
                    tables.append((TOMLDocument.spelling(childPath), Int(node.line), Int(node.column)))
                    collect(child, childPath)
                } else {
                    entries.append((TOMLEntry(path: childPath, value: value(child), line: Int(node.line)), Int(node.column)))
                }
            }
        }
        collect(0, [])
        // toml++ keeps a table's keys sorted; a technician reads errors in file order.
        entries.sort { ($0.entry.line, $0.column) < ($1.entry.line, $1.column) }
        tables.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        return TOMLDocument(root: root, entries: entries.map { $0.entry }, tables: tables.map { ($0.name, $0.line) })
    }
}
