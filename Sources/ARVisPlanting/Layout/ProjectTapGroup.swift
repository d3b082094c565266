import ARVisSpatial
public import ARVisSpec
import Foundation

/// A ReforestAR tap group planted among a project's stored trees: what a tap in the AR view asks
/// the server for.
///
/// The group is ``ReforestARTapGroup``'s, with its exact constants (range 2s, minimum s, limits
/// 3sn, 4sn, 5sn, 20 attempts, all or nothing, −60° on even indices when s > 0.8), scaled as R·S
/// (``ReforestARTapGroup/ScaleMode/fixed``: ReforestAR's diagonal-only scaling skews turned trees).
/// ReforestAR's scene is the trees of the current AR session, so the 5sn limit (a tap must stay within
/// 5·s·n of every tree already in the scene) applies to the trees of the same device session only.
/// On top of ReforestAR's rules every tree keeps the larger of the two spacings from every stored
/// tree, measured on the ground (x, z), as a tree planted any other way does; a new tree's spacing
/// is the group's minimum distance, s.
public struct ProjectTapGroup: Sendable {
    /// A tree already standing in the project.
    public struct Standing: Sendable, Hashable {
        /// Where it stands, in the project frame.
        public var position: Vec3
        /// The distance it keeps from every other tree.
        public var spacing: Double
        /// Whether the same device session planted it (ReforestAR's scene).
        public var sameSession: Bool

        /// Creates a standing tree.
        public init(position: Vec3, spacing: Double, sameSession: Bool) {
            (self.position, self.spacing, self.sameSession) = (position, spacing, sameSession)
        }
    }

    /// One tree of a planted group.
    public struct Placement: Sendable, Hashable {
        /// Where it stands, in the project frame.
        public var position: Vec3
        /// Its turn about y, in radians (counter-clockwise seen from above).
        public var yaw: Double
    }

    /// What a tap did.
    public enum Outcome: Sendable, Hashable {
        /// The group, tree 0 at the tap.
        case placed([Placement])
        /// No room for the group; `blocking` are the indices of the standing trees in its way (empty
        /// when only the session's 5sn limit refused it).
        case noSpace(blocking: [Int])
    }

    /// The smallest and largest scale (ReforestAR's slider, 0.01…5.01 in steps of 0.1).
    public static let scales: ClosedRange<Double> = 0.01...5.01
    /// How many trees a tap may plant (ReforestAR's picker).
    public static let counts: ClosedRange<Int> = 1...10

    /// ReforestAR's planner for this scale and count.
    public let planner: ReforestARTapGroup

    /// Creates the group for a scale `s` (clamped to ``scales``) and a count `n` (clamped to ``counts``).
    public init(scale: Double, count: Int) {
        let s = min(max(scale, Self.scales.lowerBound), Self.scales.upperBound)
        let n = min(max(count, Self.counts.lowerBound), Self.counts.upperBound)
        planner = ReforestARTapGroup(rules: .init(s: s, n: n), scaleMode: .fixed)
    }

    /// The spacing every tree of the group keeps: s.
    public var spacing: Double { planner.rules.minimumDistance }

    /// How far from the tap (on the ground) a group's tree can stand: a tree offset by at most 2s on
    /// each axis.
    public var reach: Double { 2 * 2.0.squareRoot() * planner.rules.s }

    /// Plants the group at `tap` among `standing` (every stored tree within ``reach`` plus the largest
    /// spacing of the tap, and every tree of the session).
    public func plant<G: RandomNumberGenerator>(at tap: Vec3, among standing: [Standing], using generator: inout G)
        -> Outcome
    {
        var scene = SpatialHash(cellSize: planner.rules.minimumDistance)
        for tree in standing where tree.sameSession { scene.insert(tree.position) }
        let keeps = { (point: Vec3) in standing.allSatisfy { !self.crowds(point, $0) } }
        var initial = Matrix4.identity
        (initial[0, 3], initial[1, 3], initial[2, 3]) = (tap.x, tap.y, tap.z)
        switch planner.plant(at: initial, scene: &scene, allowed: keeps, using: &generator) {
        case .placed(let transforms):
            return .placed(
                transforms.map {
                    Placement(position: Vec3($0[0, 3], $0[1, 3], $0[2, 3]), yaw: atan2($0[0, 2], $0[0, 0]))
                })
        case .noSpace:
            return .noSpace(
                blocking: standing.indices.filter { index in
                    let tree = standing[index]
                    return ground(tap, tree.position) < reach + max(spacing, tree.spacing)
                })
        }
    }

    /// Whether a tree at `point` would stand closer to `tree` than the larger of their spacings.
    private func crowds(_ point: Vec3, _ tree: Standing) -> Bool {
        ground(point, tree.position) < max(spacing, tree.spacing)
    }

    /// The distance of two points on the ground (x, z).
    private func ground(_ a: Vec3, _ b: Vec3) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.z - b.z) * (a.z - b.z)).squareRoot()
    }
}
