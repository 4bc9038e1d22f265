/// The app's one seeded generator (xorshift64*): `--seed` makes runs reproducible, and the
/// sequence is the same on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    /// A seed that makes a generator go on exactly from here (the state is never 0).
    public var resumingSeed: UInt64 { state }
    public mutating func next() -> UInt64 {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / 9_007_199_254_740_992 }
}
