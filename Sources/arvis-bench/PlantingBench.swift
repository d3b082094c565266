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
