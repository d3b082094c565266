import ARVisSpatial
import Foundation

/// Maximal Poisson-disk filling of a site: trees at least their spacing apart, added until no more fit.
///
/// Bridson's algorithm on a background grid (cell = smallest spacing/√2, so one tree per cell), with
/// candidates drawn just beyond the spacing around each active tree — which packs denser than drawing
/// in the whole annulus — and reseeding anywhere on the site until it is full, so areas split by holes
/// fill too. With several species, two trees keep the larger of their spacings, and species are drawn
/// to follow the mix's shares.
public enum PoissonDisk {
    /// The most background-grid cells a fill uses (cells are the smallest spacing/√2 wide); a larger
    /// site at that spacing gives no trees. ``cells(for:mix:)`` tells in advance. 20 million cells
    /// (10 km² at 1 m, 180 km² at 3 m) keep a plan's memory, grid and trees together, well under 1 GB.
    public static let maximumCells = 2e7

    /// The background-grid cells a fill of `site` with `mix` needs.
    public static func cells(for site: PlantingSite, mix: SpeciesMix) -> Double {
        let size = site.bounds.maximum - site.bounds.minimum
        let cell = mix.smallestSpacing / 2.squareRoot()
        return (size.x / cell + 1) * (size.y / cell + 1)
    }

    /// Points filling `area` with at least `spacing` between any two, and at most `limit` of them.
    public static func fill<G: RandomNumberGenerator>(
        _ area: Area, spacing: Double, limit: Int = .max, attempts: Int = 12,
        using generator: inout G
    ) -> [SIMD2<Double>] {
        fill(PlantingSite(area), mix: .uniform(spacing: spacing), limit: limit, attempts: attempts, using: &generator)
            .map(\.position)
    }

    /// Trees filling `site` by the spacing rules of `mix`, at most `limit` of them.
    public static func fill<G: RandomNumberGenerator>(
        _ site: PlantingSite, mix: SpeciesMix, limit: Int = .max, attempts: Int = 12,
        using generator: inout G
    ) -> [PlannedTree] {
        guard !mix.entries.isEmpty, !site.areas.isEmpty, limit > 0, attempts > 0 else { return [] }
        guard var sampler = Sampler(site: site, mix: mix, attempts: attempts) else { return [] }
        sampler.run(limit: limit, using: &generator)
        return sampler.xs.indices.map {
            PlannedTree(position: SIMD2(sampler.xs[$0], sampler.ys[$0]), species: Int(sampler.kinds[$0]))
        }
    }

    /// The sampler's state: the grid, the trees and the active list.
    private struct Sampler {
        let site: PlantingSite
        let standing: TreeIndex?
        let spacings: [Double]
        let cell: Double
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        let columns: Int, rows: Int
        /// Unit directions evenly around the circle; each active tree turns them by a random angle.
        let directions: [(Double, Double)]
        /// Neighbour cells that can hold a tree closer than the largest spacing, nearest first.
        let neighbours: [(Int, Int)]
        var picker: MixPicker
        var grid: [Int32]
        var xs: [Double] = [], ys: [Double] = [], kinds: [Int32] = []
        /// Each tree's spacing, squared, for the distance checks.
        var spacings2: [Double] = []
        var active: [Int32] = []

        init?(site: PlantingSite, mix: SpeciesMix, attempts: Int) {
            let bounds = site.bounds
            guard [bounds.minimum.x, bounds.minimum.y, bounds.maximum.x, bounds.maximum.y].allSatisfy(\.isFinite) else {
                return nil
            }
            spacings = mix.entries.map(\.spacing)
            cell = mix.smallestSpacing / 2.squareRoot()
            columns = Int(((bounds.maximum.x - bounds.minimum.x) / cell).rounded(.up)) + 1
            rows = Int(((bounds.maximum.y - bounds.minimum.y) / cell).rounded(.up)) + 1
            guard cell > 0, columns > 0, rows > 0, Double(columns) * Double(rows) <= PoissonDisk.maximumCells else {
                return nil
            }
            self.site = site
            standing = site.standingIndex()
            (minX, minY, maxX, maxY) = (bounds.minimum.x, bounds.minimum.y, bounds.maximum.x, bounds.maximum.y)
            directions = (0..<attempts).map {
                (cos(2 * .pi * Double($0) / Double(attempts)), sin(2 * .pi * Double($0) / Double(attempts)))
            }
            neighbours = Self.neighbourOffsets(reach: mix.largestSpacing / cell)
            picker = MixPicker(mix)
            grid = [Int32](repeating: -1, count: columns * rows)
        }

        /// Offsets of the cells whose nearest point lies closer than `reach` cells, nearest first.
        static func neighbourOffsets(reach: Double) -> [(Int, Int)] {
            let limit = Int(reach.rounded(.up))
            var offsets: [(Int, Int)] = []
            for dy in -limit...limit {
                for dx in -limit...limit {
                    let gapX = Double(max(abs(dx) - 1, 0))
                    let gapY = Double(max(abs(dy) - 1, 0))
                    if gapX * gapX + gapY * gapY < reach * reach { offsets.append((dx, dy)) }
                }
            }
            return offsets.sorted { $0.0 * $0.0 + $0.1 * $0.1 < $1.0 * $1.0 + $1.1 * $1.1 }
        }

        /// Whether a tree of spacing² `spacing2` may stand at (x, y).
        func fits(_ x: Double, _ y: Double, _ species: Int) -> Bool {
            guard x >= minX, y >= minY, x <= maxX, y <= maxY else { return false }
            let cx = Int((x - minX) / cell)
            let cy = Int((y - minY) / cell)
            let own2 = spacings[species] * spacings[species]
            let free = grid.withUnsafeBufferPointer { grid in
                xs.withUnsafeBufferPointer { xs in
                    ys.withUnsafeBufferPointer { ys in
                        spacings2.withUnsafeBufferPointer { spacings2 in
                            for (dx, dy) in neighbours {
                                let column = cx + dx
                                let row = cy + dy
                                guard column >= 0, row >= 0, column < columns, row < rows else { continue }
                                let index = Int(grid[row * columns + column])
                                if index >= 0 {
                                    let ddx = xs[index] - x
                                    let ddy = ys[index] - y
                                    if ddx * ddx + ddy * ddy < max(own2, spacings2[index]) { return false }
                                }
                            }
                            return true
                        }
                    }
                }
            }
            guard free, site.allows(SIMD2(x, y)) else { return false }
            return !(standing?.conflicts(SIMD2(x, y), spacing: spacings[species]) ?? false)
        }

        mutating func add(_ x: Double, _ y: Double, _ species: Int) {
            grid[Int((y - minY) / cell) * columns + Int((x - minX) / cell)] = Int32(xs.count)
            active.append(Int32(xs.count))
            xs.append(x)
            ys.append(y)
            kinds.append(Int32(species))
            spacings2.append(spacings[species] * spacings[species])
            picker.commit(species)
        }

        mutating func run<G: RandomNumberGenerator>(limit: Int, using source: inout G) {
            // A concrete generator seeded from the caller's keeps the hot loop free of generic calls.
            var generator = SplitMix64(seed: source.next())
            var failedSeeds = 0
            while xs.count < limit && failedSeeds < 64 {
                // Seed (or reseed) anywhere on the site that still has room.
                let species = picker.choose(using: &generator)
                let seedX = Double.random(in: minX...maxX, using: &generator)
                let seedY = Double.random(in: minY...maxY, using: &generator)
                guard fits(seedX, seedY, species) else {
                    failedSeeds += 1
                    continue
                }
                failedSeeds = 0
                add(seedX, seedY, species)
                while !active.isEmpty, xs.count < limit { grow(using: &generator) }
            }
        }

        /// Tries to place one tree just beyond the spacing of a random active tree; retires the active
        /// tree when every direction fails.
        mutating func grow(using generator: inout SplitMix64) {
            let pick = Int.random(in: 0..<active.count, using: &generator)
            let center = Int(active[pick])
            let species = picker.choose(using: &generator)
            let radius = max(spacings[species] * spacings[species], spacings2[center]).squareRoot() * (1 + 1e-7)
            let turn = Double.random(in: 0..<(2 * .pi), using: &generator)
            let (turnCos, turnSin) = (cos(turn), sin(turn))
            let (centerX, centerY) = (xs[center], ys[center])
            for (directionCos, directionSin) in directions {
                let x = centerX + radius * (directionCos * turnCos - directionSin * turnSin)
                let y = centerY + radius * (directionSin * turnCos + directionCos * turnSin)
                if fits(x, y, species) {
                    add(x, y, species)
                    return
                }
            }
            active.swapAt(pick, active.count - 1)
            active.removeLast()
        }
    }
}
