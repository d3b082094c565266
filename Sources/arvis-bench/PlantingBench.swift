import ARVisPlanting
import ARVisSpatial
import ArgumentParser
import Foundation

/// ReforestAR-style taps of 10 trees into a growing scene.
struct TapsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taps",
        abstract:
            "Time 10 000 taps of 10 trees (1 m spacing) into a growing scene over a 40 m square: ReforestAR's rules, then planner mode."
    )

    @Option(help: "Taps per run.")
    var taps = 10_000

    @Option(help: "Timed runs.")
    var iterations = 5

    func run() throws {
        let planner = ReforestARTapGroup(rules: .init(s: 1, n: 10))
        let plannerMode = PlannerTapGroup(mix: .uniform(spacing: 1))
        var planted = 0
        var refused = 0
        var plannerPlanted = 0
        var unplaced = 0
        let times = medians(
            iterations,
            [
                {
                    var scene = SpatialHash(cellSize: 1)
                    var generator = SplitMix64(seed: 99)
                    (planted, refused) = (0, 0)
                    for _ in 0..<taps {
                        var tap = Matrix4.identity
                        tap[0, 3] = .random(in: -20...20, using: &generator)
                        tap[2, 3] = .random(in: -20...20, using: &generator)
                        if case .placed(let trees) = planner.plant(at: tap, scene: &scene, using: &generator) {
                            planted += trees.count
                        } else {
                            refused += 1
                        }
                    }
                },
                {
                    var index = TreeIndex(cellSize: 1)
                    var generator = SplitMix64(seed: 99)
                    (plannerPlanted, unplaced) = (0, 0)
                    for _ in 0..<taps {
                        let tap = SIMD2(
                            Double.random(in: -20...20, using: &generator),
                            Double.random(in: -20...20, using: &generator))
                        let result = plannerMode.plant(10, at: tap, index: &index, using: &generator)
                        plannerPlanted += result.placed.count
                        unplaced += result.unplaced
                    }
                },
            ])
        print(
            String(
                format: "ReforestAR rules: %d taps of 10 trees: median %.1f ms; %d trees planted, %d taps refused",
                taps, times[0] * 1000, planted, refused))
        print(
            String(
                format: "planner mode:     %d taps of 10 trees: median %.1f ms; %d trees planted, %d did not fit", taps,
                times[1] * 1000, plannerPlanted, unplaced))
        print(String(format: "RESULT taps_10000_median %.2f ms", times[0] * 1000))
        print(String(format: "RESULT planner_taps_10000_median %.2f ms", times[1] * 1000))
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
        let median = medians(
            iterations,
            [
                {
                    var generator = SplitMix64(seed: 5)
                    count = PoissonDisk.fill(area, spacing: spacing, using: &generator).count
                }
            ])[0]
        let density = Double(count) * spacing * spacing / area.squareMetres
        print(
            String(
                format: "%.0f m square at r = %.1f m: median %.1f ms, %d points, %.3f per r²", side, spacing,
                median * 1000, count, density))
        print(String(format: "RESULT poisson_1km2_median %.1f ms", median * 1000))
        print(String(format: "RESULT poisson_density %.3f per_r2", density))
    }
}

/// ARVis against scipy.stats.qmc.PoissonDisk filling the same square.
struct PlantVersusScipy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plant-vs-scipy",
        abstract:
            "Fill a 400 m square at r = 3 m with ARVis and with scipy.stats.qmc.PoissonDisk(...).fill_space(); compare time and density.",
        discussion: "Runs Benchmarks/scipy_poisson.py (pip install scipy); scipy takes about ten seconds per fill.")

    @Option(help: "Timed ARVis runs.")
    var iterations = 20

    @Option(name: .customLong("scipy-iterations"), help: "Timed scipy runs.")
    var scipyIterations = 3

    @Option(help: "The square's side in metres.")
    var side = 400.0

    @Option(help: "The spacing r in metres.")
    var spacing = 3.0

    @Option(help: "The Python interpreter that has scipy.")
    var python = "python3"

    func run() throws {
        let area = Area(outer: [SIMD2(0, 0), SIMD2(side, 0), SIMD2(side, side), SIMD2(0, side)])
        var points: [SIMD2<Double>] = []
        let arvis = medians(
            iterations,
            [
                {
                    var generator = SplitMix64(seed: 5)
                    points = PoissonDisk.fill(area, spacing: spacing, using: &generator)
                }
            ])[0]
        let plan = PlantingPlan(
            site: PlantingSite(area), mix: .uniform(spacing: spacing),
            trees: points.map { PlannedTree(position: $0, species: 0) })
        let closest = plan.summary.minimumDistance ?? 0
        let density = Double(points.count) * spacing * spacing / (side * side)
        let scipy = try PythonSide(
            python: python, script: "Benchmarks/scipy_poisson.py",
            arguments: ["--side", String(side), "--spacing", String(spacing), "--iterations", String(scipyIterations)],
            install: "pip install scipy")
        let (scipyMilliseconds, scipyDensity) = try (scipy.figure("scipy_fill_median"), scipy.figure("scipy_density"))
        print(scipy.output.split(separator: "\n").first.map(String.init) ?? "")
        print(
            String(
                format: "ARVis: median %.2f ms, %d points, closest pair %.4f m, %.3f per r², rules broken: %d",
                arvis * 1000, points.count, closest,
                density, plan.violations().count))
        print(String(format: "RESULT arvis_fill_400m_median %.2f ms", arvis * 1000))
        print(String(format: "RESULT scipy_fill_400m_median %.1f ms", scipyMilliseconds))
        print(String(format: "RESULT arvis_density %.4f per_r2", density))
        print(String(format: "RESULT scipy_density %.4f per_r2", scipyDensity))
        print(String(format: "RESULT arvis_vs_scipy_speedup %.0f x", scipyMilliseconds / (arvis * 1000)))
        print(String(format: "RESULT arvis_vs_scipy_density %.3f x", density / scipyDensity))
    }
}

/// The planner end to end: a mixed plan with a target count, and a triangular fill, of a 1 km² site.
struct PlanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract:
            "Time whole plans of a 1 km² site with a hole and a road: a two-species Poisson mix, a hex grid, and 10 000 trees spread by count."
    )

    @Option(help: "Timed runs.")
    var iterations = 5

    func run() throws {
        let field = Area(
            outer: [SIMD2(0, 0), SIMD2(1000, 0), SIMD2(1000, 1000), SIMD2(0, 1000)],
            holes: [[SIMD2(400, 400), SIMD2(600, 400), SIMD2(600, 600), SIMD2(400, 600)]])
        let road = Area(outer: [SIMD2(-10, 700), SIMD2(1010, 720), SIMD2(1010, 728), SIMD2(-10, 708)])
        let site = PlantingSite(areas: [field], exclusions: [road])
        let mix = SpeciesMix([
            .init(name: "Quercus suber", spacing: 5, share: 3), .init(name: "Pinus pinea", spacing: 6, share: 1),
        ])
        var counts = [0, 0, 0]
        let times = medians(
            iterations,
            [
                { counts[0] = AreaPlanner.plan(site, mix: mix, layout: .poisson).trees.count },
                {
                    counts[1] =
                        AreaPlanner.plan(site, mix: mix, layout: .triangular(spacing: nil, orientation: 20)).trees.count
                },
                { counts[2] = AreaPlanner.plan(site, mix: mix, layout: .poisson, count: 10_000).trees.count },
            ])
        print(
            String(
                format: "mixed Poisson %.1f ms (%d trees), hex %.1f ms (%d trees), 10 000 by count %.1f ms (%d trees)",
                times[0] * 1000, counts[0], times[1] * 1000, counts[1], times[2] * 1000, counts[2]))
        print(String(format: "RESULT plan_mixed_poisson_1km2_median %.1f ms", times[0] * 1000))
        print(String(format: "RESULT plan_hex_1km2_median %.1f ms", times[1] * 1000))
        print(String(format: "RESULT plan_count_10000_median %.1f ms", times[2] * 1000))
    }
}
