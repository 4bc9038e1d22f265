/// An 8-bit sRGB colour with alpha; opaque unless stated. Files and state dumps write `#RRGGBB`.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }
    /// From 0xRRGGBB (opaque).
    public init(rgb: UInt32) {
        self.init(r: UInt8((rgb >> 16) & 0xFF), g: UInt8((rgb >> 8) & 0xFF), b: UInt8(rgb & 0xFF))
    }
    /// Parses `#RRGGBB` or `RRGGBB`; nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(rgb: v)
    }

    public var rgb: UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
    /// XRGB8888 pixel value (alpha byte set to 0xFF).
    @inlinable public var xrgb: UInt32 { 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var out = "#"
        for byte in [r, g, b] { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return out
    }
    public var description: String { hex }

    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let red = Color(rgb: 0xFF3B30)
    public static let green = Color(rgb: 0x34C759)
    public static let blue = Color(rgb: 0x007AFF)
    public static let yellow = Color(rgb: 0xFFCC00)
    public static let gray = Color(rgb: 0x8E8E93)
}
