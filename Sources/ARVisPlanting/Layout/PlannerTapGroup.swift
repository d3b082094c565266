import Foundation

/// Tap groups in planner mode: as many of the requested trees as fit near the tap, nearest first,
/// keeping every spacing rule — and how many did not fit — instead of ReforestAR's all-or-nothing.
///
/// Each new tree takes the valid position nearest the tap among the tap itself and points just beyond
/// the spacing around the trees the group has placed — so a group packs tightly around the tap and
/// flows around trees that already stand — falling back to rings around the tap, one spacing apart,
/// when the group is hemmed in.
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
    public func plant<G: RandomNumberGenerator>(
        _ count: Int, at tap: SIMD2<Double>, index: inout TreeIndex, site: PlantingSite? = nil,
        using generator: inout G
    ) -> Result {
        guard count > 0, !mix.entries.isEmpty else { return Result(placed: [], unplaced: max(count, 0)) }
        let limit = reach ?? 3 * mix.largestSpacing * Double(count)
        let turn = Double.random(in: 0..<(2 * .pi), using: &generator)
        var picker = MixPicker(mix)
        var placed: [PlannedTree] = []
        while placed.count < count {
            let species = picker.choose(using: &generator)
            let spacing = mix.entries[species].spacing
            let valid = { (point: SIMD2<Double>) in
                ((point - tap) * (point - tap)).sum() <= limit * limit && (site?.allows(point) ?? true)
                    && !index.conflicts(point, spacing: spacing)
            }
            guard
                let nearest = nearestValid(
                    around: tap, placed: placed, spacing: spacing, limit: limit, turn: turn, valid)
            else { break }
            index.insert(nearest, spacing: spacing)
            picker.commit(species)
            placed.append(PlannedTree(position: nearest, species: species))
        }
        return Result(placed: placed, unplaced: count - placed.count)
    }

    /// The valid candidate nearest the tap for a tree of `spacing`: the tap itself, then points just
    /// beyond the spacing around the group's trees, then rings around the tap one spacing apart.
    private func nearestValid(
        around tap: SIMD2<Double>, placed: [PlannedTree], spacing: Double, limit: Double, turn: Double,
        _ valid: (SIMD2<Double>) -> Bool
    ) -> SIMD2<Double>? {
        func circle(_ center: SIMD2<Double>, _ radius: Double, _ points: Int) -> [SIMD2<Double>] {
            (0..<points).map { step in
                let angle = turn + 2 * .pi * Double(step) / Double(points)
                return center + radius * SIMD2(cos(angle), sin(angle))
            }
        }
        func distance2(_ point: SIMD2<Double>) -> Double { ((point - tap) * (point - tap)).sum() }
        if placed.isEmpty, valid(tap) { return tap }
        let around = placed.flatMap {
            circle($0.position, max(spacing, mix.entries[$0.species].spacing) * (1 + 1e-7), 18)
        }
        if let nearest = around.map({ ($0, distance2($0)) }).sorted(by: { $0.1 < $1.1 }).first(where: { valid($0.0) }) {
            return nearest.0
        }
        // Every ring point is the same distance from the tap, so the first ring with room holds the nearest.
        let rings = limit / spacing >= 8 ? 8 : Int(max(limit / spacing, 0))
        for ring in stride(from: 1, through: rings, by: 1) {
            if let found = circle(tap, spacing * Double(ring), 7 * ring).first(where: valid) { return found }
        }
        return nil
    }
}
