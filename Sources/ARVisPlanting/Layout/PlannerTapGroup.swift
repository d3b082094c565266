import Foundation

/// Tap groups in planner mode: as many of the requested trees as fit near the tap, nearest first,
/// keeping every spacing rule — and how many did not fit — instead of ReforestAR's all-or-nothing.
///
/// Candidates are the tap itself, rings around it, and circles just beyond the spacing around each
/// tree the group has placed; each new tree takes the valid candidate nearest the tap, so a group
/// packs tightly around the tap and flows around trees that already stand.
public struct PlannerTapGroup: Sendable {
    /// The species planted, by share.
    public var mix: SpeciesMix
    /// How far from the tap a tree may go; nil means ReforestAR's limit, 3 × largest spacing × trees.
    public var reach: Double?

    /// What a tap planted.
    public struct Result: Sendable, Hashable {
        /// The trees placed, in placement order.
        public var placed: [PlannedTree]
        /// How many of the requested trees found no room.
        public var unplaced: Int
    }

    /// Creates a planner-mode tap group.
    public init(mix: SpeciesMix, reach: Double? = nil) {
        self.mix = mix
        self.reach = reach
    }

    /// Plants up to `count` trees around `tap` among the trees of `index` (placed trees are added to
    /// it), inside `site` when one is given.
    public func plant<G: RandomNumberGenerator>(_ count: Int, at tap: SIMD2<Double>, index: inout TreeIndex, site: PlantingSite? = nil,
                                                using generator: inout G) -> Result {
        guard count > 0, !mix.entries.isEmpty else { return Result(placed: [], unplaced: max(count, 0)) }
        let limit = reach ?? 3 * mix.largestSpacing * Double(count)
        let turn = Double.random(in: 0..<(2 * .pi), using: &generator)
        var picker = MixPicker(mix)
        var placed: [PlannedTree] = []
        while placed.count < count {
            let species = picker.choose(using: &generator)
            let spacing = mix.entries[species].spacing
            let valid = { (point: SIMD2<Double>) in
                ((point - tap) * (point - tap)).sum() <= limit * limit && (site?.allows(point) ?? true) && !index.conflicts(point, spacing: spacing)
            }
            let nearest = candidates(around: tap, placed: placed, spacing: spacing, limit: limit, turn: turn)
                .filter(valid)
                .min { (($0 - tap) * ($0 - tap)).sum() < (($1 - tap) * ($1 - tap)).sum() }
            guard let nearest else { break }
            index.insert(nearest, spacing: spacing)
            picker.commit(species)
            placed.append(PlannedTree(position: nearest, species: species))
        }
        return Result(placed: placed, unplaced: count - placed.count)
    }

    /// The candidate positions for a tree of `spacing`.
    private func candidates(around tap: SIMD2<Double>, placed: [PlannedTree], spacing: Double, limit: Double, turn: Double) -> [SIMD2<Double>] {
        let steps = 18
        func circle(_ center: SIMD2<Double>, _ radius: Double, _ points: Int) -> [SIMD2<Double>] {
            (0..<points).map { step in
                let angle = turn + 2 * .pi * Double(step) / Double(points)
                return center + radius * SIMD2(cos(angle), sin(angle))
            }
        }
        var result = [tap]
        let rings = min(Int(limit / spacing), 8)
        if rings >= 1 {
            for ring in 1...rings { result += circle(tap, spacing * Double(ring), steps * ring) }
        }
        for tree in placed {
            let radius = max(spacing, mix.entries[tree.species].spacing) * (1 + 1e-7)
            result += circle(tree.position, radius, steps)
        }
        return result
    }
}
