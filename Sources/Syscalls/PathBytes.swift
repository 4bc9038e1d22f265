/// Linux paths and arguments are bytes, not always UTF-8 (a folder named in Latin-1 on a
/// museum's USB stick). A Swift String cannot hold such bytes, so each byte that is not part
/// of valid UTF-8 is kept as one private-use character, U+10FF80…U+10FFFF, and turned back
/// into that byte where the path meets the kernel: the file opened is the one given.
public enum PathBytes {
    static let first: UInt32 = 0x10FF00

    /// `bytes` as a String, invalid UTF-8 kept byte by byte.
    public static func string(_ bytes: some Collection<UInt8>) -> String {
        let array = Array(bytes)
        if let valid = String(validating: array, as: UTF8.self) { return valid }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            let b = array[i]
            let length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
            if length > 0, i + length <= array.count, let s = String(validating: array[i..<(i + length)], as: UTF8.self) {
                out.append(contentsOf: s.unicodeScalars)
                i += length
            } else {
                out.append(Unicode.Scalar(first + UInt32(b))!)
                i += 1
            }
        }
        return String(out)
    }

    /// The bytes `string` stands for.
    public static func bytes(_ string: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if scalar.value >= first + 0x80 && scalar.value <= first + 0xFF {
                out.append(UInt8(truncatingIfNeeded: scalar.value - first))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with `path` as the C string of its bytes.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        if !path.unicodeScalars.contains(where: { $0.value >= first + 0x80 && $0.value <= first + 0xFF }) {
            return path.withCString(body)
        }
        let bytes = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
