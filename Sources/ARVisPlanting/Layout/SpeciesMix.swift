/// The species to plant, each with the spacing it keeps and its share of the trees.
public struct SpeciesMix: Sendable, Hashable {
    /// One species of the mix.
    public struct Entry: Sendable, Hashable {
        /// The species' name as written to the plan.
        public var name: String
        /// The distance in metres it keeps from every other tree (two trees keep the larger of their
        /// spacings).
        public var spacing: Double
        /// Its share of the trees; shares are normalised to sum to 1.
        public var share: Double

        /// Creates an entry.
        public init(name: String, spacing: Double, share: Double = 1) {
            self.name = name
            self.spacing = spacing
            self.share = share
        }
    }

    /// The species, with shares summing to 1.
    public private(set) var entries: [Entry]

    /// Creates a mix; shares are normalised, and entries without a positive share or spacing dropped.
    public init(_ entries: [Entry]) {
        let usable = entries.filter { $0.share > 0 && $0.share.isFinite && $0.spacing > 0 && $0.spacing.isFinite }
        let total = usable.reduce(0) { $0 + $1.share }
        self.entries = usable.map { Entry(name: $0.name, spacing: $0.spacing, share: $0.share / total) }
    }

    /// One unnamed kind of tree at one spacing.
    public static func uniform(spacing: Double, name: String = "tree") -> SpeciesMix {
        SpeciesMix([Entry(name: name, spacing: spacing)])
    }

    /// The largest spacing of any species.
    public var largestSpacing: Double { entries.map(\.spacing).max() ?? 0 }
    /// The smallest spacing of any species.
    public var smallestSpacing: Double { entries.map(\.spacing).min() ?? 0 }

    /// The same mix with every spacing multiplied by `factor`.
    func scaled(by factor: Double) -> SpeciesMix {
        SpeciesMix(entries.map { Entry(name: $0.name, spacing: $0.spacing * factor, share: $0.share) })
    }
}

/// Chooses species so that counts follow the mix's shares closely (never more than about one tree off)
/// while the order stays random.
struct MixPicker {
    private let shares: [Double]
    private(set) var counts: [Int]
    private var total = 0

    init(_ mix: SpeciesMix) {
        shares = mix.entries.map(\.share)
        counts = Array(repeating: 0, count: mix.entries.count)
    }

    /// A species to plant next, drawn in proportion to how far each lags its share. Call ``commit(_:)``
    /// once it is placed.
    func choose<G: RandomNumberGenerator>(using generator: inout G) -> Int {
        guard shares.count > 1 else { return 0 }
        // Runs for every candidate of a mixed Poisson fill: deficits are recomputed, not stored.
        func deficit(_ species: Int) -> Double { max(0, shares[species] * Double(total + 1) - Double(counts[species])) }
        let sum = shares.indices.reduce(0) { $0 + deficit($1) }
        guard sum > 0, sum.isFinite else { return 0 }
        var pick = Double.random(in: 0..<sum, using: &generator)
        for species in shares.indices {
            if pick < deficit(species) { return species }
            pick -= deficit(species)
        }
        return shares.indices.last { deficit($0) > 0 } ?? 0
    }

    /// Records that a tree of `species` was planted.
    mutating func commit(_ species: Int) {
        counts[species] += 1
        total += 1
    }
}
