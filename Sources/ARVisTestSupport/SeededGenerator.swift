import ARVisSpatial

/// The seeded generator property tests share: ARVisSpatial's SplitMix64, so every test target can use
/// it without importing the spatial module.
public struct SeededGenerator: RandomNumberGenerator {
    private var base: SplitMix64

    /// Creates a generator; the same seed gives the same sequence.
    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { base.next() }
}
