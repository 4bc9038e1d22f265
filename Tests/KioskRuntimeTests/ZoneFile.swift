import Foundation
import OpeningHours

/// A time zone read from the system's tzdata (a TZif file under /usr/share/zoneinfo), so
/// tests run on a zone's real rules without setting TZ for the whole test process. Only the
/// file's explicit transitions are used: Debian ships "fat" files that list them to 2037;
/// a zone file without transitions past `needed` is refused rather than read wrong.
enum ZoneFile {
    struct Problem: Error, CustomStringConvertible { let description: String }

    static func zone(_ name: String, coveringYear year: Int = 2027) throws -> LocalTimeZone {
        let path = "/usr/share/zoneinfo/" + name
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(description: "\(path) missing: the tests need tzdata")
        }
        let bytes = [UInt8](data)
        func be(_ at: Int, _ n: Int) -> Int64 {
            var v: Int64 = 0
            for i in 0..<n { v = v << 8 | Int64(bytes[at + i]) }
            // Sign-extend.
            return n < 8 && v & (1 << (n * 8 - 1)) != 0 ? v - (1 << (n * 8)) : v
        }
        guard bytes.count > 44, bytes[0..<4] == [0x54, 0x5A, 0x69, 0x66], bytes[4] >= 0x32 else {
            throw Problem(description: "\(path): not a TZif version 2+ file")
        }
        // Header counts: isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt.
        func counts(_ at: Int) -> [Int] { (0..<6).map { Int(be(at + 20 + $0 * 4, 4)) } }
        let v1 = counts(0)
        let v1Size = v1[3] * 4 + v1[3] + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0]
        let header2 = 44 + v1Size
        let c = counts(header2)
        var at = header2 + 44
        let transitions = (0..<c[3]).map { be(at + $0 * 8, 8) }
        at += c[3] * 8
        let indices = (0..<c[3]).map { Int(bytes[at + $0]) }
        at += c[3]
        let offsets = (0..<c[4]).map { Int(be(at + $0 * 6, 4)) }
        let endOfYear = Int64(CivilTime(year: year, month: 12, dayOfMonth: 31, hour: 23, minute: 59, second: 59)!.secondsSince1970)
        guard let last = transitions.last, last > endOfYear else {
            throw Problem(description: "\(path) lists no transitions after \(year) (a slim tzdata file)")
        }
        return LocalTimeZone { instant in
            // The last transition at or before the instant.
            var lo = 0, hi = transitions.count
            while lo < hi { let mid = (lo + hi) / 2; if transitions[mid] <= instant { lo = mid + 1 } else { hi = mid } }
            return lo == 0 ? offsets[0] : offsets[indices[lo - 1]]
        }
    }
}
