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
        var document = build(scene, textures: textures)
        var bufferURI = "data:application/octet-stream;base64," + Data(document.binary).base64EncodedString()
        if document.binary.isEmpty { bufferURI = "data:application/octet-stream;base64," }
        document.json["buffers"] = [["byteLength": document.binary.count, "uri": bufferURI]]
        let data = try Self.serialized(document.json, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A `.glb` file: the JSON chunk and one binary chunk.
    /// - Throws: ``ExportError`` `notFinite` when a pose or size is not a finite number, `tooLarge`
    ///   when the file would pass GLB's 4 GiB limit.
    public func glb(_ scene: SceneGraph, textures: [String: [UInt8]]) throws(ExportError) -> [UInt8] {
        try Self.checkFinite(scene)
        var document = build(scene, textures: textures)
        document.json["buffers"] = [["byteLength": document.binary.count]]
        var json = [UInt8](try Self.serialized(document.json, options: [.sortedKeys, .withoutEscapingSlashes]))
        while json.count % 4 != 0 { json.append(0x20) }
        var binary = document.binary
        while binary.count % 4 != 0 { binary.append(0) }
        let total = 12 + 8 + json.count + 8 + binary.count
        guard total <= Int(UInt32.max) else {
            throw ExportError(
                .tooLarge, "the GLB would be \(total) bytes, more than the format's 4 GiB: lower --scale or write .gltf"
            )
        }
        var file: [UInt8] = []
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { file.append(contentsOf: $0) } }
        append(0x4654_6C67)  // "glTF"
        append(2)
        append(UInt32(12 + 8 + json.count + 8 + binary.count))
        append(UInt32(json.count))
        append(0x4E4F_534A)  // "JSON"
        file += json
        append(UInt32(binary.count))
        append(0x004E_4942)  // "BIN\0"
        file += binary
        return file
    }

    /// Refuses a scene with a NaN or infinite pose or size, naming the node.
    private static func checkFinite(_ scene: SceneGraph) throws(ExportError) {
        guard let node = scene.nodes.first(where: { !$0.isFinite }) else { return }
        throw ExportError(
            .notFinite, "the scene has a pose or size that is not a finite number, which glTF cannot hold",
            location: node.id)
    }

    /// The JSON bytes of `object`; a non-finite number (which JSON cannot hold) is an error, never an empty file.
    private static func serialized(_ object: [String: Any], options: JSONSerialization.WritingOptions)
        throws(ExportError) -> Data
    {
        do {
            return try JSONSerialization.data(withJSONObject: object, options: options)
        } catch {
            throw ExportError(
                .notFinite, "the scene has a pose or size that is not a finite number, which glTF cannot hold")
        }
    }

    private struct Document {
        var json: [String: Any]
        var binary: [UInt8]
    }

    /// The glTF JSON (without `buffers`) and the binary buffer: shared quad geometry, then images.
    private func build(_ scene: SceneGraph, textures: [String: [UInt8]]) -> Document {
        var binary: [UInt8] = []
        func appendFloats(_ values: [Float]) {
            for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { binary.append(contentsOf: $0) } }
        }
        appendFloats([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0])  // positions, 48 bytes
        appendFloats([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])  // normals, 48 bytes
        appendFloats([0, 1, 1, 1, 1, 0, 0, 0])  // texture coordinates (v down), 32 bytes
        for index: UInt16 in [0, 1, 2, 0, 2, 3] {
            withUnsafeBytes(of: index.littleEndian) { binary.append(contentsOf: $0) }
        }
        binary += [0, 0]
        var bufferViews: [[String: Any]] = [
            ["buffer": 0, "byteOffset": 0, "byteLength": 48, "target": 34962],
            ["buffer": 0, "byteOffset": 48, "byteLength": 48, "target": 34962],
            ["buffer": 0, "byteOffset": 96, "byteLength": 32, "target": 34962],
            ["buffer": 0, "byteOffset": 128, "byteLength": 12, "target": 34963],
        ]
        let accessors: [[String: Any]] = [
            [
                "bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-0.5, -0.5, 0],
                "max": [0.5, 0.5, 0],
            ],
            ["bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"],
            ["bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"],
            ["bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"],
        ]
        var images: [[String: Any]] = []
        var gltfTextures: [[String: Any]] = []
        var materials: [[String: Any]] = []
        var meshes: [[String: Any]] = []
        var nodes: [[String: Any]] = []
        // A plain material for quads without a texture (targets without their image).
        materials.append([
            "name": "plain",
            "pbrMetallicRoughness": [
                "baseColorFactor": [0.85, 0.85, 0.87, 1], "metallicFactor": 0, "roughnessFactor": 1,
            ], "doubleSided": true,
        ])
        materials.append([
            "name": "marker",
            "pbrMetallicRoughness": [
                "baseColorFactor": [1, 0.23, 0.19, 1], "metallicFactor": 0, "roughnessFactor": 1,
            ], "doubleSided": true,
        ])
        for node in scene.nodes {
            var entry: [String: Any] = ["name": node.id]
            var extras: [String: Any] = ["kind": node.kind.rawValue]
            if let parent = node.parent { extras["parent"] = parent }
            if let asset = node.asset { extras["asset"] = asset }
            if let text = node.text { extras["text"] = text }
            if let anchor = node.anchor { extras["anchor"] = anchor.rawValue }
            var matrix = node.pose.matrix
            if let size = node.size, size.x > 0, size.y > 0 {
                for row in 0..<3 {
                    matrix[row, 0] *= size.x
                    matrix[row, 1] *= size.y
                }
                var material = node.kind == .annotation ? 1 : 0
                if let png = textures[node.id] {
                    while binary.count % 4 != 0 { binary.append(0) }
                    bufferViews.append(["buffer": 0, "byteOffset": binary.count, "byteLength": png.count])
                    binary += png
                    images.append([
                        "bufferView": bufferViews.count - 1,
                        "mimeType": png.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : "image/png",
                    ])
                    gltfTextures.append(["source": images.count - 1, "sampler": 0])
                    materials.append([
                        "name": node.id,
                        "pbrMetallicRoughness": [
                            "baseColorTexture": ["index": gltfTextures.count - 1], "metallicFactor": 0,
                            "roughnessFactor": 1,
                        ],
                        "alphaMode": "BLEND", "doubleSided": true,
                    ])
                    material = materials.count - 1
                }
                meshes.append([
                    "name": node.id,
                    "primitives": [
                        [
                            "attributes": ["POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2], "indices": 3,
                            "material": material,
                        ]
                    ],
                ])
                entry["mesh"] = meshes.count - 1
                extras["size"] = [node.size!.x, node.size!.y]
            }
            entry["matrix"] = matrix.columnMajor
            entry["extras"] = extras
            nodes.append(entry)
        }
        var json: [String: Any] = [
            "asset": ["version": "2.0", "generator": "ARVis"],
            "scene": 0,
            "scenes": [["nodes": Array(nodes.indices)]],
            "nodes": nodes, "meshes": meshes, "materials": materials, "accessors": accessors,
            "bufferViews": bufferViews,
        ]
        if !images.isEmpty {
            json["images"] = images
            json["textures"] = gltfTextures
            json["samplers"] = [["magFilter": 9729, "minFilter": 9729]]
        }
        if meshes.isEmpty { json.removeValue(forKey: "meshes") }
        return Document(json: json, binary: binary)
    }
}
