/// A small seeded random number generator (SplitMix64): the same seed gives the same sequence on every
/// machine, so the demo house, the fuzz runs and the bench's soak can be repeated exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly chosen number in `0..<count` (0 when `count` is not positive).
    public mutating func below(_ count: Int) -> Int {
        Int(next() % UInt64(max(count, 1)))
    }

    /// True with probability `1 / n`.
    public mutating func oneIn(_ n: Int) -> Bool {
        below(n) == 0
    }
}
