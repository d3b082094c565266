public import ARVisModel
public import ARVisPlanting
import ARVisSpatial
import ARVisSpec
import Foundation

/// A low-poly model of a catalog species, made from its entry: the mean of its heights, a crown as
/// wide as its spacing (crowns meet at maturity when planted at it; see ``crownWidth``) and its
/// ``CrownForm``.
///
/// The tree stands on its origin, y up, in metres, flat-shaded: one mesh for the trunk and one for the
/// crown, about a hundred triangles in all, so thousands can be drawn instanced.
///
/// ```swift
/// let glb = try GLBWriter().write(SpeciesModel(species).model)
/// ```
public struct SpeciesModel: Sendable {
    /// The species drawn.
    public let species: Species

    /// Sides of the trunk and of the crown's rings.
    static let sides = 8

    /// Creates the model of a species.
    public init(_ species: Species) { self.species = species }

    /// The tree's height: the mean of the catalog's heights.
    public var height: Double { (species.minimumHeight + species.maximumHeight) / 2 }

    /// The crown's width: the species' spacing, kept between its form's least share of the height
    /// (a quarter for a cone, half for a dome, 60 % for an umbrella) and 70 % of it; a columnar
    /// crown is 15 % of the height.
    public var crownWidth: Double {
        let least: Double
        switch species.crown {
        case .columnar: return 0.15 * height
        case .conical: least = 0.25
        case .rounded: least = 0.5
        case .umbrella: least = 0.6
        }
        return min(max(species.spacing, least * height), 0.7 * height)
    }

    /// The model: a trunk and a crown, each with its material.
    public var model: Model {
        let shape = crownShape
        let trunk = Self.frustum(
            bottom: 0, top: shape.base + 0.1 * (shape.top - shape.base), bottomRadius: height / 45,
            topRadius: height / 70)
        let crown = Self.lathe(profile: shape.profile)
        let name = species.latinName
        return Model(
            nodes: [Node(name: name, meshes: [0, 1])], roots: [0],
            meshes: [
                Mesh(
                    name: "\(name) trunk", positions: trunk.positions, normals: trunk.normals, indices: trunk.indices,
                    material: 0),
                Mesh(
                    name: "\(name) crown", positions: crown.positions, normals: crown.normals, indices: crown.indices,
                    material: 1),
            ],
            materials: [
                Material(
                    name: "bark", baseColorFactor: SIMD4(0.23, 0.15, 0.09, 1), metallicFactor: 0,
                    roughnessFactor: 0.95),
                Material(name: "leaves", baseColorFactor: leafColour, metallicFactor: 0, roughnessFactor: 0.85),
            ])
    }

    /// The leaves' linear colour: darker for conifers.
    private var leafColour: SIMD4<Float> {
        switch species.crown {
        case .conical, .columnar: SIMD4(0.05, 0.16, 0.06, 1)
        case .umbrella: SIMD4(0.07, 0.2, 0.07, 1)
        case .rounded: SIMD4(0.12, 0.3, 0.08, 1)
        }
    }

    /// Where the crown starts and ends, and its outline as (height, radius) from bottom to top.
    private var crownShape: (base: Double, top: Double, profile: [(y: Double, r: Double)]) {
        let h = height
        let r = crownWidth / 2
        switch species.crown {
        case .conical:
            return (0.25 * h, h, [(0.25 * h, 0), (0.3 * h, r), (0.65 * h, 0.55 * r), (h, 0)])
        case .umbrella:
            return (0.75 * h, h, [(0.75 * h, 0), (0.8 * h, 0.75 * r), (0.9 * h, r), (0.97 * h, 0.8 * r), (h, 0)])
        case .columnar:
            return (0.1 * h, h, [(0.1 * h, 0), (0.2 * h, 0.9 * r), (0.55 * h, r), (0.85 * h, 0.7 * r), (h, 0)])
        case .rounded:
            return (0.35 * h, h, [(0.35 * h, 0), (0.45 * h, 0.8 * r), (0.65 * h, r), (0.88 * h, 0.75 * r), (h, 0)])
        }
    }

    /// A flat-shaded triangle soup: positions, one normal per vertex, indices.
    struct Soup {
        var positions: [SIMD3<Float>] = []
        var normals: [SIMD3<Float>] = []
        var indices: [UInt32] = []

        /// Adds a triangle with its face normal (skips a degenerate one).
        mutating func triangle(_ a: Vec3, _ b: Vec3, _ c: Vec3) {
            let cross = (b - a).cross(c - a)
            guard cross.length > 1e-9 else { return }
            let normal = SIMD3<Float>(cross / cross.length)
            for point in [a, b, c] {
                indices.append(UInt32(positions.count))
                positions.append(SIMD3<Float>(point))
                normals.append(normal)
            }
        }
    }

    /// A surface of revolution about y through `profile` (from bottom to top), counter-clockwise
    /// seen from outside.
    static func lathe(profile: [(y: Double, r: Double)]) -> Soup {
        var soup = Soup()
        func point(_ ring: Int, _ side: Int) -> Vec3 {
            let angle = 2 * Double.pi * Double(side) / Double(sides)
            let (y, r) = profile[ring]
            return Vec3(r * cos(angle), y, -r * sin(angle))
        }
        for ring in 0..<(profile.count - 1) {
            for side in 0..<sides {
                let a = point(ring, side)
                let b = point(ring, side + 1)
                let c = point(ring + 1, side + 1)
                let d = point(ring + 1, side)
                soup.triangle(a, b, c)
                soup.triangle(a, c, d)
            }
        }
        return soup
    }

    /// A trunk: a frustum about y from `bottom` to `top`, closed at the top.
    static func frustum(bottom: Double, top: Double, bottomRadius: Double, topRadius: Double) -> Soup {
        lathe(profile: [(bottom, bottomRadius), (top, topRadius), (top, 0)])
    }
}
