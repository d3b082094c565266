import ARVisSpatial
import ARVisSpec

/// Fills a site with trees: the layouts, a requested count spread over the whole site, and the
/// species mix.
public enum AreaPlanner {
    /// A plan for `site` with `mix` laid out as `layout`.
    ///
    /// With a `count`, Poisson and triangular layouts widen every spacing by the same factor until
    /// about that many trees fill the whole site, then drop the surplus at random — so a small count is
    /// spread evenly rather than bunched in a corner; the ReforestAR layout stops tapping once it has
    /// the count. When even the rules' own spacing cannot fit `count` trees, the plan has fewer and its
    /// summary says how many are missing. The same seed gives the same plan.
    public static func plan(
        _ site: PlantingSite, mix: SpeciesMix, layout: PlantingLayout, count: Int? = nil, seed: UInt64 = 1
    ) -> PlantingPlan {
        switch layout {
        case .poisson:
            return spread(site, mix: mix, count: count, seed: seed) { mix, generator in
                PoissonDisk.fill(site, mix: mix, using: &generator)
            }
        case .triangular(let spacing, let orientation):
            let base = max(spacing ?? mix.largestSpacing, 0)
            return spread(site, mix: mix, count: count, seed: seed) { scaled, generator in
                TriangularGrid.fill(
                    site, mix: scaled, spacing: base * scaled.largestSpacing / mix.largestSpacing,
                    orientation: orientation,
                    using: &generator)
            }
        case .reforestar(let treesPerTap):
            return tapped(site, mix: mix, treesPerTap: treesPerTap, count: count, seed: seed)
        }
    }

    /// Fills with `fill`, widening spacings to spread `count` trees when one is given.
    private static func spread(
        _ site: PlantingSite, mix: SpeciesMix, count: Int?, seed: UInt64,
        fill: (SpeciesMix, inout SplitMix64) -> [PlannedTree]
    ) -> PlantingPlan {
        func attempt(_ factor: Double) -> [PlannedTree] {
            var generator = SplitMix64(seed: seed)
            return fill(factor == 1 ? mix : mix.scaled(by: factor), &generator)
        }
        let full = attempt(1)
        guard let count, count >= 0, full.count > count else {
            return PlantingPlan(site: site, mix: mix, trees: full, requestedCount: count)
        }
        guard count > 0 else { return PlantingPlan(site: site, mix: mix, trees: [], requestedCount: 0) }
        // Bisect the factor: `low` always fits at least `count` trees, `high` fewer.
        var (low, lowTrees) = (1.0, full)
        var high = (Double(full.count) / Double(count)).squareRoot() * 1.25
        while attempt(high).count >= count && high < 1e6 { (low, high) = (high, high * 2) }
        for _ in 0..<14 where high / low > 1.002 {
            let middle = (low * high).squareRoot()
            let trees = attempt(middle)
            if trees.count >= count { (low, lowTrees) = (middle, trees) } else { high = middle }
        }
        var generator = SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        let kept = Set(lowTrees.indices.shuffled(using: &generator).prefix(count))
        let trees = lowTrees.indices.filter(kept.contains).map { lowTrees[$0] }
        return PlantingPlan(
            site: site, mix: mix.scaled(by: low), trees: trees, requestedCount: count, spacingFactor: low)
    }

    /// ReforestAR tap groups at random places on the site (with its rules: s is the mix's largest
    /// spacing; every tree of a tap is one species), until `count` trees or 2 000 taps in a row find
    /// no room. Beyond ReforestAR, trees stay on the site and clear of standing trees by their spacing.
    private static func tapped(_ site: PlantingSite, mix: SpeciesMix, treesPerTap: Int, count: Int?, seed: UInt64)
        -> PlantingPlan
    {
        let spacing = mix.largestSpacing
        let planner = ReforestARTapGroup(rules: .init(s: spacing, n: treesPerTap), scaleMode: .fixed)
        var scene = SpatialHash(cellSize: max(spacing, 1e-3))
        for tree in site.existing { scene.insert(Vec3(tree.position.x, 0, tree.position.y)) }
        var generator = SplitMix64(seed: seed)
        var picker = MixPicker(mix)
        var trees: [PlannedTree] = []
        let bounds = site.bounds
        let standing = site.standingIndex()
        let allowed = { (point: Vec3) in
            site.allows(SIMD2(point.x, point.z))
                && !(standing?.conflicts(SIMD2(point.x, point.z), spacing: spacing) ?? false)
        }
        let target = count ?? .max
        var refusedInARow = 0
        guard !mix.entries.isEmpty, bounds.maximum.x > bounds.minimum.x, bounds.maximum.y > bounds.minimum.y,
            (bounds.maximum - bounds.minimum).x.isFinite, (bounds.maximum - bounds.minimum).y.isFinite
        else {
            return PlantingPlan(site: site, mix: mix, trees: [], requestedCount: count)
        }
        while trees.count < target && refusedInARow < 2_000 {
            var tap = Matrix4.identity
            tap[0, 3] = .random(in: bounds.minimum.x...bounds.maximum.x, using: &generator)
            tap[2, 3] = .random(in: bounds.minimum.y...bounds.maximum.y, using: &generator)
            let species = picker.choose(using: &generator)
            let outcome = planner.plant(at: tap, scene: &scene, allowed: allowed, using: &generator)
            guard case .placed(let transforms) = outcome else {
                refusedInARow += 1
                continue
            }
            refusedInARow = 0
            for transform in transforms.prefix(target - trees.count) {
                trees.append(PlannedTree(position: SIMD2(transform[0, 3], transform[2, 3]), species: species))
                picker.commit(species)
            }
        }
        return PlantingPlan(site: site, mix: mix, trees: trees, requestedCount: count)
    }
}
