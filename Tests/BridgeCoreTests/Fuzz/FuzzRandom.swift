/// A deterministic random number generator (SplitMix64) for the fuzz tests: the same seed gives the same
/// inputs on every machine, so a failure reproduces with its seed.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly chosen index below `count` (which must be positive).
    mutating func below(_ count: Int) -> Int {
        Int(next() % UInt64(max(count, 1)))
    }

    /// True with probability `1 / n`.
    mutating func oneIn(_ n: Int) -> Bool {
        below(n) == 0
    }
}
