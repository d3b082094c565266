public import ARVisSpatial
import ARVisSpec
public import ARVisSupport
import Foundation

/// Writes a ``SceneGraph`` as glTF 2.0: every quad (targets with a size, widgets, annotation markers)
/// a unit square scaled to its size and textured where a texture is given, every other node (anchors,
/// objects, placements) an empty node
/// with its world matrix; ids, kinds, parents, assets and texts go in each node's `extras`.
///
/// ```swift
/// let glb = try GLTFExporter().glb(scene, textures: ["image1-widget1": pngBytes])
/// ```
public struct GLTFExporter: Sendable {
    /// Creates an exporter.
    public init() {}

    /// A `.gltf` file: JSON with the geometry and textures embedded as data URIs.
    /// - Throws: ``ExportError`` `notFinite` when a pose or size is not a finite number.
    public func gltf(_ scene: SceneGraph, textures: [String: [UInt8]]) throws(ExportError) -> String {
        try Self.checkFinite(scene)
        var (document, binary) = build(scene, textures: textures)
        document.buffers = [
            .init(
                byteLength: binary.count,
                uri: "data:application/octet-stream;base64," + Data(binary).base64EncodedString())
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
        } catch {
            throw ExportError(
                .notFinite, "the scene has a pose or size that is not a finite number, which glTF cannot hold",
                cause: error)
        }
    }

    /// A `.glb` file: the JSON chunk and one binary chunk.
    /// - Throws: ``ExportError`` `notFinite` when a pose or size is not a finite number, `tooLarge`
    ///   when the file would pass GLB's 4 GiB limit.
    public func glb(_ scene: SceneGraph, textures: [String: [UInt8]]) throws(ExportError) -> [UInt8] {
        try Self.checkFinite(scene)
        var (document, binary) = build(scene, textures: textures)
        document.buffers = [.init(byteLength: binary.count, uri: nil)]
        while binary.count % 4 != 0 { binary.append(0) }  // the chunk is padded, not the buffer
        do {
            return try GLBWriter.container(json: document, binary: binary)
        } catch  where error.code == .tooLarge {
            throw ExportError(.tooLarge, "\(error.message): lower --scale or write .gltf")
        } catch {
            throw ExportError(
                .notFinite, "the scene has a pose or size that is not a finite number, which glTF cannot hold",
                cause: error)
        }
    }

    /// Refuses a scene with a NaN or infinite pose or size, naming the node.
    private static func checkFinite(_ scene: SceneGraph) throws(ExportError) {
        guard let node = scene.nodes.first(where: { !$0.isFinite }) else { return }
        throw ExportError(
            .notFinite, "the scene has a pose or size that is not a finite number, which glTF cannot hold",
            location: node.id)
    }

    /// The shared unit quad: positions, normals, texture coordinates (v down) and indices, in the
    /// first 140 bytes of the buffer.
    private static func quad() -> (
        binary: [UInt8], views: [GLTFDocument.BufferView], accessors: [GLTFDocument.Accessor]
    ) {
        var binary = BinaryWriter()
        for value: Float in [-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0] { binary.write(value) }
        for value: Float in [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1] { binary.write(value) }
        for value: Float in [0, 1, 1, 1, 1, 0, 0, 0] { binary.write(value) }
        for index: UInt16 in [0, 1, 2, 0, 2, 3] { binary.write(index) }
        binary.bytes += [0, 0]
        let views: [GLTFDocument.BufferView] = [
            .init(buffer: 0, byteOffset: 0, byteLength: 48, target: 34962),
            .init(buffer: 0, byteOffset: 48, byteLength: 48, target: 34962),
            .init(buffer: 0, byteOffset: 96, byteLength: 32, target: 34962),
            .init(buffer: 0, byteOffset: 128, byteLength: 12, target: 34963),
        ]
        let accessors: [GLTFDocument.Accessor] = [
            .init(
                bufferView: 0, componentType: 5126, count: 4, type: "VEC3", min: [-0.5, -0.5, 0], max: [0.5, 0.5, 0]),
            .init(bufferView: 1, componentType: 5126, count: 4, type: "VEC3"),
            .init(bufferView: 2, componentType: 5126, count: 4, type: "VEC2"),
            .init(bufferView: 3, componentType: 5123, count: 6, type: "SCALAR"),
        ]
        return (binary.bytes, views, accessors)
    }

    /// A material with no texture: grey for targets without their image, red for annotation markers.
    private static func plain(_ name: String, _ color: [Double]) -> GLTFDocument.Material {
        .init(
            name: name, pbrMetallicRoughness: .init(baseColorFactor: color, metallicFactor: 0, roughnessFactor: 1),
            doubleSided: true)
    }

    /// What a node's `extras` carry: its kind, parent, asset, text, anchor and quad size.
    private static func extras(_ node: SceneNode) -> JSONValue {
        var extras: [String: JSONValue] = ["kind": .string(node.kind.rawValue)]
        if let parent = node.parent { extras["parent"] = .string(parent) }
        if let asset = node.asset { extras["asset"] = .string(asset) }
        if let text = node.text { extras["text"] = .string(text) }
        if let anchor = node.anchor { extras["anchor"] = .string(anchor.rawValue) }
        if let size = node.size, size.x > 0, size.y > 0 { extras["size"] = .array([.number(size.x), .number(size.y)]) }
        return .object(extras)
    }

    /// The glTF document (without `buffers`) and the binary buffer: shared quad geometry, then images.
    private func build(_ scene: SceneGraph, textures: [String: [UInt8]]) -> (GLTFDocument, [UInt8]) {
        var (binary, bufferViews, accessors) = Self.quad()
        var document = GLTFDocument(asset: .init(version: "2.0", generator: "ARVis"))
        var images: [GLTFDocument.Image] = []
        var gltfTextures: [GLTFDocument.Texture] = []
        var materials = [Self.plain("plain", [0.85, 0.85, 0.87, 1]), Self.plain("marker", [1, 0.23, 0.19, 1])]
        var meshes: [GLTFDocument.Mesh] = []
        var nodes: [GLTFDocument.Node] = []
        for node in scene.nodes {
            var entry = GLTFDocument.Node(name: node.id, extras: Self.extras(node))
            var matrix = node.pose.matrix
            if let size = node.size, size.x > 0, size.y > 0 {
                for row in 0..<3 {
                    matrix[row, 0] *= size.x
                    matrix[row, 1] *= size.y
                }
                var material = node.kind == .annotation ? 1 : 0
                if let png = textures[node.id] {
                    while binary.count % 4 != 0 { binary.append(0) }
                    bufferViews.append(.init(buffer: 0, byteOffset: binary.count, byteLength: png.count))
                    binary += png
                    images.append(
                        .init(
                            bufferView: bufferViews.count - 1,
                            mimeType: png.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : "image/png"))
                    gltfTextures.append(.init(sampler: 0, source: images.count - 1))
                    materials.append(
                        .init(
                            name: node.id,
                            pbrMetallicRoughness: .init(
                                baseColorTexture: .init(index: gltfTextures.count - 1), metallicFactor: 0,
                                roughnessFactor: 1),
                            alphaMode: "BLEND", doubleSided: true))
                    material = materials.count - 1
                }
                meshes.append(
                    .init(
                        name: node.id,
                        primitives: [
                            .init(
                                attributes: ["POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2], indices: 3,
                                material: material)
                        ]))
                entry.mesh = meshes.count - 1
            }
            entry.matrix = matrix.columnMajor
            nodes.append(entry)
        }
        document.scene = 0
        document.scenes = [.init(nodes: Array(nodes.indices))]
        document.nodes = nodes
        document.meshes = meshes.isEmpty ? nil : meshes
        document.materials = materials
        document.accessors = accessors
        document.bufferViews = bufferViews
        if !images.isEmpty {
            document.images = images
            document.textures = gltfTextures
            document.samplers = [.init(magFilter: 9729, minFilter: 9729)]
        }
        return (document, binary)
    }
}
