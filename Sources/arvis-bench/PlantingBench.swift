import ARVisPlanting
import ARVisSpatial
import ArgumentParser
import Foundation

/// ReforestAR-style taps of 10 trees into a growing scene.
struct TapsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taps",
        abstract: "Time 10 000 ReforestAR taps of 10 trees (s = 1) into a growing scene, spread over a 40 m square.")

    @Option(help: "Taps per run.")
    var taps = 10_000

    @Option(help: "Timed runs.")
    var iterations = 5

    func run() throws {
        let planner = ReforestARTapGroup(rules: .init(s: 1, n: 10))
        var planted = 0, refused = 0
        let median = medians(iterations, [{
            var scene = SpatialHash(cellSize: 1)
            var generator = SplitMix64(seed: 99)
            planted = 0
            refused = 0
            for _ in 0..<taps {
                var tap = Matrix4.identity
                tap[0, 3] = .random(in: -20...20, using: &generator)
                tap[2, 3] = .random(in: -20...20, using: &generator)
                if case .placed(let trees) = planner.plant(at: tap, scene: &scene, using: &generator) { planted += trees.count } else { refused += 1 }
            }
        }])[0]
        print(String(format: "%d taps of 10 trees: median %.1f ms; %d trees planted, %d taps refused", taps, median * 1000, planted, refused))
        print(String(format: "RESULT taps_10000_median %.2f ms", median * 1000))
    }
}

/// Maximal Poisson-disk fill of a 1 km² square at r = 3 m.
struct PoissonBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poisson",
        abstract: "Time a maximal Poisson-disk fill of a 1 km² square at r = 3 m and report its density per r².")

    @Option(help: "Timed runs.")
    var iterations = 5

    @Option(help: "The square's side in metres.")
    var side = 1000.0

    @Option(help: "The spacing r in metres.")
    var spacing = 3.0

    func run() throws {
        let area = Area(outer: [SIMD2(0, 0), SIMD2(side, 0), SIMD2(side, side), SIMD2(0, side)])
        var count = 0
        let median = medians(iterations, [{
            var generator = SplitMix64(seed: 5)
            count = PoissonDisk.fill(area, spacing: spacing, using: &generator).count
        }])[0]
        let density = Double(count) * spacing * spacing / area.squareMetres
        print(String(format: "%.0f m square at r = %.1f m: median %.1f ms, %d points, %.3f per r²", side, spacing, median * 1000, count, density))
        print(String(format: "RESULT poisson_1km2_median %.1f ms", median * 1000))
        print(String(format: "RESULT poisson_density %.3f per_r2", density))
    }
}
