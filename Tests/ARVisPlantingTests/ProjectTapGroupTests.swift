import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import ARVisTestSupport
import Foundation
import Testing

/// A ReforestAR tap group among a project's stored trees: ReforestAR's group, the session's 5sn
/// limit, and every stored tree's spacing.
struct ProjectTapGroupTests {
    private func ground(_ a: Vec3, _ b: Vec3) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z)).squareRoot()
    }

    @Test(arguments: [(0.5, 1), (1.0, 5), (2.1, 10), (0.01, 3)])
    func anEmptyProjectGetsReforestARsGroup(scale: Double, count: Int) throws {
        let group = ProjectTapGroup(scale: scale, count: count)
        let tap = Vec3(3, 0.2, -4)
        var ours = SeededGenerator(seed: 41)
        var theirs = SeededGenerator(seed: 41)
        guard case .placed(let placements) = group.plant(at: tap, among: [], using: &ours) else {
            Issue.record("an empty project has room")
            return
        }
        var initial = Matrix4.identity
        (initial[0, 3], initial[1, 3], initial[2, 3]) = (tap.x, tap.y, tap.z)
        var scene = SpatialHash(cellSize: scale)
        let reference = ReforestARTapGroup(rules: .init(s: scale, n: count), scaleMode: .fixed)
        guard case .placed(let transforms) = reference.plant(at: initial, scene: &scene, using: &theirs) else {
            Issue.record("the reference has room too")
            return
        }
        #expect(placements.count == count)
        #expect(placements.map(\.position) == transforms.map { Vec3($0[0, 3], $0[1, 3], $0[2, 3]) })
        #expect(placements[0].position == tap)
        #expect(placements.allSatisfy { $0.position.y == tap.y }, "a group shares the tap's height")
        for (index, placement) in placements.enumerated() {
            let turned = index % 2 == 0 && scale > 0.8
            #expect(abs(placement.yaw - (turned ? -Double.pi / 3 : 0)) < 1e-12)
        }
        for (i, a) in placements.enumerated() {
            for b in placements[(i + 1)...] {
                #expect((a.position - b.position).length >= group.spacing)
            }
        }
    }

    @Test func everyTreeKeepsTheLargerSpacingOfEveryStoredTree() {
        // A stored stone pine 6 m away keeps its 6 m from each tree of the group.
        let pine = ProjectTapGroup.Standing(position: Vec3(6, 0, 0), spacing: 6, sameSession: false)
        let group = ProjectTapGroup(scale: 1, count: 10)
        for seed in 0..<50 {
            var generator = SeededGenerator(seed: UInt64(seed))
            switch group.plant(at: .zero, among: [pine], using: &generator) {
            case .placed(let placements):
                #expect(placements.allSatisfy { ground($0.position, pine.position) >= 6 })
            case .noSpace(let blocking):
                #expect(blocking == [0], "the pine is in the way")
            }
        }
        var generator = SeededGenerator(seed: 1)
        #expect(
            group.plant(at: Vec3(1, 0, 0), among: [pine], using: &generator) == .noSpace(blocking: [0]),
            "a tap inside the pine's spacing plants nothing")
    }

    @Test func onlyTheSessionsTreesBindTheGroupToThemselves() {
        // ReforestAR's scene is the current AR session: a tap farther than 5sn from a tree of the
        // session is refused, a tree of another session that far away is no obstacle.
        let far = Vec3(40, 0, 0)
        let group = ProjectTapGroup(scale: 1, count: 2)
        var generator = SeededGenerator(seed: 3)
        let otherSession = ProjectTapGroup.Standing(position: far, spacing: 1, sameSession: false)
        if case .placed = group.plant(at: .zero, among: [otherSession], using: &generator) {
        } else {
            Issue.record("another session's tree 40 m away does not refuse the tap")
        }
        let sameSession = ProjectTapGroup.Standing(position: far, spacing: 1, sameSession: true)
        #expect(
            group.plant(at: .zero, among: [sameSession], using: &generator) == .noSpace(blocking: []),
            "farther than 5·1·2 = 10 m from the session's tree: refused, and no tree is in the way")
        #expect(
            group.plant(at: Vec3(38, 0, 0), among: [sameSession], using: &generator) != .noSpace(blocking: []),
            "within 10 m of it the group is planted")
    }

    @Test func outOfRangeScalesAndCountsAreClampedToReforestARs() {
        #expect(ProjectTapGroup(scale: 100, count: 50).planner.rules == .init(s: 5.01, n: 10))
        #expect(ProjectTapGroup(scale: 0, count: 0).planner.rules == .init(s: 0.01, n: 1))
        #expect(ProjectTapGroup(scale: 2, count: 3).reach == 4 * 2.0.squareRoot())
    }
}
