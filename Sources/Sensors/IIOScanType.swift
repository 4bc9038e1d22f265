/// One channel's `scan_elements/*_type`: `[be|le]:[s|u]bits/storagebits[Xrepeat][>>shift]`,
/// e.g. LIS3DH "le:s12/16>>4", a timestamp "le:s64/64>>0".
public struct IIOScanType: Hashable, Sendable, CustomStringConvertible {
    public var bigEndian: Bool
    public var signed: Bool
    public var bits: Int
    public var storageBits: Int
    public var repeatCount: Int
    public var shift: Int

    public init(bigEndian: Bool, signed: Bool, bits: Int, storageBits: Int, repeatCount: Int = 1, shift: Int = 0) {
        self.bigEndian = bigEndian; self.signed = signed; self.bits = bits
        self.storageBits = storageBits; self.repeatCount = repeatCount; self.shift = shift
    }

    /// Parses the sysfs text; nil when it does not follow the ABI.
    public init?(_ text: String) {
        var s = Substring(text.trimmingASCIIWhitespace())
        guard s.count > 3 else { return nil }
        if s.hasPrefix("be:") { bigEndian = true } else if s.hasPrefix("le:") { bigEndian = false } else { return nil }
        s = s.dropFirst(3)
        guard let sign = s.first, sign == "s" || sign == "u" else { return nil }
        signed = sign == "s"
        s = s.dropFirst()
        guard let slash = s.firstIndex(of: "/"), let b = Int(s[s.startIndex..<slash]), (1...64).contains(b) else { return nil }
        bits = b
        s = s[s.index(after: slash)...]
        var digitsEnd = s.startIndex
        while digitsEnd < s.endIndex, s[digitsEnd].isASCII, s[digitsEnd].isNumber { digitsEnd = s.index(after: digitsEnd) }
        guard let storage = Int(s[s.startIndex..<digitsEnd]) else { return nil }
        storageBits = storage
        s = s[digitsEnd...]
        repeatCount = 1
        if s.first == "X" {
            s = s.dropFirst()
            var e = s.startIndex
            while e < s.endIndex, s[e].isASCII, s[e].isNumber { e = s.index(after: e) }
            // The kernel repeats a channel for quaternions and the like (4): a scan of more
            // than a few elements per channel is no accelerometer's, and would be a huge buffer.
            guard let r = Int(s[s.startIndex..<e]), (1...IIOScanType.maximumRepeat).contains(r) else { return nil }
            repeatCount = r
            s = s[e...]
        }
        shift = 0
        if s.hasPrefix(">>") {
            guard let sh = Int(s.dropFirst(2)), (0...63).contains(sh) else { return nil }
            shift = sh
        } else if !s.isEmpty {
            return nil
        }
        guard [8, 16, 32, 64].contains(storageBits), bits >= 1, bits + shift <= storageBits else { return nil }
    }

    public var storageBytes: Int { storageBits / 8 }

    /// The most repeats of one channel a scan type may declare.
    public static let maximumRepeat = 16
    /// Bytes one channel occupies in a scan (all repeats).
    public var totalBytes: Int { storageBytes * repeatCount }

    /// The value of repeat `element` of this channel at `offset` in `scan`.
    @inlinable public func decode(_ scan: UnsafeRawBufferPointer, at offset: Int, element: Int = 0) -> Int64 {
        let start = offset + element * storageBytes
        var word: UInt64 = 0
        let n = storageBytes
        if bigEndian {
            for i in 0..<n { word = (word << 8) | UInt64(scan[start + i]) }
        } else {
            for i in stride(from: n - 1, through: 0, by: -1) { word = (word << 8) | UInt64(scan[start + i]) }
        }
        word >>= UInt64(shift)
        if bits < 64 {
            word &= (UInt64(1) << UInt64(bits)) - 1
            if signed && (word >> UInt64(bits - 1)) & 1 == 1 {
                word |= ~((UInt64(1) << UInt64(bits)) - 1)
            }
        }
        return signed ? Int64(bitPattern: word) : Int64(bitPattern: word)  // u64 > Int64.max is not a sensor value
    }

    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storageBits)\(repeatCount > 1 ? "X\(repeatCount)" : "")>>\(shift)"
    }
}

/// Where each enabled channel sits in one scan of /dev/iio:deviceN: channels in `_index`
/// order, each aligned to its own size, the whole scan padded to its largest element, as
/// the kernel's iio_compute_scan_bytes lays it out.
public struct IIOScanLayout: Sendable {
    public struct Channel: Sendable {
        public var name: String
        public var index: Int
        public var type: IIOScanType
        public var offset: Int
    }
    public private(set) var channels: [Channel]
    public private(set) var scanBytes: Int

    public init(_ elements: [(name: String, index: Int, type: IIOScanType)]) {
        var offset = 0, largest = 1
        var laid: [Channel] = []
        for e in elements.sorted(by: { $0.index < $1.index }) {
            let length = e.type.totalBytes
            offset = IIOScanLayout.align(offset, length)
            laid.append(Channel(name: e.name, index: e.index, type: e.type, offset: offset))
            offset += length
            largest = max(largest, length)
        }
        channels = laid
        scanBytes = IIOScanLayout.align(offset, largest)
    }

    public func channel(named name: String) -> Channel? { channels.first { $0.name == name } }

    /// The kernel's ALIGN(x, a): exact for the power-of-two sizes real channels use.
    static func align(_ x: Int, _ a: Int) -> Int { a <= 1 ? x : (x + a - 1) & ~(a - 1) }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\n" || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\n" || c == "\t" || c == "\r" { s = s.dropLast() }
        return String(s)
    }
}
