import ARVisModel
import ARVisPipeline
import ARVisPlanting
import ARVisSpatial
import Foundation
import Testing

/// Species models and a planting's scene: shapes from the catalog, one mesh pair per species, trees
/// placed by their transforms, and files that read back.
struct TreeModelTests {
    /// Every point of a model's meshes in world space (nodes' transforms applied).
    private func worldPoints(_ model: Model) -> [SIMD3<Double>] {
        var points: [SIMD3<Double>] = []
        func visit(_ index: Int, _ parent: Matrix4) {
            let node = model.nodes[index]
            let world = parent * node.transform
            for mesh in node.meshes {
                for p in model.meshes[mesh].positions {
                    let q = world * SIMD4(Double(p.x), Double(p.y), Double(p.z), 1)
                    points.append(SIMD3(q.x, q.y, q.z))
                }
            }
            for child in node.children { visit(child, world) }
        }
        for root in model.roots { visit(root, .identity) }
        return points
    }

    @Test(arguments: SpeciesCatalog.standard.species)
    func everySpeciesStandsAsTallAsItsCatalogSaysAndAsWideAsItsCrown(species: Species) throws {
        let drawn = SpeciesModel(species)
        let model = drawn.model
        try model.validate()
        let points = worldPoints(model)
        let top = points.map(\.y).max() ?? 0
        #expect(abs(top - (species.minimumHeight + species.maximumHeight) / 2) < 1e-3)
        #expect(points.map(\.y).min() == 0, "the tree stands on its origin")
        let widest = points.map { ($0.x * $0.x + $0.z * $0.z).squareRoot() }.max() ?? 0
        #expect(abs(2 * widest - drawn.crownWidth) < 1e-3)
        #expect(model.meshes.map(\.triangleCount).reduce(0, +) <= 120, "low-poly: thousands are drawn at once")
        // Flat shading: every normal is a unit vector pointing away from the trunk's axis or up/down.
        for mesh in model.meshes {
            #expect(mesh.normals.count == mesh.positions.count)
            #expect(mesh.normals.allSatisfy { abs(($0 * $0).sum() - 1) < 1e-4 })
        }
    }

    @Test func crownFormsShapeTheCrown() throws {
        let pine = try #require(SpeciesCatalog.standard.species(named: "Pinus pinea"))
        let cypress = try #require(SpeciesCatalog.standard.species(named: "Cupressus sempervirens"))
        #expect(pine.crown == .umbrella && cypress.crown == .columnar)
        let umbrella = SpeciesModel(pine)
        #expect(umbrella.crownWidth >= 0.6 * umbrella.height, "a stone pine's crown is wide")
        let column = SpeciesModel(cypress)
        #expect(column.crownWidth == 0.15 * column.height, "a cypress is narrow")
    }

    @Test func aPlantingDrawsEachSpeciesOnceAndPlacesEveryTree() throws {
        let names = ["Pinus pinea", "Quercus suber", "Olea europaea"]
        let trees = (0..<300).map { (index: Int) -> PlantingScene.Tree in
            let n = Double(index)
            let position = SIMD3<Double>(n, 0.5, -n / 2)
            let scale = 0.5 + Double(index % 4) / 4
            return PlantingScene.Tree(species: names[index % 3], position: position, yaw: n / 10, scale: scale)
        }
        let model = PlantingScene(trees + [PlantingScene.Tree(species: "Nothing known", position: .zero)]).model
        try model.validate()
        #expect(model.meshes.count == 8, "a trunk and a crown per species, the unknown one included")
        #expect(model.nodes[0].children.count == 301)
        // Tree 7: its base at its position, its height scaled, its crown turned.
        let seventh = model.nodes[model.nodes[0].children[7]]
        let base = seventh.transform * SIMD4(0, 0, 0, 1)
        #expect(base.x == 7 && base.y == 0.5 && base.z == -3.5)
        let up = seventh.transform * SIMD4(0, 1, 0, 0)
        #expect(abs(up.y - 1.25) < 1e-12)
        let ahead = seventh.transform * SIMD4(1, 0, 0, 0)
        #expect(abs(atan2(-ahead.z, ahead.x) - 0.7) < 1e-12, "yaw turns counter-clockwise seen from above")
        let glb = try GLBWriter().write(model)
        let read = try ModelFile.read(glb, fileName: "planting.glb")
        #expect(read.meshes.count == 8, "the species meshes are shared by the trees, not copied")
        #expect(read.nodes.reduce(0) { $0 + $1.meshes.count } == 2 * 301, "each tree draws a trunk and a crown")
        let usdz = try USDZWriter(anchoring: .plane(alignment: "horizontal")).write(model)
        #expect(try ModelFile.read(usdz, fileName: "planting.usdz").meshes.count >= 8)
    }
}
