import ARVisSpatial
import Foundation

/// Maximal Poisson-disk filling of an area: points at least `spacing` apart, added until no more fit.
///
/// Bridson's algorithm on a background grid (cell = spacing/√2, one point per cell), with candidates
/// drawn just beyond the spacing around each active point — which packs denser than drawing in the
/// whole annulus — and reseeding anywhere in the area until it is full, so areas split by holes fill
/// too.
public enum PoissonDisk {
    /// Points filling `area` with at least `spacing` between any two, and at most `limit` of them.
    public static func fill<G: RandomNumberGenerator>(_ area: Area, spacing: Double, limit: Int = .max, attempts: Int = 12,
                                                      using generator: inout G) -> [SIMD2<Double>] {
        guard spacing > 0, spacing.isFinite, area.outer.count >= 3, limit > 0, attempts > 0 else { return [] }
        guard var sampler = Sampler(area: area, spacing: spacing, attempts: attempts) else { return [] }
        sampler.run(limit: limit, using: &generator)
        return zip(sampler.xs, sampler.ys).map { SIMD2($0, $1) }
    }

    /// The sampler's state: the grid, the points and the active list.
    private struct Sampler {
        let area: Area
        let cell: Double, spacing2: Double, radius: Double
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        let columns: Int, rows: Int
        /// Unit directions evenly around the circle; each active point turns them by a random angle.
        let directions: [(Double, Double)]
        var grid: [Int32]
        var xs: [Double] = [], ys: [Double] = []
        var active: [Int32] = []

        init?(area: Area, spacing: Double, attempts: Int) {
            let bounds = area.bounds
            cell = spacing / 2.squareRoot()
            columns = Int(((bounds.maximum.x - bounds.minimum.x) / cell).rounded(.up)) + 1
            rows = Int(((bounds.maximum.y - bounds.minimum.y) / cell).rounded(.up)) + 1
            guard columns > 0, rows > 0, Double(columns) * Double(rows) < 4e8 else { return nil }
            self.area = area
            spacing2 = spacing * spacing
            radius = spacing * (1 + 1e-7)
            (minX, minY, maxX, maxY) = (bounds.minimum.x, bounds.minimum.y, bounds.maximum.x, bounds.maximum.y)
            directions = (0..<attempts).map { (cos(2 * .pi * Double($0) / Double(attempts)), sin(2 * .pi * Double($0) / Double(attempts))) }
            grid = [Int32](repeating: -1, count: columns * rows)
        }

        /// Neighbour cells that can hold a point closer than the spacing, nearest first (the four
        /// corners of the 5 × 5 block are at least the spacing away and are skipped).
        let neighbours: [(Int, Int)] = {
            var offsets: [(Int, Int)] = []
            for dy in -2...2 {
                for dx in -2...2 where abs(dx) + abs(dy) < 4 { offsets.append((dx, dy)) }
            }
            return offsets.sorted { $0.0 * $0.0 + $0.1 * $0.1 < $1.0 * $1.0 + $1.1 * $1.1 }
        }()

        func fits(_ x: Double, _ y: Double) -> Bool {
            guard x >= minX, y >= minY, x <= maxX, y <= maxY else { return false }
            let cx = Int((x - minX) / cell), cy = Int((y - minY) / cell)
            let free = grid.withUnsafeBufferPointer { grid in
                xs.withUnsafeBufferPointer { xs in
                    ys.withUnsafeBufferPointer { ys in
                        for (dx, dy) in neighbours {
                            let column = cx + dx, row = cy + dy
                            guard column >= 0, row >= 0, column < columns, row < rows else { continue }
                            let index = Int(grid[row * columns + column])
                            if index >= 0 {
                                let ddx = xs[index] - x, ddy = ys[index] - y
                                if ddx * ddx + ddy * ddy < spacing2 { return false }
                            }
                        }
                        return true
                    }
                }
            }
            return free && area.contains(SIMD2(x, y))
        }

        mutating func add(_ x: Double, _ y: Double) {
            grid[Int((y - minY) / cell) * columns + Int((x - minX) / cell)] = Int32(xs.count)
            active.append(Int32(xs.count))
            xs.append(x)
            ys.append(y)
        }

        mutating func run<G: RandomNumberGenerator>(limit: Int, using source: inout G) {
            // A concrete generator seeded from the caller's keeps the hot loop free of generic calls.
            var generator = SplitMix64(seed: source.next())
            var failedSeeds = 0
            while xs.count < limit && failedSeeds < 64 {
                // Seed (or reseed) anywhere in the area that still has room.
                let seedX = Double.random(in: minX...maxX, using: &generator), seedY = Double.random(in: minY...maxY, using: &generator)
                guard fits(seedX, seedY) else { failedSeeds += 1; continue }
                failedSeeds = 0
                add(seedX, seedY)
                while !active.isEmpty, xs.count < limit {
                    let pick = Int.random(in: 0..<active.count, using: &generator)
                    let center = Int(active[pick])
                    let turn = Double.random(in: 0..<(2 * .pi), using: &generator)
                    let (turnCos, turnSin) = (cos(turn), sin(turn))
                    let (centerX, centerY) = (xs[center], ys[center])
                    var placed = false
                    for (directionCos, directionSin) in directions {
                        let x = centerX + radius * (directionCos * turnCos - directionSin * turnSin)
                        let y = centerY + radius * (directionSin * turnCos + directionCos * turnSin)
                        if fits(x, y) {
                            add(x, y)
                            placed = true
                            break
                        }
                    }
                    if !placed {
                        active.swapAt(pick, active.count - 1)
                        active.removeLast()
                    }
                }
            }
        }
    }
}
