import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// Independent checks of a set of trees: brute force, no spatial index.
enum Check {
    /// Pairs closer than the larger of their spacings (brute force over all pairs).
    static func closePairs(_ trees: [PlannedTree], _ mix: SpeciesMix) -> Int {
        var count = 0
        for first in trees.indices {
            for second in trees.indices where second > first {
                let offset = trees[first].position - trees[second].position
                let needed =
                    max(mix.entries[trees[first].species].spacing, mix.entries[trees[second].species].spacing)
                    * (1 - 1e-9)
                if (offset * offset).sum() < needed * needed { count += 1 }
            }
        }
        return count
    }

    /// Even-odd containment written again, for independence from `Area`.
    static func inside(_ ring: [SIMD2<Double>], _ point: SIMD2<Double>) -> Bool {
        var crossings = 0
        for index in ring.indices {
            let a = ring[index]
            let b = ring[(index + 1) % ring.count]
            if (a.y <= point.y) != (b.y <= point.y) {
                let x = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if x > point.x { crossings += 1 }
            }
        }
        return crossings % 2 == 1
    }
}

struct SiteTests {
    static let field = Area(
        outer: [SIMD2(0, 0), SIMD2(80, 0), SIMD2(80, 50), SIMD2(0, 50)],
        holes: [[SIMD2(30, 15), SIMD2(45, 15), SIMD2(45, 30), SIMD2(30, 30)]])
    static let road = Area(outer: [SIMD2(-10, 38), SIMD2(90, 38), SIMD2(90, 42), SIMD2(-10, 42)])
    static let site = PlantingSite(
        areas: [field], exclusions: [road], existing: [StandingTree(position: SIMD2(10, 10), spacing: 6)])
    static let mix = SpeciesMix([.init(name: "oak", spacing: 4, share: 2), .init(name: "pine", spacing: 2.5, share: 1)])

    @Test func allowsOnlyInsideTheAreaAndOutsideHolesAndZones() {
        #expect(Self.site.allows(SIMD2(5, 5)))
        #expect(!Self.site.allows(SIMD2(35, 20)))  // hole
        #expect(!Self.site.allows(SIMD2(20, 40)))  // road
        #expect(!Self.site.allows(SIMD2(85, 10)))  // outside
        // A hole in an exclusion zone is plantable again.
        let ring = PlantingSite(
            areas: [Self.field],
            exclusions: [
                Area(
                    outer: [SIMD2(0, 0), SIMD2(20, 0), SIMD2(20, 20), SIMD2(0, 20)],
                    holes: [[SIMD2(5, 5), SIMD2(15, 5), SIMD2(15, 15), SIMD2(5, 15)]])
            ])
        #expect(ring.allows(SIMD2(10, 10)) && !ring.allows(SIMD2(2, 2)))
        #expect(Self.field.squareMetres == 4000 - 225)
    }

    @Test func treeIndexAnswersLikeABruteForceScan() {
        var generator = SeededGenerator(seed: 4)
        var index = TreeIndex(cellSize: 3)
        var trees: [(SIMD2<Double>, Double)] = []
        for _ in 0..<400 {
            let tree = (
                SIMD2(Double.random(in: 0...60, using: &generator), Double.random(in: 0...60, using: &generator)),
                Double.random(in: 1...6, using: &generator)
            )
            trees.append(tree)
            index.insert(tree.0, spacing: tree.1)
        }
        for _ in 0..<400 {
            let point = SIMD2(
                Double.random(in: -5...65, using: &generator), Double.random(in: -5...65, using: &generator))
            let spacing = Double.random(in: 1...6, using: &generator)
            let expected = trees.contains { (($0.0 - point) * ($0.0 - point)).sum().squareRoot() < max($0.1, spacing) }
            #expect(index.conflicts(point, spacing: spacing) == expected)
            let nearest = trees.map { (($0.0 - point) * ($0.0 - point)).sum().squareRoot() }.min()!
            #expect(index.nearestDistance(to: point, within: 5).map { abs($0 - nearest) < 1e-9 } ?? (nearest > 5))
        }
    }
}

struct MixedPoissonTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func mixedSpeciesKeepTheLargerSpacingAndTheirShares(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let trees = PoissonDisk.fill(SiteTests.site, mix: SiteTests.mix, using: &generator)
        #expect(Check.closePairs(trees, SiteTests.mix) == 0)
        #expect(
            trees.allSatisfy {
                Check.inside(SiteTests.field.outer, $0.position) && !Check.inside(SiteTests.field.holes[0], $0.position)
                    && !Check.inside(SiteTests.road.outer, $0.position)
            })
        // Clear of the standing tree by the larger spacing (6 m).
        #expect(
            trees.allSatisfy {
                (($0.position - SIMD2(10, 10)) * ($0.position - SIMD2(10, 10))).sum() >= 36 * (1 - 1e-9)
            })
        let oaks = Double(trees.count { $0.species == 0 })
        #expect(abs(oaks / Double(trees.count) - 2.0 / 3) < 0.02, "oak share \(oaks / Double(trees.count))")
        #expect(trees.count > 120)
    }
}

struct TriangularGridTests {
    @Test func rowsAreSpacedAndTurned() {
        let square = PlantingSite(Area(outer: [SIMD2(0, 0), SIMD2(100, 0), SIMD2(100, 100), SIMD2(0, 100)]))
        var generator = SeededGenerator(seed: 1)
        let trees = TriangularGrid.fill(
            square, mix: .uniform(spacing: 4), spacing: 4, orientation: 30, using: &generator)
        // Each interior tree has six neighbours at exactly 4 m, along 30°, 90°, 150° …
        var index = TreeIndex(cellSize: 4)
        for tree in trees { index.insert(tree.position, spacing: 0) }
        func distanceToMiddle(_ tree: PlannedTree) -> Double {
            let offset = tree.position - SIMD2<Double>(50, 50)
            return (offset * offset).sum()
        }
        let center = trees.min { distanceToMiddle($0) < distanceToMiddle($1) }!
        for step in 0..<6 {
            let angle = (30 + 60 * Double(step)) * .pi / 180
            let neighbour = center.position + 4 * SIMD2(cos(angle), sin(angle))
            #expect(index.nearestDistance(to: neighbour, within: 0.01) != nil, "no neighbour at \(30 + 60 * step)°")
        }
        #expect(Check.closePairs(trees, .uniform(spacing: 4)) == 0)
        // 1.1547 trees per spacing², less a boundary strip.
        let expected: Double = 10_000 * 2 / (3.0.squareRoot() * 16)
        #expect(
            Double(trees.count) > expected * 0.95 && Double(trees.count) < expected * 1.03,
            "\(trees.count) vs \(expected)")
    }

    @Test func speciesFollowTheSharesAndStandingTreesTheirSpacing() {
        var generator = SeededGenerator(seed: 2)
        let trees = TriangularGrid.fill(SiteTests.site, mix: SiteTests.mix, spacing: 4, using: &generator)
        let pines = trees.count { $0.species == 1 }
        #expect(abs(Double(pines) / Double(trees.count) - 1.0 / 3) < 0.01)
        #expect(Check.closePairs(trees, SiteTests.mix) == 0)
        #expect(trees.allSatisfy { SiteTests.site.allows($0.position) })
        #expect(
            trees.allSatisfy {
                (($0.position - SIMD2(10, 10)) * ($0.position - SIMD2(10, 10))).sum() >= 36 * (1 - 1e-9)
            })
    }
}

struct PlannerTapGroupTests {
    @Test func placesTheWholeGroupWhenThereIsRoom() {
        var index = TreeIndex(cellSize: 2)
        var generator = SeededGenerator(seed: 3)
        let result = PlannerTapGroup(mix: .uniform(spacing: 2)).plant(
            10, at: SIMD2(0, 0), index: &index, using: &generator)
        #expect(result.placed.count == 10 && result.unplaced == 0)
        #expect(result.placed[0].position == SIMD2(0, 0))
        #expect(Check.closePairs(result.placed, .uniform(spacing: 2)) == 0)
        // Packed tightly: every tree within 2.2 spacings of the tap.
        #expect(result.placed.allSatisfy { ($0.position * $0.position).sum().squareRoot() <= 4.4 })
    }

    @Test func placesWhatFitsAndCountsTheRest() {
        // A 5 m × 5 m plot fits a handful of trees 2 m apart, not 10.
        let plot = PlantingSite(Area(outer: [SIMD2(0, 0), SIMD2(5, 0), SIMD2(5, 5), SIMD2(0, 5)]))
        var index = TreeIndex(cellSize: 2)
        var generator = SeededGenerator(seed: 5)
        let result = PlannerTapGroup(mix: .uniform(spacing: 2)).plant(
            10, at: SIMD2(2.5, 2.5), index: &index, site: plot, using: &generator)
        #expect(result.placed.count >= 5 && result.placed.count < 10)
        #expect(result.unplaced == 10 - result.placed.count)
        #expect(result.placed.allSatisfy { plot.allows($0.position) })
        #expect(index.count == result.placed.count)
        // A second tap at the same place finds no room left, or very little.
        let again = PlannerTapGroup(mix: .uniform(spacing: 2)).plant(
            10, at: SIMD2(2.5, 2.5), index: &index, site: plot, using: &generator)
        #expect(again.placed.count <= 2 && again.unplaced >= 8)
        #expect(Check.closePairs(result.placed + again.placed, .uniform(spacing: 2)) == 0)
    }

    @Test func mixedGroupsKeepTheLargerSpacingAndRespectReach() {
        var index = TreeIndex(cellSize: 4)
        index.insert(SIMD2(1, 0), spacing: 5)
        var generator = SeededGenerator(seed: 6)
        let result = PlannerTapGroup(mix: SiteTests.mix, reach: 9).plant(
            12, at: .zero, index: &index, using: &generator)
        #expect(Check.closePairs(result.placed, SiteTests.mix) == 0)
        #expect(result.placed.allSatisfy { ($0.position * $0.position).sum().squareRoot() <= 9 + 1e-9 })
        #expect(
            result.placed.allSatisfy {
                (($0.position - SIMD2(1, 0)) * ($0.position - SIMD2(1, 0))).sum().squareRoot() >= 5 - 1e-9
            })
        #expect(result.placed.count + result.unplaced == 12)
    }
}

struct AreaPlannerTests {
    @Test(arguments: [PlantingLayout.poisson, .triangular(spacing: nil, orientation: 15), .reforestar(treesPerTap: 5)])
    func plansKeepEveryRule(layout: PlantingLayout) {
        let plan = AreaPlanner.plan(SiteTests.site, mix: SiteTests.mix, layout: layout, seed: 9)
        #expect(plan.violations().isEmpty)
        #expect(Check.closePairs(plan.trees, plan.mix) == 0)
        #expect(plan.trees.count > 20)
        let again = AreaPlanner.plan(SiteTests.site, mix: SiteTests.mix, layout: layout, seed: 9)
        #expect(again.trees == plan.trees, "the same seed gives the same plan")
    }

    @Test(arguments: [PlantingLayout.poisson, .triangular(spacing: nil, orientation: 0)])
    func aCountIsSpreadOverTheWholeSite(layout: PlantingLayout) throws {
        let plan = AreaPlanner.plan(SiteTests.site, mix: SiteTests.mix, layout: layout, count: 60, seed: 2)
        #expect(plan.trees.count == 60)
        #expect(plan.spacingFactor > 1.3)
        #expect(plan.violations().isEmpty)
        // Trees in all four quarters of the field, not bunched in one corner.
        for (x, y) in [(0.0, 0.0), (40.0, 0.0), (0.0, 25.0), (40.0, 25.0)] {
            #expect(
                plan.trees.contains {
                    $0.position.x >= x && $0.position.x < x + 40 && $0.position.y >= y && $0.position.y < y + 25
                })
        }
        let summary = plan.summary
        #expect(try #require(summary.minimumDistance) >= plan.mix.smallestSpacing * (1 - 1e-9))
        #expect(abs(plan.mix.smallestSpacing - 2.5 * plan.spacingFactor) < 1e-9)
        #expect(summary.shortfall == 0)
    }

    @Test func aCountThatCannotFitReportsTheShortfall() {
        let plan = AreaPlanner.plan(SiteTests.site, mix: SiteTests.mix, layout: .poisson, count: 100_000, seed: 1)
        #expect(plan.trees.count < 1000)
        #expect(plan.summary.shortfall == 100_000 - plan.trees.count)
        #expect(plan.spacingFactor == 1)
    }

    @Test func summaryFigures() throws {
        let square = PlantingSite(Area(outer: [SIMD2(0, 0), SIMD2(100, 0), SIMD2(100, 100), SIMD2(0, 100)]))
        let plan = AreaPlanner.plan(
            square, mix: .uniform(spacing: 5), layout: .triangular(spacing: nil, orientation: 0))
        let summary = plan.summary
        #expect(summary.squareMetres == 10_000)
        #expect(summary.perHectare == Double(summary.trees))
        #expect(abs(try #require(summary.minimumDistance) - 5) < 1e-9)
        #expect(summary.perSpecies == [summary.trees])
        #expect(PlantingPlan(site: square, mix: .uniform(spacing: 5), trees: []).summary.minimumDistance == nil)
    }
}

/// Non-finite, degenerate and extreme input gives empty or partial results, never a trap or a hang.
struct HostilePlantingInputTests {
    @Test func nonFiniteSitesAndQueriesAreHarmless() {
        let broken = PlantingSite(Area(outer: [SIMD2(0, 0), SIMD2(.nan, 0), SIMD2(10, .infinity)]))
        var generator = SeededGenerator(seed: 1)
        #expect(PoissonDisk.fill(broken, mix: .uniform(spacing: 2), using: &generator).isEmpty)
        #expect(TriangularGrid.fill(broken, mix: .uniform(spacing: 2), spacing: 2, using: &generator).isEmpty)
        #expect(AreaPlanner.plan(broken, mix: .uniform(spacing: 2), layout: .reforestar(treesPerTap: 3)).trees.isEmpty)
        #expect(AreaPlanner.plan(broken, mix: .uniform(spacing: 2), layout: .poisson, count: 10).trees.isEmpty)
        var index = TreeIndex(cellSize: 2)
        index.insert(SIMD2(.nan, 1), spacing: 2)
        index.insert(SIMD2(1e300, -1e300), spacing: 2)
        index.insert(SIMD2(1, 1), spacing: 2)
        #expect(index.conflicts(SIMD2(1.5, 1), spacing: 1))
        #expect(!index.conflicts(SIMD2(.infinity, 0), spacing: 1))
        #expect(index.nearestDistance(to: SIMD2(0, 0), within: .infinity) != nil)
        var hash = SpatialHash(cellSize: 1)
        hash.insert(Vec3(.nan, 0, 0))
        hash.insert(Vec3(1e300, 0, 1e300))
        _ = hash.hasPoint(closerThan: .infinity, to: .zero)
        #expect(hash.hasPoint(closerThan: 2, to: Vec3(1e300, 0, 1e300)))
        let result = PlannerTapGroup(mix: .uniform(spacing: 1), reach: .infinity).plant(
            5, at: SIMD2(.nan, 0), index: &index, using: &generator)
        #expect(result.placed.count + result.unplaced == 5)
    }

    @Test func hugeReachesScanInsteadOfSpinning() {
        var index = TreeIndex(cellSize: 0.01)
        for step in 0..<100 { index.insert(SIMD2(Double(step), 0), spacing: 1) }
        // A 1e6 m radius over 0.01 m cells would be 1e16 cells; it scans the 100 trees instead.
        #expect(index.nearestDistance(to: SIMD2(5e5, 0), within: 1e6).map { abs($0 - (5e5 - 99)) < 1e-6 } == true)
        var hash = SpatialHash(cellSize: 0.01)
        hash.insert(Vec3(0, 0, 0))
        #expect(hash.hasPoint(closerThan: 1e7, to: Vec3(1e6, 0, 0)))
    }

    @Test func tinySpacingsOverLargeSitesAreRefusedNotSilentlyAllocated() {
        let huge = PlantingSite(
            Area(outer: [SIMD2(0, 0), SIMD2(100_000, 0), SIMD2(100_000, 100_000), SIMD2(0, 100_000)]))
        #expect(PoissonDisk.cells(for: huge, mix: .uniform(spacing: 0.5)) > PoissonDisk.maximumCells)
        var generator = SeededGenerator(seed: 1)
        #expect(PoissonDisk.fill(huge, mix: .uniform(spacing: 0.5), using: &generator).isEmpty)
    }
}
