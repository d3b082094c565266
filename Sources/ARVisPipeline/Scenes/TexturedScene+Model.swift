public import ARVisModel
import ARVisSpatial
public import ARVisSupport
import Foundation

extension TexturedScene {
    /// The scene as a 3D model: each target picture, widget render and annotation marker a
    /// two-sided textured square at its pose and size, and each placement's model (when `models`
    /// holds it, by the placement's `model` string) at its pose. Metres, +Y up, as laid out.
    /// - Parameter textures: PNG or JPEG bytes by scene node id, from ``textures(scale:)``.
    public func model(textures: [String: [UInt8]], models: [String: Model] = [:]) -> Model {
        var model = Model(nodes: [Node(name: "Scene")], roots: [0])
        var quadMaterials: [String: Int] = [:]
        for node in graph.nodes {
            let pose = node.pose.matrix
            if let size = node.size, size.x > 0, size.y > 0 {
                var matrix = pose
                for row in 0..<3 {
                    matrix[row, 0] *= size.x
                    matrix[row, 1] *= size.y
                }
                let material = Self.material(for: node, textures: textures, into: &model, cache: &quadMaterials)
                model.meshes.append(Self.quad(named: node.id, material: material))
                model.nodes.append(Node(name: node.id, transform: matrix, meshes: [model.meshes.count - 1]))
                model.nodes[0].children.append(model.nodes.count - 1)
            } else if node.kind == .placement, let asset = node.asset, let placed = models[asset] {
                model.insert(placed, name: node.id, transform: pose, under: 0)
            }
        }
        return model
    }

    /// The scene as a USDZ for AR Quick Look: anchored to the first image target whose picture is
    /// among `textures` (the picture, at the target's printed width, is the reference image), else
    /// standing on a horizontal plane (the floor or a table) with its lowest point on it.
    public func usdz(textures: [String: [UInt8]], models: [String: Model] = [:]) throws(ModelError) -> [UInt8] {
        var model = model(textures: textures, models: models)
        var writer = USDZWriter(anchoring: .plane(alignment: "horizontal"))
        let firstPicture = graph.nodes.first { node in
            node.kind == .target && node.size != nil && textures[node.id].flatMap(Texture.format(of:)) != nil
        }
        if let target = firstPicture, let size = target.size, let bytes = textures[target.id],
            let format = Texture.format(of: bytes)
        {
            // ARKit's image anchor: the picture in the anchor's XZ plane, +Y its normal, its top towards −Z.
            let anchor =
                target.pose.matrix
                * Matrix4(columns: [SIMD4(1, 0, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, 0, 1)])
            model.nodes[0].transform = anchor.inverse ?? .identity
            writer.anchoring = .image(Texture(name: target.id, data: bytes, format: format), physicalWidth: size.x)
        } else if let bounds = model.bounds {
            model.nodes[0].transform = Matrix4(columns: [
                SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0),
                SIMD4(-bounds.center.x, -bounds.minimum.y, -bounds.center.z, 1),
            ])
        }
        return try writer.write(model)
    }

    private static func material(
        for node: SceneNode, textures: [String: [UInt8]], into model: inout Model, cache: inout [String: Int]
    ) -> Int {
        if let bytes = textures[node.id], let format = Texture.format(of: bytes) {
            model.textures.append(Texture(name: node.id, data: bytes, format: format))
            model.materials.append(
                Material(
                    name: node.id, baseColorTexture: model.textures.count - 1, metallicFactor: 0, roughnessFactor: 1,
                    alphaMode: node.kind == .widget ? .blend : .opaque, doubleSided: true))
            return model.materials.count - 1
        }
        let key = node.kind == .annotation ? "marker" : "plain"
        if let known = cache[key] { return known }
        let color: SIMD4<Float> = node.kind == .annotation ? SIMD4(1, 0.23, 0.19, 1) : SIMD4(0.85, 0.85, 0.87, 1)
        model.materials.append(
            Material(name: key, baseColorFactor: color, metallicFactor: 0, roughnessFactor: 1, doubleSided: true))
        cache[key] = model.materials.count - 1
        return model.materials.count - 1
    }

    /// A unit square in the XY plane facing +Z, its texture upright.
    private static func quad(named name: String, material: Int) -> Mesh {
        Mesh(
            name: name,
            positions: [SIMD3(-0.5, -0.5, 0), SIMD3(0.5, -0.5, 0), SIMD3(0.5, 0.5, 0), SIMD3(-0.5, 0.5, 0)],
            normals: [SIMD3<Float>](repeating: SIMD3(0, 0, 1), count: 4),
            uvs: [SIMD2(0, 1), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 0)],
            indices: [0, 1, 2, 0, 2, 3], material: material)
    }
}

extension TexturedScene {
    /// The models the placements name, loaded through `loader` and read (GLB, glTF with embedded
    /// data, USDZ, USDC, USDA); a model that does not load or read is left out with its reason.
    public func placementModels(loader: any ResourceLoader) async -> (
        models: [String: Model], failures: [PipelineError]
    ) {
        let references = graph.nodes.filter { $0.kind == .placement }.compactMap(\.asset)
        let loaded = await loader.loadAll(references)
        var models: [String: Model] = [:]
        var failures = loaded.failures
        for (reference, bytes) in loaded.bytes {
            do throws(ModelError) {
                models[reference] = try ModelFile.read(bytes, fileName: reference)
            } catch {
                failures.append(
                    PipelineError(.invalidInput, "the model does not read: \(error)", location: reference, cause: error)
                )
            }
        }
        return (models, failures)
    }
}
