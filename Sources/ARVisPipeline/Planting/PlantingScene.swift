public import ARVisModel
public import ARVisPlanting
import ARVisSpatial
import Foundation

/// A project's planting as one model: each species' ``SpeciesModel`` once, and one node per tree
/// that places it (its position, its turn about y and its scale), so a glTF viewer draws each
/// species' meshes instanced.
///
/// ```swift
/// let glb = try GLBWriter().write(PlantingScene(trees).model)
/// ```
public struct PlantingScene: Sendable {
    /// One tree to draw.
    public struct Tree: Sendable, Hashable {
        /// The species' Latin name (a name the catalog does not know is drawn as a generic broadleaf).
        public var species: String
        /// Where it stands, metres in the project's frame.
        public var position: SIMD3<Double>
        /// Its turn about y, radians, counter-clockwise seen from above.
        public var yaw: Double
        /// Its size against the species' own.
        public var scale: Double

        /// Creates a tree.
        public init(species: String, position: SIMD3<Double>, yaw: Double = 0, scale: Double = 1) {
            (self.species, self.position, self.yaw, self.scale) = (species, position, yaw, scale)
        }
    }

    /// The trees.
    public var trees: [Tree]
    /// Where species are looked up.
    public var catalog: SpeciesCatalog

    /// Creates the scene of `trees`.
    public init(_ trees: [Tree], catalog: SpeciesCatalog = .standard) {
        self.trees = trees
        self.catalog = catalog
    }

    /// The broadleaf drawn for a name the catalog does not know.
    static let unknownSpecies = Species(
        latinName: "Unknown tree", englishNames: [], portugueseNames: [], spacing: 4, minimumHeight: 8,
        maximumHeight: 12, description: "", source: "")

    /// The model: a root "Planting" whose children are the trees.
    public var model: Model {
        var model = Model(nodes: [Node(name: "Planting")], roots: [0])
        var meshesOfSpecies: [String: [Int]] = [:]
        for tree in trees {
            let meshes = meshesOfSpecies[tree.species] ?? add(catalog.species(named: tree.species), to: &model)
            meshesOfSpecies[tree.species] = meshes
            model.nodes[0].children.append(model.nodes.count)
            model.nodes.append(Node(name: "Tree", transform: Self.transform(of: tree), meshes: meshes))
        }
        return model
    }

    /// Adds a species' meshes and materials; returns the meshes' indices.
    private func add(_ species: Species?, to model: inout Model) -> [Int] {
        let drawn = SpeciesModel(species ?? Self.unknownSpecies).model
        let (firstMesh, firstMaterial) = (model.meshes.count, model.materials.count)
        model.materials += drawn.materials
        model.meshes += drawn.meshes.map { mesh in
            var mesh = mesh
            mesh.material = mesh.material.map { $0 + firstMaterial }
            return mesh
        }
        return Array(firstMesh..<model.meshes.count)
    }

    /// Translation × turn about y × uniform scale.
    static func transform(of tree: Tree) -> Matrix4 {
        let (c, s, k) = (cos(tree.yaw), sin(tree.yaw), tree.scale)
        return Matrix4(columns: [
            SIMD4(c * k, 0, -s * k, 0), SIMD4(0, k, 0, 0), SIMD4(s * k, 0, c * k, 0),
            SIMD4(tree.position.x, tree.position.y, tree.position.z, 1),
        ])
    }
}
