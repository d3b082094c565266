public import ARVisSpatial
public import ARVisSpec
import Foundation

/// ReforestAR's rules for planting a group of trees at a tap, reproduced exactly.
///
/// With scale compensation `s` and `n` trees: extra trees are drawn in a ±2s square around the tap
/// (height shared), each must keep at least `s` from the tap, its group mates and the trees already in
/// the scene, and stay within 3sn of the tap, 4sn of its mates and 5sn of every scene tree; each gets
/// 20 attempts and one failure fails the whole group. Trees at even indices turn −60° about y when
/// s > 0.8; every tree is scaled by s — on the matrix diagonal only, as ReforestAR does
/// (``ScaleMode/faithful``), or properly as R·S (``ScaleMode/fixed``).
public struct ReforestARTapGroup: Sendable {
    /// How tree transforms are scaled.
    public enum ScaleMode: Sendable, Hashable {
        /// ReforestAR's: multiply only the diagonal, which skews rotated trees.
        case faithful
        /// Rotation times a uniform scale.
        case fixed
    }

    /// The rule parameters derived from `s` and `n`.
    public struct Rules: Sendable, Hashable {
        /// Scale compensation (the slider, 0.01…5.01).
        public var s: Double
        /// Trees per tap (1…10).
        public var n: Int

        /// Creates the rules.
        public init(s: Double, n: Int) {
            self.s = s
            self.n = max(1, n)
        }

        /// Per-axis offset bound of extra trees: 2s.
        public var range: Double { 2 * s }
        /// The minimum distance between trees: s.
        public var minimumDistance: Double { s }
        /// Limit from the tap: 3sn.
        public var maximumFromInitial: Double { 3 * s * Double(n) }
        /// Limit from group mates: 4sn.
        public var maximumFromGroup: Double { 4 * s * Double(n) }
        /// Limit from trees already in the scene: 5sn.
        public var maximumFromOthers: Double { 5 * s * Double(n) }
        /// Attempts per extra tree.
        public static let attempts = 20
    }

    /// What a tap did.
    public enum Outcome: Sendable, Hashable {
        /// Trees were placed (ReforestAR's feedback code 1), as 4×4 transforms.
        case placed([Matrix4])
        /// The tap or one of its trees found no room (code 2): nothing was placed.
        case noSpace
    }

    /// The rule parameters (s and n).
    public var rules: Rules
    /// How tree transforms are scaled.
    public var scaleMode: ScaleMode

    /// Creates a tap group planner.
    public init(rules: Rules, scaleMode: ScaleMode = .faithful) {
        self.rules = rules
        self.scaleMode = scaleMode
    }

    /// ReforestAR's distance check: `point` passes if no position in `list` is closer than `minimum`
    /// or farther than `maximum` (full 3-D distance; an empty list passes).
    public static func verify(_ list: [Vec3], _ point: Vec3, minimum: Double, maximum: Double) -> Bool {
        list.allSatisfy { other in
            let distance = (other - point).length
            return distance >= minimum && distance <= maximum
        }
    }

    /// Plants a group at a tap whose raycast hit has `initial` as its transform, among the trees of
    /// `scene` (a spatial hash with cell size `s`; placed trees are added to it).
    ///
    /// `allowed` adds a site constraint ReforestAR lacks (inside the planting area, say): a tap or tree
    /// it refuses counts as a failed attempt. The default allows everything, which is ReforestAR.
    public func plant<G: RandomNumberGenerator>(
        at initial: Matrix4, scene: inout SpatialHash, allowed: (Vec3) -> Bool = { _ in true },
        using generator: inout G
    ) -> Outcome {
        let origin = Vec3(initial[0, 3], initial[1, 3], initial[2, 3])
        guard passes(origin, scene), allowed(origin) else { return .noSpace }
        var group = [origin]
        for _ in 1..<rules.n {
            var placed: Vec3?
            for attempt in 1...(Rules.attempts + 1) {
                let candidate = Vec3(
                    origin.x + Double.random(in: -rules.range...rules.range, using: &generator), origin.y,
                    origin.z + Double.random(in: -rules.range...rules.range, using: &generator))
                // The 21st sample is drawn but never used, as in ReforestAR.
                guard attempt <= Rules.attempts else { break }
                if Self.verify([origin], candidate, minimum: rules.minimumDistance, maximum: rules.maximumFromInitial)
                    && Self.verify(group, candidate, minimum: rules.minimumDistance, maximum: rules.maximumFromGroup)
                    && passes(candidate, scene) && allowed(candidate)
                {
                    placed = candidate
                    break
                }
            }
            guard let placed else { return .noSpace }
            group.append(placed)
        }
        for point in group { scene.insert(point) }
        return .placed(
            group.enumerated().map { index, point in transform(index: index, position: point, initial: initial) })
    }

    /// The scene check (vs every existing tree: at least s, at most 5sn), through the spatial hash.
    private func passes(_ point: Vec3, _ scene: SpatialHash) -> Bool {
        !scene.hasPoint(closerThan: rules.minimumDistance, to: point)
            && !scene.hasPoint(fartherThan: rules.maximumFromOthers, from: point)
    }

    /// A tree's transform: the tap's own for index 0, identity otherwise; −60° about y on even indices
    /// when s > 0.8; then scaled.
    private func transform(index: Int, position: Vec3, initial: Matrix4) -> Matrix4 {
        var matrix = index == 0 ? initial : Matrix4.identity
        matrix[0, 3] = position.x
        matrix[1, 3] = position.y
        matrix[2, 3] = position.z
        if index % 2 == 0 && rules.s > 0.8 {
            let angle = Double.pi / 3
            matrix[0, 0] = cos(angle)
            matrix[0, 2] = -sin(angle)
            matrix[2, 0] = sin(angle)
            matrix[2, 2] = cos(angle)
        }
        switch scaleMode {
        case .faithful:
            for axis in 0..<3 { matrix[axis, axis] *= rules.s }
        case .fixed:
            for column in 0..<3 {
                for row in 0..<3 { matrix[row, column] *= rules.s }
            }
        }
        return matrix
    }
}
