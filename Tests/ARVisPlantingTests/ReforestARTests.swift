// swift-format-ignore-file: AlwaysUseLowerCamelCase

import ARVisPlanting
import ARVisSpatial
// (the fixtures' keys, decoded by name, are snake_case as the reference wrote them)
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

struct ReforestARTests {
    struct Fixture: Decodable {
        struct Parameters: Decodable {
            let numberOfTrees: Int
            let scale_compensation: Double
            let range_per_axis: Double
            let min_distance: Double
            let max_distance_from_initial: Double
            let max_distance_from_group: Double
            let max_distance_for_other_areas: Double
        }

        struct Case: Decodable {
            let id: String
            let s: Double
            let n: Int
            let existing: [[Double]]
            let initial: [Double]
            let group_so_far: [[Double]]?
            let candidate: [Double]?
            let expect: String
        }

        let parameter_table: [Parameters]
        let acceptance_cases: [Case]
    }

    static let fixture: Fixture? = {
        let url = Corpus.packageRoot.deletingLastPathComponent().appendingPathComponent(
            "shared/reference/fixtures/reforestar-placement-cases.derived.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Fixture.self, from: $0) }
    }()

    private func vector(_ values: [Double]) -> Vec3 { Vec3(values[0], values[1], values[2]) }

    @Test(.enabled(if: fixture != nil, "../shared/reference/fixtures is absent"))
    func rulesMatchTheParameterTable() throws {
        for row in try #require(Self.fixture).parameter_table {
            let rules = ReforestARTapGroup.Rules(s: row.scale_compensation, n: row.numberOfTrees)
            #expect(abs(rules.range - row.range_per_axis) < 1e-9)
            #expect(abs(rules.minimumDistance - row.min_distance) < 1e-9)
            #expect(abs(rules.maximumFromInitial - row.max_distance_from_initial) < 1e-9)
            #expect(abs(rules.maximumFromGroup - row.max_distance_from_group) < 1e-9)
            #expect(abs(rules.maximumFromOthers - row.max_distance_for_other_areas) < 1e-9)
        }
    }

    /// Each acceptance case decided by the checks ReforestAR runs, in its order.
    @Test(.enabled(if: fixture != nil, "../shared/reference/fixtures is absent"))
    func acceptanceCasesDecideAsReforestARDoes() throws {
        for item in try #require(Self.fixture).acceptance_cases {
            let rules = ReforestARTapGroup.Rules(s: item.s, n: item.n)
            let existing = item.existing.map(vector)
            let initialOK = ReforestARTapGroup.verify(
                existing, vector(item.initial), minimum: rules.minimumDistance, maximum: rules.maximumFromOthers)
            guard let candidate = item.candidate.map(vector) else {
                #expect(
                    initialOK == item.expect.hasPrefix("accepted") || item.expect.hasPrefix("initial accepted"),
                    "\(item.id)")
                continue
            }
            let initial = vector(item.initial)
            let group = item.group_so_far?.map(vector) ?? [initial]
            let accepted =
                ReforestARTapGroup.verify(
                    [initial], candidate, minimum: rules.minimumDistance, maximum: rules.maximumFromInitial)
                && ReforestARTapGroup.verify(
                    group, candidate, minimum: rules.minimumDistance, maximum: rules.maximumFromGroup)
                && ReforestARTapGroup.verify(
                    existing, candidate, minimum: rules.minimumDistance, maximum: rules.maximumFromOthers)
            let expected = item.expect.hasPrefix("accepted") || item.expect.contains("candidate accepted")
            #expect(accepted == expected, "\(item.id): \(item.expect)")
        }
    }

    private func tap(_ x: Double, _ z: Double) -> Matrix4 {
        var matrix = Matrix4.identity
        matrix[0, 3] = x
        matrix[2, 3] = z
        return matrix
    }

    @Test func groupsKeepTheirSpacingAndAreReproducible() {
        let planner = ReforestARTapGroup(rules: .init(s: 1, n: 6))
        var first = SpatialHash(cellSize: 1)
        var second = SpatialHash(cellSize: 1)
        var a = SeededGenerator(seed: 3)
        var b = SeededGenerator(seed: 3)
        let one = planner.plant(at: tap(0, 0), scene: &first, using: &a)
        let two = planner.plant(at: tap(0, 0), scene: &second, using: &b)
        #expect(one == two)
        guard case .placed(let trees) = one else {
            Issue.record("the first group in an empty scene has room")
            return
        }
        #expect(trees.count == 6)
        let points = trees.map { Vec3($0[0, 3], $0[1, 3], $0[2, 3]) }
        for i in points.indices {
            for j in points.indices where j > i { #expect((points[i] - points[j]).length >= 1) }
            #expect(abs(points[i].x) <= 2 && abs(points[i].z) <= 2 && points[i].y == 0)
        }
        #expect(first.count == 6)
    }

    @Test func tapsTooCloseOrTooFarPlaceNothing() {
        let planner = ReforestARTapGroup(rules: .init(s: 1, n: 1))
        var scene = SpatialHash(cellSize: 1)
        scene.insert(.zero)
        var generator = SeededGenerator(seed: 1)
        #expect(planner.plant(at: tap(0.5, 0), scene: &scene, using: &generator) == .noSpace)
        #expect(planner.plant(at: tap(6, 0), scene: &scene, using: &generator) == .noSpace)
        #expect(planner.plant(at: tap(3, 0), scene: &scene, using: &generator) != .noSpace)
        #expect(scene.count == 2)
    }

    /// A site constraint refuses taps and trees outside it; the default changes nothing.
    @Test func aSiteConstraintRefusesTapsAndTreesOutsideIt() {
        let planner = ReforestARTapGroup(rules: .init(s: 1, n: 6))
        var free = SpatialHash(cellSize: 1)
        var everything = SpatialHash(cellSize: 1)
        var a = SeededGenerator(seed: 7)
        var b = SeededGenerator(seed: 7)
        #expect(
            planner.plant(at: tap(0, 0), scene: &free, using: &a)
                == planner.plant(at: tap(0, 0), scene: &everything, allowed: { _ in true }, using: &b))
        var scene = SpatialHash(cellSize: 1)
        var generator = SeededGenerator(seed: 7)
        let eastOnly = { (point: Vec3) in point.x >= 0 }
        #expect(planner.plant(at: tap(-0.5, 0), scene: &scene, allowed: eastOnly, using: &generator) == .noSpace)
        guard
            case .placed(let trees) = planner.plant(at: tap(0, 0), scene: &scene, allowed: eastOnly, using: &generator)
        else {
            Issue.record("half the square leaves room for six trees 1 m apart")
            return
        }
        #expect(trees.allSatisfy { $0[0, 3] >= 0 })
    }

    /// One tree that cannot fit fails the whole group.
    @Test func groupsAreAllOrNothing() {
        // Ten trees need more room than a ±2 m square with 1 m spacing can hold with 20 tries each, often;
        // a tiny scale with many trees crowded by an existing ring certainly fails.
        let planner = ReforestARTapGroup(rules: .init(s: 1, n: 10))
        var scene = SpatialHash(cellSize: 1)
        for angle in stride(from: 0.0, to: 2 * .pi, by: 0.2) {
            scene.insert(Vec3(cos(angle) * 1.2, 0, sin(angle) * 1.2))
        }
        var generator = SeededGenerator(seed: 2)
        let before = scene.count
        #expect(planner.plant(at: tap(0, 0), scene: &scene, using: &generator) == .noSpace)
        #expect(scene.count == before)
    }

    @Test func evenTreesTurnAndScaleAsReforestARAndAsFixed() {
        var scene = SpatialHash(cellSize: 2)
        var generator = SeededGenerator(seed: 4)
        guard
            case .placed(let faithful) = ReforestARTapGroup(rules: .init(s: 2, n: 2)).plant(
                at: tap(0, 0), scene: &scene, using: &generator)
        else {
            Issue.record("expected a placement")
            return
        }
        // Index 0: −60° about y, then only the diagonal scaled: c0.x = cos60·2, c2.x = −sin60 unscaled.
        #expect(abs(faithful[0][0, 0] - 0.5 * 2) < 1e-12 && abs(faithful[0][0, 2] - -sin(Double.pi / 3)) < 1e-12)
        #expect(abs(faithful[1][0, 0] - 2) < 1e-12 && faithful[1][0, 2] == 0)
        var fixedScene = SpatialHash(cellSize: 2)
        var fixedGenerator = SeededGenerator(seed: 4)
        guard
            case .placed(let fixed) = ReforestARTapGroup(rules: .init(s: 2, n: 2), scaleMode: .fixed).plant(
                at: tap(0, 0), scene: &fixedScene, using: &fixedGenerator)
        else {
            Issue.record("expected a placement")
            return
        }
        #expect(abs(fixed[0][0, 2] - -2 * sin(Double.pi / 3)) < 1e-12)
        // A proper similarity: columns of equal length s.
        let column0 = Vec3(fixed[0][0, 0], fixed[0][1, 0], fixed[0][2, 0])
        let column2 = Vec3(fixed[0][0, 2], fixed[0][1, 2], fixed[0][2, 2])
        #expect(abs(column0.length - 2) < 1e-12 && abs(column2.length - 2) < 1e-12 && abs(column0.dot(column2)) < 1e-12)
    }
}

struct SpatialHashTests {
    @Test func answersLikeABruteForceScan() {
        var generator = SeededGenerator(seed: 8)
        var hash = SpatialHash(cellSize: 1.5)
        var points: [Vec3] = []
        for _ in 0..<500 {
            let point = Vec3(
                .random(in: -30...30, using: &generator), .random(in: -1...1, using: &generator),
                .random(in: -30...30, using: &generator))
            points.append(point)
            hash.insert(point)
        }
        for _ in 0..<300 {
            let query = Vec3(.random(in: -35...35, using: &generator), 0, .random(in: -35...35, using: &generator))
            let near = Double.random(in: 0.1...4, using: &generator)
            let far = Double.random(in: 10...90, using: &generator)
            #expect(hash.hasPoint(closerThan: near, to: query) == points.contains { ($0 - query).length < near })
            #expect(hash.hasPoint(fartherThan: far, from: query) == points.contains { ($0 - query).length > far })
        }
    }
}

struct PoissonDiskTests {
    private let square = Area(
        outer: [SIMD2(0, 0), SIMD2(60, 0), SIMD2(60, 60), SIMD2(0, 60)],
        holes: [[SIMD2(20, 20), SIMD2(40, 20), SIMD2(40, 40), SIMD2(20, 40)]])

    /// Every point inside the area and outside the hole, no two closer than the spacing, dense.
    @Test(arguments: [1.0, 2.5, 4.0])
    func fillsMaximallyWithinTheRules(spacing: Double) {
        var generator = SeededGenerator(seed: UInt64(spacing * 10))
        let points = PoissonDisk.fill(square, spacing: spacing, using: &generator)
        #expect(points.allSatisfy { square.contains($0) })
        var hash = SpatialHash(cellSize: spacing)
        for point in points {
            #expect(!hash.hasPoint(closerThan: spacing * (1 - 1e-9), to: Vec3(point.x, 0, point.y)))
            hash.insert(Vec3(point.x, 0, point.y))
        }
        let density = Double(points.count) * spacing * spacing / square.squareMetres
        #expect(density > 0.6, "density \(density) per r²")
    }

    @Test func respectsALimitAndDegenerateInput() {
        var generator = SeededGenerator(seed: 1)
        #expect(PoissonDisk.fill(square, spacing: 1, limit: 50, using: &generator).count == 50)
        #expect(PoissonDisk.fill(square, spacing: 0, using: &generator).isEmpty)
        #expect(PoissonDisk.fill(Area(outer: [SIMD2(0, 0), SIMD2(1, 0)]), spacing: 1, using: &generator).isEmpty)
        #expect(square.squareMetres == 3600 - 400)
    }
}
