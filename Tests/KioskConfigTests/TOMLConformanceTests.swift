import Foundation
import Testing
@testable import KioskConfig

/// The toml-test suite (toml-lang/toml-test, TOML 1.0), as Debian ships it inside
/// golang-github-burntsushi-toml-dev: every valid document must be read with exactly the
/// values of its JSON twin, every invalid one refused. The package is in
/// board/debian-test-deps.txt (board/test-deps.sh); without it this test fails and says what to install.
@Suite struct TOMLConformanceTests {
    static let suite = ProcessInfo.processInfo.environment["MOTIONKIOSK_TOML_TEST"]
        ?? "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"

    static func cases(_ kind: String) -> [String] {
        let root = suite + "/" + kind
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".toml") }.sorted().map { root + "/" + $0 }
    }

    static func bytes(_ path: String) throws -> String {
        // Invalid cases include bytes that are not UTF-8: hand them over unrepaired.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return String(decoding: data, as: UTF8.self)
    }

    /// The suite's own list of cases that need TOML 1.1 (its version.go, "1.0.0" excludes):
    /// the kiosk reads TOML 1.0, so these must be refused.
    static let newerThanTOML10 = ["valid/string/escape-esc.toml"]  // "\e"

    @Test func everyValidDocumentReadsWithItsValues() throws {
        let valid = Self.cases("valid").filter { path in !Self.newerThanTOML10.contains { path.hasSuffix("/" + $0) } }
        #expect(valid.count >= 90, "toml-test not found at \(Self.suite): apt-get install golang-github-burntsushi-toml-dev")
        var failures: [String] = []
        for path in valid {
            let name = String(path.dropFirst(Self.suite.count + 1))
            do {
                let document = try TOMLParser.parse(try Self.bytes(path))
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: String(path.dropLast(5)) + ".json")))
                if let difference = Self.difference(.table(document.root), json, at: "") {
                    failures.append("\(name): \(difference)")
                }
            } catch {
                failures.append("\(name): refused: \(error)")
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(valid.count) valid cases:\n" + failures.joined(separator: "\n")))
    }

    @Test func toml11FeaturesAreRefused() throws {
        for name in Self.newerThanTOML10 {
            #expect((try? TOMLParser.parse(try Self.bytes(Self.suite + "/" + name))) == nil, "\(name)")
        }
    }

    @Test func everyInvalidDocumentIsRefused() throws {
        let invalid = Self.cases("invalid")
        #expect(invalid.count >= 200, "toml-test not found at \(Self.suite): apt-get install golang-github-burntsushi-toml-dev")
        var accepted: [String] = []
        for path in invalid {
            // Raw bytes: six cases are not UTF-8, which String would repair.
            guard let raw = FileManager.default.contents(atPath: path) else { accepted.append("\(path): unreadable"); continue }
            if (try? TOMLParser.parse(utf8: Array(raw))) != nil { accepted.append(String(path.dropFirst(Self.suite.count + 1))) }
        }
        #expect(accepted.isEmpty, Comment(rawValue: "\(accepted.count) of \(invalid.count) invalid cases accepted:\n" + accepted.joined(separator: "\n")))
    }

    /// Where `value` differs from toml-test's JSON form, or nil.
    static func difference(_ value: TOMLValue, _ json: Any, at path: String) -> String? {
        if let object = json as? [String: Any], let type = object["type"] as? String, let text = object["value"] as? String {
            return scalarDifference(value, type: type, text: text, at: path)
        }
        switch value {
        case .table(let members):
            guard let object = json as? [String: Any] else { return "\(path): a table where JSON has \(json)" }
            let keys = members.map { $0.key }
            if Set(keys) != Set(object.keys) { return "\(path): keys \(keys.sorted()) where JSON has \(object.keys.sorted())" }
            for member in members {
                if let d = difference(member.value, object[member.key]!, at: path + "." + member.key) { return d }
            }
            return nil
        case .array(let items):
            guard let list = json as? [Any], list.count == items.count else { return "\(path): \(items.count) items where JSON has \(json)" }
            for (i, item) in items.enumerated() {
                if let d = difference(item, list[i], at: path + "[\(i)]") { return d }
            }
            return nil
        default:
            return "\(path): \(value) where JSON has \(json)"
        }
    }

    static func scalarDifference(_ value: TOMLValue, type: String, text: String, at path: String) -> String? {
        let same: Bool
        switch (type, value) {
        case ("string", .string(let s)): same = s == text
        case ("integer", .integer(let i)): same = Int64(text) == i
        case ("bool", .boolean(let b)): same = (text == "true") == b
        case ("float", .float(let f)):
            let expected: Double? = switch text {
            case "nan", "+nan", "-nan": .nan
            case "inf", "+inf": .infinity
            case "-inf": -.infinity
            default: Double(text)
            }
            same = expected.map { $0.isNaN ? f.isNaN : $0 == f } ?? false
        case ("datetime", .dateTime(let d)) where d.kind == .offsetDateTime: same = expectedDateTime(text) == d
        case ("datetime-local", .dateTime(let d)) where d.kind == .localDateTime: same = expectedDateTime(text) == d
        case ("date-local", .dateTime(let d)) where d.kind == .localDate: same = expectedDateTime(text) == d
        case ("time-local", .dateTime(let d)) where d.kind == .localTime: same = expectedDateTime(text) == d
        default: same = false
        }
        return same ? nil : "\(path): \(value) where JSON has \(type) \(text)"
    }

    /// toml-test's RFC 3339 text as components ("1987-07-05T17:45:00.5-07:00").
    static func expectedDateTime(_ text: String) -> TOMLDateTime? {
        var rest = Substring(text)
        func number(_ digits: Int) -> Int? {
            guard rest.count >= digits, let n = Int(rest.prefix(digits)) else { return nil }
            rest = rest.dropFirst(digits)
            return n
        }
        func skip(_ c: Character) -> Bool { if rest.first == c { rest.removeFirst(); return true }; return false }
        var result = TOMLDateTime(kind: .localTime)
        let hasDate = text.count >= 10 && text.dropFirst(4).first == "-"
        if hasDate {
            guard let y = number(4), skip("-"), let m = number(2), skip("-"), let d = number(2) else { return nil }
            result.year = y; result.month = m; result.day = d
            result.kind = .localDate
            guard let separator = rest.first else { return result }
            guard "Tt ".contains(separator) else { return nil }
            rest.removeFirst()
            result.kind = .localDateTime
        }
        guard let h = number(2), skip(":"), let mi = number(2), skip(":"), let s = number(2) else { return nil }
        result.hour = h; result.minute = mi; result.second = s
        if skip(".") {
            let digits = rest.prefix { $0.isNumber }
            rest = rest.dropFirst(digits.count)
            let nine = String(digits.prefix(9)) + String(repeating: "0", count: max(0, 9 - digits.count))
            result.nanosecond = Int(nine) ?? 0
        }
        if rest.isEmpty { return result }
        result.kind = .offsetDateTime
        if skip("Z") || skip("z") { return rest.isEmpty ? result : nil }
        let negative = rest.first == "-"
        guard skip("+") || skip("-"), let oh = number(2), skip(":"), let om = number(2), rest.isEmpty else { return nil }
        result.offsetMinutes = (negative ? -1 : 1) * (oh * 60 + om)
        return result
    }
}
