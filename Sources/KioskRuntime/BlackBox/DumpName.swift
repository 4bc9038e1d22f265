/// A black-box dump folder's name: `00000042-2026-11-28T06-57-58-sigusr1`. The sequence
/// number comes first, eight digits or more, so that names sort as text in the order they
/// were written whatever the wall clock did (a Pi without a clock source may boot in the
/// past); the local time and reason are for people. Only names of this shape (and the older
/// `2026-11-28T06-57-58-sigusr1`, which sort before every numbered one) are the kiosk's own:
/// nothing else in the folder is ever pruned.
struct DumpName: Equatable {
    /// 0 for a name from before sequence numbers.
    var sequence: Int
    var text: String

    init(sequence: Int, time: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int), reason: String) {
        func pad(_ v: Int, _ width: Int) -> String {
            let digits = "\(max(0, v))"
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let stamp = "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2))T\(pad(time.hour, 2))-\(pad(time.minute, 2))-\(pad(time.second, 2))"
        self.sequence = sequence
        text = pad(sequence, DumpName.sequenceDigits) + "-" + stamp + "-" + reason
    }

    static let sequenceDigits = 8

    /// The name's parts if it is one of the kiosk's dump names.
    init?(parsing name: String) {
        let bytes = Array(name.utf8)
        var i = 0
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        var rest = bytes[...]
        if i >= DumpName.sequenceDigits, i <= 18, i < bytes.count, bytes[i] == UInt8(ascii: "-") {
            // 18 digits at most: any such number fits an Int.
            sequence = Int(String(decoding: bytes[0..<i], as: UTF8.self)) ?? 0
            rest = bytes[(i + 1)...]
        } else {
            sequence = 0
        }
        guard DumpName.isStampAndReason(rest) else { return nil }
        text = name
    }

    /// `2026-11-28T06-57-58-sigusr1`: digits where the stamp has them, then a reason of
    /// lower-case letters, digits and dashes.
    private static func isStampAndReason(_ bytes: ArraySlice<UInt8>) -> Bool {
        let shape = Array("dddd-dd-ddTdd-dd-dd-".utf8)
        guard bytes.count > shape.count else { return false }
        for (k, expected) in shape.enumerated() {
            let b = bytes[bytes.startIndex + k]
            if expected == UInt8(ascii: "d") { guard isDigit(b) else { return false } } else { guard b == expected else { return false } }
        }
        return bytes.dropFirst(shape.count).allSatisfy { isDigit($0) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "-") }
    }
}

private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
