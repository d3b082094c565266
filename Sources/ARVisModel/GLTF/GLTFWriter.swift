import ARVisSpatial
public import ARVisSupport
import Foundation

/// Writes a ``Model`` as a binary glTF 2.0 file (`.glb`): one JSON chunk written by `JSONEncoder`
/// and one binary chunk holding every vertex attribute, index list and texture image.
///
/// ```swift
/// let glb = try GLBWriter().write(model)
/// ```
public struct GLBWriter: Sendable {
    /// The `asset.generator` string.
    public var generator = "ARVis"

    /// Creates a writer.
    public init() {}

    /// The `.glb` bytes.
    /// - Throws: ``ModelError`` `invalid` when the model fails ``Model/validate(limits:)``,
    ///   `tooLarge` past GLB's 4 GiB.
    public func write(_ model: Model) throws(ModelError) -> [UInt8] {
        try model.validate()
        var unreported: [String] = []
        let model = model.droppingEmptyMeshes().composingTextures(warnings: &unreported)
        var binary = BinaryWriter()
        var document = GLTFDocument(asset: .init(version: "2.0", generator: generator))
        var accessors: [GLTFDocument.Accessor] = []
        var views: [GLTFDocument.BufferView] = []

        func addView(_ append: (inout BinaryWriter) -> Void, target: Int?) -> Int {
            binary.pad(toMultipleOf: 4)
            let start = binary.bytes.count
            append(&binary)
            views.append(.init(buffer: 0, byteOffset: start, byteLength: binary.bytes.count - start, target: target))
            return views.count - 1
        }
        func addFloats(_ floats: [Float], count: Int, type: String, bounds: ([Double], [Double])? = nil) -> Int {
            let view = addView({ $0.writeRaw(floats) }, target: 34962)
            accessors.append(
                .init(bufferView: view, componentType: 5126, count: count, type: type, min: bounds?.0, max: bounds?.1))
            return accessors.count - 1
        }

        var meshes: [GLTFDocument.Mesh] = []
        for mesh in model.meshes {
            var attributes: [String: Int] = [:]
            let low = mesh.positions.reduce(SIMD3<Float>(repeating: .infinity)) { pointwiseMin($0, $1) }
            let high = mesh.positions.reduce(SIMD3<Float>(repeating: -.infinity)) { pointwiseMax($0, $1) }
            let bounds =
                mesh.positions.isEmpty
                ? nil
                : ([Double(low.x), Double(low.y), Double(low.z)], [Double(high.x), Double(high.y), Double(high.z)])
            attributes["POSITION"] = addFloats(
                mesh.positions.flatMap { [$0.x, $0.y, $0.z] }, count: mesh.positions.count, type: "VEC3", bounds: bounds
            )
            if !mesh.normals.isEmpty {
                attributes["NORMAL"] = addFloats(
                    mesh.normals.flatMap { [$0.x, $0.y, $0.z] }, count: mesh.normals.count, type: "VEC3")
            }
            if !mesh.uvs.isEmpty {
                attributes["TEXCOORD_0"] = addFloats(
                    mesh.uvs.flatMap { [$0.x, $0.y] }, count: mesh.uvs.count, type: "VEC2")
            }
            let short = mesh.positions.count <= Int(UInt16.max)
            let indexView = addView(
                { writer in
                    if short {
                        writer.writeRaw(mesh.indices.map { UInt16(truncatingIfNeeded: $0) })
                    } else {
                        writer.writeRaw(mesh.indices)
                    }
                }, target: 34963)
            accessors.append(
                .init(
                    bufferView: indexView, componentType: short ? 5123 : 5125, count: mesh.indices.count, type: "SCALAR"
                ))
            meshes.append(
                .init(
                    name: mesh.name.isEmpty ? nil : mesh.name,
                    primitives: [.init(attributes: attributes, indices: accessors.count - 1, material: mesh.material)]))
        }

        var images: [GLTFDocument.Image] = []
        for texture in model.textures {
            let view = addView({ $0.bytes += texture.data }, target: nil)
            images.append(
                .init(
                    bufferView: view, mimeType: texture.format.mimeType, name: texture.name.isEmpty ? nil : texture.name
                ))
        }
        document.nodes = model.nodes.map { node in
            GLTFDocument.Node(
                name: node.name.isEmpty ? nil : node.name, children: node.children.isEmpty ? nil : node.children,
                mesh: nil, matrix: node.transform == .identity ? nil : node.transform.columnMajor)
        }
        // glTF gives a node one mesh: a node drawing several gets one child node per extra mesh.
        for (index, node) in model.nodes.enumerated() where !node.meshes.isEmpty {
            document.nodes![index].mesh = node.meshes[0]
            for mesh in node.meshes.dropFirst() {
                document.nodes!.append(.init(mesh: mesh))
                document.nodes![index].children = (document.nodes![index].children ?? []) + [document.nodes!.count - 1]
            }
        }
        document.scene = 0
        document.scenes = [.init(nodes: model.roots)]
        document.meshes = meshes.isEmpty ? nil : meshes
        document.materials = model.materials.isEmpty ? nil : model.materials.map(Self.material)
        if model.materials.contains(where: { $0.iridescence != nil }) {
            document.extensionsUsed = [GLTFDocument.MaterialExtensions.CodingKeys.iridescence.rawValue]
        }
        if !images.isEmpty {
            document.images = images
            document.textures = images.indices.map { .init(sampler: 0, source: $0) }
            document.samplers = [.init(magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497)]
        }
        document.accessors = accessors.isEmpty ? nil : accessors
        document.bufferViews = views.isEmpty ? nil : views
        binary.pad(toMultipleOf: 4)
        document.buffers = binary.bytes.isEmpty ? nil : [.init(byteLength: binary.bytes.count)]
        return try Self.container(json: document, binary: binary.bytes)
    }

    private static func material(_ material: Material) -> GLTFDocument.Material {
        func info(_ index: Int?) -> GLTFDocument.TextureInfo? { index.map { .init(index: $0) } }
        let base = material.baseColorFactor
        let emissive = material.emissiveFactor
        return GLTFDocument.Material(
            name: material.name.isEmpty ? nil : material.name,
            pbrMetallicRoughness: .init(
                baseColorFactor: [Double(base.x), Double(base.y), Double(base.z), Double(base.w)],
                baseColorTexture: info(material.baseColorTexture), metallicFactor: Double(material.metallicFactor),
                roughnessFactor: Double(material.roughnessFactor),
                metallicRoughnessTexture: info(material.metallicRoughnessTexture)),
            normalTexture: info(material.normalTexture), occlusionTexture: info(material.occlusionTexture),
            emissiveTexture: info(material.emissiveTexture),
            emissiveFactor: emissive == .zero ? nil : [Double(emissive.x), Double(emissive.y), Double(emissive.z)],
            alphaMode: material.alphaMode == .opaque ? nil : material.alphaMode.rawValue,
            alphaCutoff: material.alphaMode == .mask ? Double(material.alphaCutoff) : nil,
            doubleSided: material.doubleSided ? true : nil,
            extensions: material.iridescence.map { film in
                GLTFDocument.MaterialExtensions(
                    iridescence: .init(
                        iridescenceFactor: Double(film.factor), iridescenceIor: Double(film.index),
                        iridescenceThicknessMinimum: Double(film.thicknessRange.lowerBound),
                        iridescenceThicknessMaximum: Double(film.thicknessRange.upperBound),
                        iridescenceThicknessTexture: info(material.iridescenceThicknessTexture)))
            })
    }

    /// The GLB container: header, JSON chunk (space-padded), binary chunk (zero-padded).
    static func container(json document: some Encodable, binary: [UInt8]) throws(ModelError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var json: [UInt8]
        do { json = [UInt8](try encoder.encode(document)) } catch {
            throw ModelError(.invalid, "the model has a number JSON cannot hold (NaN or infinite)", cause: error)
        }
        while json.count % 4 != 0 { json.append(0x20) }
        let total = 12 + 8 + json.count + (binary.isEmpty ? 0 : 8 + binary.count)
        guard total <= Int(UInt32.max) else {
            throw ModelError(.tooLarge, "the GLB would be \(total) bytes, more than the format's 4 GiB")
        }
        var file = BinaryWriter()
        file.write(UInt32(0x4654_6C67))
        file.write(UInt32(2))
        file.write(UInt32(total))
        file.write(UInt32(json.count))
        file.write(UInt32(0x4E4F_534A))
        file.bytes += json
        if !binary.isEmpty {
            file.write(UInt32(binary.count))
            file.write(UInt32(0x004E_4942))
            file.bytes += binary
        }
        return file.bytes
    }
}

extension GLTFDocument {
    init(asset: Asset) {
        self.init(
            asset: asset, scene: nil, scenes: nil, nodes: nil, meshes: nil, accessors: nil, bufferViews: nil,
            buffers: nil,
            materials: nil, textures: nil, images: nil, samplers: nil, extensionsUsed: nil, extensionsRequired: nil)
    }
}
