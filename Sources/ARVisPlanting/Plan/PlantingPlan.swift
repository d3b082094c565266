/// How an area is filled with trees.
public enum PlantingLayout: Sendable, Hashable {
    /// Maximal Poisson-disk sampling: natural-looking, about 0.8 trees per spacing².
    case poisson
    /// A triangular (hexagonal) lattice at `spacing` (nil: the mix's largest spacing), rows turned
    /// `orientation` degrees anticlockwise from east.
    case triangular(spacing: Double?, orientation: Double)
    /// ReforestAR's tap groups of `treesPerTap`, tapped at random places on the site until taps stop
    /// finding room (its maximum-distance rules keep the planting in one cluster).
    case reforestar(treesPerTap: Int)
}

/// A planting plan: the site, the mix, and where each tree goes.
public struct PlantingPlan: Sendable {
    /// The site the plan fills.
    public var site: PlantingSite
    /// The species, with their spacings as planned.
    public var mix: SpeciesMix
    /// The trees.
    public var trees: [PlannedTree]
    /// The number of trees asked for, if any.
    public var requestedCount: Int?
    /// How much the spacings were widened to spread a requested count over the site (1 when not).
    public var spacingFactor: Double

    /// Creates a plan.
    public init(
        site: PlantingSite, mix: SpeciesMix, trees: [PlannedTree], requestedCount: Int? = nil, spacingFactor: Double = 1
    ) {
        self.site = site
        self.mix = mix
        self.trees = trees
        self.requestedCount = requestedCount
        self.spacingFactor = spacingFactor
    }

    /// The spacing `tree` keeps.
    public func spacing(of tree: PlannedTree) -> Double { mix.entries[tree.species].spacing }

    /// The figures a planner reads first.
    public var summary: PlanSummary {
        let area = site.squareMetres
        return PlanSummary(
            trees: trees.count, squareMetres: area, perHectare: area > 0 ? Double(trees.count) / area * 10_000 : 0,
            minimumDistance: minimumDistance(),
            perSpecies: mix.entries.indices.map { species in trees.count { $0.species == species } },
            shortfall: max((requestedCount ?? 0) - trees.count, 0))
    }

    /// Every way the plan breaks its rules: trees outside the site, pairs closer than the larger of
    /// their spacings, trees too close to standing ones (distances within a billionth of the rule, as
    /// lattice arithmetic leaves them, pass). Empty for every plan ARVis makes.
    public func violations() -> [String] {
        var problems: [String] = []
        let standing = site.standingIndex()
        let tolerance = 1 - 1e-9
        var index = TreeIndex(cellSize: max(mix.largestSpacing, 1e-3))
        for (number, tree) in trees.enumerated() {
            if !site.allows(tree.position) { problems.append("tree \(number) at \(tree.position) is outside the site") }
            if index.conflicts(tree.position, spacing: spacing(of: tree) * tolerance) {
                problems.append("tree \(number) stands closer than its spacing to another")
            }
            if standing?.conflicts(tree.position, spacing: spacing(of: tree) * tolerance) ?? false {
                problems.append("tree \(number) stands closer than its spacing to a standing tree")
            }
            index.insert(tree.position, spacing: spacing(of: tree) * tolerance)
        }
        return problems
    }

    /// The smallest distance between two planned trees (nil with fewer than two).
    func minimumDistance() -> Double? {
        guard trees.count > 1 else { return nil }
        let radius = 3 * max(mix.largestSpacing, 1e-3)
        var index = TreeIndex(cellSize: radius / 3)
        for tree in trees { index.insert(tree.position, spacing: 0) }
        let nearest = trees.indices.compactMap {
            index.nearestDistance(to: trees[$0].position, within: radius, excluding: $0)
        }.min()
        if let nearest { return nearest }
        // Every tree stands far from the others: few enough to compare pairwise.
        guard trees.count <= 5_000 else { return nil }
        var best = Double.infinity
        for first in trees.indices {
            for second in trees.indices where second > first {
                let offset = trees[first].position - trees[second].position
                best = min(best, (offset * offset).sum())
            }
        }
        return best.squareRoot()
    }
}

/// The figures of a plan.
public struct PlanSummary: Sendable, Hashable, Codable {
    /// How many trees.
    public var trees: Int
    /// The site's area in square metres.
    public var squareMetres: Double
    /// Trees per hectare.
    public var perHectare: Double
    /// The closest two trees stand this far apart (nil with fewer than two trees).
    public var minimumDistance: Double?
    /// Trees of each species of the mix, in the mix's order.
    public var perSpecies: [Int]
    /// How many requested trees did not fit.
    public var shortfall: Int
}

/// A tree of a plan: where it stands in local metres and which species of the mix it is.
public struct PlannedTree: Sendable, Hashable {
    /// Its position in local metres (x east, y north).
    public var position: SIMD2<Double>
    /// The index of its species in the mix.
    public var species: Int

    /// Creates a planned tree.
    public init(position: SIMD2<Double>, species: Int) {
        self.position = position
        self.species = species
    }
}
