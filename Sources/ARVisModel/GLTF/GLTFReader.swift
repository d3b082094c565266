import ARVisGraphics
import ARVisSpatial
import ARVisSupport
import Foundation

/// Reads glTF 2.0: a binary `.glb`, or a `.gltf` JSON file whose buffers and images are data URIs or
/// files an `external` closure supplies. Meshes (triangles, strips and fans; points and lines are
/// skipped with a warning), indices, normals, the first UV set, the node hierarchy with matrices or
/// translation-rotation-scale, and metallic-roughness materials with their PNG and JPEG textures.
/// Buffer views `EXT_meshopt_compression` compresses are decoded (``MeshoptDecoder``), and so are
/// primitives `KHR_draco_mesh_compression` compresses (``DracoDecoder``).
struct GLTFReader {
    /// Loads a file a `.gltf` names by a relative URI; `nil` refuses every external file.
    var external: ((String) throws(ModelError) -> [UInt8])?
    var limits = Model.Limits()
    /// What was skipped: unsupported primitives, images and extensions.
    var warnings: [String] = []

    private static let glbMagic: UInt32 = 0x4654_6C67
    /// Extensions ARVis reads, or whose data it can ignore and still draw the model correctly enough.
    private static let ignorableExtensions: Set<String> = [
        "KHR_materials_emissive_strength", "KHR_texture_transform", "KHR_materials_ior", "KHR_materials_specular",
        "KHR_materials_unlit", "KHR_mesh_quantization", "KHR_materials_iridescence", "EXT_meshopt_compression",
        "KHR_draco_mesh_compression",
    ]

    /// Reads a `.glb` file.
    mutating func readGLB(_ bytes: [UInt8]) throws(ModelError) -> Model {
        let reader = BinaryReader(bytes, what: "the GLB")
        guard bytes.count >= 12, try reader.load(UInt32.self, at: 0) == Self.glbMagic else {
            throw ModelError(.invalid, "not a GLB file: it does not start with 'glTF'", location: "byte 0")
        }
        let version = try reader.load(UInt32.self, at: 4)
        guard version == 2 else {
            throw ModelError(.unsupported, "GLB version \(version); only glTF 2.0 is read", location: "byte 4")
        }
        let length = Int(try reader.load(UInt32.self, at: 8))
        guard length <= bytes.count else {
            throw ModelError(
                .truncated, "the GLB says it has \(length) bytes but the file has \(bytes.count)", location: "byte 8")
        }
        var offset = 12
        var json: ArraySlice<UInt8>?
        var binary: [UInt8]?
        while offset + 8 <= length {
            let chunkLength = Int(try reader.load(UInt32.self, at: offset))
            let type = try reader.load(UInt32.self, at: offset + 4)
            guard chunkLength <= length - offset - 8 else {
                throw ModelError(
                    .truncated, "a chunk of \(chunkLength) bytes runs past the end of the GLB",
                    location: "byte \(offset)")
            }
            let body = bytes[offset + 8..<offset + 8 + chunkLength]
            if type == 0x4E4F_534A, json == nil {
                json = body
            } else if type == 0x004E_4942, binary == nil {
                binary = Array(body)
            }
            offset += 8 + chunkLength
        }
        guard let json else { throw ModelError(.invalid, "the GLB has no JSON chunk", location: "byte 12") }
        return try read(json: json, glbBuffer: binary)
    }

    /// Reads a `.gltf` JSON file.
    mutating func readJSON(_ bytes: [UInt8]) throws(ModelError) -> Model {
        try read(json: bytes[...], glbBuffer: nil)
    }

    private mutating func read(json: ArraySlice<UInt8>, glbBuffer: [UInt8]?) throws(ModelError) -> Model {
        let document: GLTFDocument
        do {
            document = try JSONDecoder().decode(GLTFDocument.self, from: Data(json))
        } catch {
            throw ModelError(
                .invalid, "the glTF JSON does not fit glTF 2.0: \(Self.describe(error))", location: "JSON", cause: error
            )
        }
        guard document.asset.version.hasPrefix("2.") else {
            throw ModelError(
                .unsupported, "glTF version \(document.asset.version); only 2.x is read", location: "asset.version")
        }
        for name in document.extensionsRequired ?? [] where !Self.ignorableExtensions.contains(name) {
            throw ModelError(
                .unsupported,
                "the file requires the extension \(name), which ARVis does not read (re-export without it)",
                location: "extensionsRequired")
        }
        for name in document.extensionsUsed ?? []
        where !Self.ignorableExtensions.contains(name) && !(document.extensionsRequired ?? []).contains(name) {
            warnings.append("the extension \(name) is ignored")
        }
        var context = try GLTFBuffers(document: document, glbBuffer: glbBuffer, external: external)
        var model = Model()
        let images = try readImages(document, &context)
        model.textures = images.textures
        model.materials = try readMaterials(document, textureOfImage: images.ofImage)
        // A material whose picture could not be read is drawn with its factors alone.
        let unreadable = Set(model.textures.indices.filter { model.textures[$0].data.isEmpty })
        for index in model.materials.indices where !unreadable.isEmpty {
            for keyPath in Material.textureKeyPaths {
                if let texture = model.materials[index][keyPath: keyPath], unreadable.contains(texture) {
                    model.materials[index][keyPath: keyPath] = nil
                }
            }
        }
        var meshesOfGLTFMesh: [[Int]] = []
        for (index, mesh) in (document.meshes ?? []).enumerated() {
            var parts: [Int] = []
            for (primitiveIndex, primitive) in mesh.primitives.enumerated() {
                let location = "meshes[\(index)].primitives[\(primitiveIndex)]"
                guard let part = try readPrimitive(primitive, name: mesh.name ?? "", location: location, context) else {
                    continue
                }
                guard part.material.map({ model.materials.indices.contains($0) }) ?? true else {
                    throw ModelError(.invalid, "material \(part.material!) does not exist", location: location)
                }
                model.meshes.append(part)
                parts.append(model.meshes.count - 1)
            }
            meshesOfGLTFMesh.append(parts)
        }
        for (index, node) in (document.nodes ?? []).enumerated() {
            var meshes: [Int] = []
            if let mesh = node.mesh {
                guard meshesOfGLTFMesh.indices.contains(mesh) else {
                    throw ModelError(.invalid, "mesh \(mesh) does not exist", location: "nodes[\(index)].mesh")
                }
                meshes = meshesOfGLTFMesh[mesh]
            }
            model.nodes.append(
                Node(
                    name: node.name ?? "", transform: try Self.transform(of: node, location: "nodes[\(index)]"),
                    children: node.children ?? [], meshes: meshes))
        }
        model.roots = try roots(document, nodeCount: model.nodes.count)
        try model.validate(limits: limits)
        return model
    }

    /// The nodes of the default scene, or every node without a parent when the file has no scene.
    private func roots(_ document: GLTFDocument, nodeCount: Int) throws(ModelError) -> [Int] {
        if let scenes = document.scenes, !scenes.isEmpty {
            let index = document.scene ?? 0
            guard scenes.indices.contains(index) else {
                throw ModelError(.invalid, "scene \(index) does not exist", location: "scene")
            }
            return scenes[index].nodes ?? []
        }
        let children = Set((document.nodes ?? []).flatMap { $0.children ?? [] })
        return (0..<nodeCount).filter { !children.contains($0) }
    }

    /// A node's local transform from its matrix or its translation, rotation and scale.
    static func transform(of node: GLTFDocument.Node, location: String) throws(ModelError) -> Matrix4 {
        if let values = node.matrix {
            guard values.count == 16, values.allSatisfy(\.isFinite), let matrix = Matrix4(columnMajor: values) else {
                throw ModelError(.invalid, "a node matrix has 16 finite numbers", location: location + ".matrix")
            }
            return matrix
        }
        let t = node.translation ?? [0, 0, 0]
        let r = node.rotation ?? [0, 0, 0, 1]
        let s = node.scale ?? [1, 1, 1]
        guard t.count == 3, r.count == 4, s.count == 3, (t + r + s).allSatisfy(\.isFinite) else {
            throw ModelError(
                .invalid, "translation, rotation and scale have 3, 4 and 3 finite numbers", location: location)
        }
        let rotation = Rotation(x: r[0], y: r[1], z: r[2], w: r[3]).matrix
        var columns: [SIMD4<Double>] = []
        for column in 0..<3 {
            columns.append(
                SIMD4(
                    rotation[0][column] * s[column], rotation[1][column] * s[column], rotation[2][column] * s[column], 0
                ))
        }
        columns.append(SIMD4(t[0], t[1], t[2], 1))
        return Matrix4(columns: columns)
    }

    /// The model's textures, one per distinct picture (images sharing a buffer view or the same
    /// bytes are one texture, read and later decoded once), and the texture of each glTF image.
    /// - Throws: ``ModelError`` `tooLarge` past the limit's images.
    private mutating func readImages(_ document: GLTFDocument, _ context: inout GLTFBuffers) throws(ModelError) -> (
        textures: [Texture], ofImage: [Int]
    ) {
        let images = document.images ?? []
        guard images.count <= limits.textures else {
            throw ModelError(
                .tooLarge, "the file has \(images.count) images, more than the \(limits.textures) allowed",
                location: "images")
        }
        var textures: [Texture] = []
        var ofImage: [Int] = []
        var byView: [Int: Int] = [:]
        var byBytes: [ContentKey: Int] = [:]
        for (index, image) in images.enumerated() {
            if let view = image.bufferView, let known = byView[view] {
                ofImage.append(known)
                continue
            }
            let texture = readImage(image, location: "images[\(index)]", &context)
            let number = texture.data.isEmpty ? nil : byBytes[ContentKey(bytes: texture.data)]
            if let number {
                ofImage.append(number)
            } else {
                textures.append(texture)
                ofImage.append(textures.count - 1)
                if !texture.data.isEmpty { byBytes[ContentKey(bytes: texture.data)] = textures.count - 1 }
            }
            if let view = image.bufferView { byView[view] = ofImage[index] }
        }
        return (textures, ofImage)
    }

    private mutating func readImage(_ image: GLTFDocument.Image, location: String, _ context: inout GLTFBuffers)
        -> Texture
    {
        do {
            let bytes: [UInt8]
            if let view = image.bufferView {
                bytes = try context.viewBytes(view, location: location)
            } else if let uri = image.uri {
                bytes = try context.load(uri: uri, location: location)
            } else {
                throw ModelError(.invalid, "the image has neither a bufferView nor a uri", location: location)
            }
            guard let format = Texture.format(of: bytes) else {
                throw ModelError(
                    .unsupported, "the image is neither PNG nor JPEG (\(image.mimeType ?? "unknown type"))",
                    location: location)
            }
            return Texture(name: image.name ?? "", data: bytes, format: format)
        } catch {
            // The model still draws without this picture; the material falls back to its factors.
            warnings.append("\(error); drawn without it")
            return Texture(name: image.name ?? "", data: [], format: .png)
        }
    }

    private mutating func readMaterials(_ document: GLTFDocument, textureOfImage: [Int]) throws(ModelError)
        -> [Material]
    {
        let textures = document.textures ?? []
        func image(_ info: GLTFDocument.TextureInfo?, _ location: String) throws(ModelError) -> Int? {
            guard let info else { return nil }
            guard textures.indices.contains(info.index) else {
                throw ModelError(.invalid, "texture \(info.index) does not exist", location: location)
            }
            guard let source = textures[info.index].source else { return nil }
            guard textureOfImage.indices.contains(source) else {
                throw ModelError(.invalid, "image \(source) does not exist", location: "textures[\(info.index)].source")
            }
            return textureOfImage[source]
        }
        var films: [Material.Iridescence?] = []
        for (index, material) in (document.materials ?? []).enumerated() {
            let film = Self.iridescence(material.extensions?.iridescence)
            if material.extensions?.iridescence != nil, film == nil {
                warnings.append(
                    "materials[\(index)]: KHR_materials_iridescence is ignored: its factor is 0 to 1, its index 1 or more, its thicknesses finite nanometres with the thinnest first"
                )
            }
            films.append(film)
        }
        return try (document.materials ?? []).enumerated().map { (index, material) throws(ModelError) in
            let location = "materials[\(index)]"
            let pbr = material.pbrMetallicRoughness
            let base = pbr?.baseColorFactor ?? [1, 1, 1, 1]
            let emissive = material.emissiveFactor ?? [0, 0, 0]
            guard base.count == 4, emissive.count == 3, (base + emissive).allSatisfy(\.isFinite) else {
                throw ModelError(.invalid, "baseColorFactor has 4 numbers and emissiveFactor 3", location: location)
            }
            let mode = Material.AlphaMode(rawValue: material.alphaMode ?? "OPAQUE")
            guard let mode else {
                throw ModelError(.invalid, "alphaMode is OPAQUE, MASK or BLEND", location: location + ".alphaMode")
            }
            return Material(
                name: material.name ?? "", baseColorFactor: SIMD4(base.map { Float($0) }),
                baseColorTexture: try image(pbr?.baseColorTexture, location),
                metallicFactor: Float(pbr?.metallicFactor ?? 1), roughnessFactor: Float(pbr?.roughnessFactor ?? 1),
                metallicRoughnessTexture: try image(pbr?.metallicRoughnessTexture, location),
                normalTexture: try image(material.normalTexture, location),
                occlusionTexture: try image(material.occlusionTexture, location),
                emissiveFactor: SIMD3(emissive.map { Float($0) }),
                emissiveTexture: try image(material.emissiveTexture, location),
                alphaMode: mode, alphaCutoff: Float(material.alphaCutoff ?? 0.5),
                doubleSided: material.doubleSided ?? false,
                iridescence: films[index],
                iridescenceThicknessTexture: films[index] == nil
                    ? nil : try image(material.extensions?.iridescence?.iridescenceThicknessTexture, location))
        }
    }

    /// A material's `KHR_materials_iridescence`, or `nil` when it has none or its numbers are not a
    /// film's: a factor 0…1, an index of 1 or more, thicknesses from 0 to a millimetre with the
    /// thinnest first.
    private static func iridescence(_ film: GLTFDocument.Iridescence?) -> Material.Iridescence? {
        guard let film else { return nil }
        let defaults = Material.Iridescence()
        let factor = film.iridescenceFactor ?? Double(defaults.factor)
        let index = film.iridescenceIor ?? Double(defaults.index)
        let thinnest = film.iridescenceThicknessMinimum ?? Double(defaults.thicknessRange.lowerBound)
        let thickest = film.iridescenceThicknessMaximum ?? Double(defaults.thicknessRange.upperBound)
        guard (0...1).contains(factor), (1...100).contains(index), thinnest >= 0, thickest <= 1_000_000,
            thinnest <= thickest
        else { return nil }
        return Material.Iridescence(
            factor: Float(factor), index: Float(index), thicknessRange: Float(thinnest)...Float(thickest))
    }

    private mutating func readPrimitive(
        _ primitive: GLTFDocument.Primitive, name: String, location: String, _ context: GLTFBuffers
    ) throws(ModelError) -> Mesh? {
        let mode = primitive.mode ?? 4
        guard (4...6).contains(mode) else {
            warnings.append("\(location): points and lines are not drawn")
            return nil
        }
        // glTF 2.0 (3.7.2.1): "When positions are not specified, client implementations SHOULD skip
        // primitive's rendering".
        guard primitive.attributes["POSITION"] != nil else {
            warnings.append("\(location): the primitive has no POSITION and is not drawn")
            return nil
        }
        let draco = try primitive.extensions?.draco.map { compression throws(ModelError) in
            try context.draco(compression, of: primitive, location: location)
        }
        /// An attribute's values: from the Draco stream when it names the attribute, else its accessor's.
        func attribute(_ semantic: String, width: Int) throws(ModelError) -> [Float] {
            guard let accessor = primitive.attributes[semantic] else { return [] }
            let normalized = context.document.accessors?[safe: accessor]?.normalized ?? false
            if let values = try draco?.vectors(semantic, width: width, normalized: normalized) { return values }
            return try context.vectors(accessor, width: width, location: location + ".attributes." + semantic)
        }
        let positions = Self.packed3(try attribute("POSITION", width: 3))
        let normals = Self.packed3(try attribute("NORMAL", width: 3))
        let flat = try attribute("TEXCOORD_0", width: 2)
        let uvs = (0..<flat.count / 2).map { SIMD2(flat[2 * $0], flat[2 * $0 + 1]) }
        guard normals.isEmpty || normals.count == positions.count, uvs.isEmpty || uvs.count == positions.count else {
            throw ModelError(
                .invalid, "NORMAL and TEXCOORD_0 have as many elements as POSITION", location: location + ".attributes")
        }
        let indices: [UInt32]
        if let draco {
            // A Draco stream holds a triangle list, whatever the mode says.
            indices = draco.mesh.indices
        } else if let accessor = primitive.indices {
            indices = Self.triangles(try context.indices(accessor, location: location + ".indices"), mode: mode)
        } else {
            indices = Self.triangles((0..<UInt32(positions.count)).map { $0 }, mode: mode)
        }
        return Mesh(
            name: name, positions: positions, normals: normals, uvs: uvs, indices: indices, material: primitive.material
        )
    }

    /// Flat x, y, z floats as vectors.
    static func packed3(_ flat: [Float]) -> [SIMD3<Float>] {
        (0..<flat.count / 3).map { SIMD3(flat[3 * $0], flat[3 * $0 + 1], flat[3 * $0 + 2]) }
    }

    /// Triangle-list indices for a list (4), strip (5) or fan (6), keeping counter-clockwise order.
    static func triangles(_ indices: [UInt32], mode: Int) -> [UInt32] {
        switch mode {
        case 5:
            guard indices.count >= 3 else { return [] }
            var result: [UInt32] = []
            result.reserveCapacity((indices.count - 2) * 3)
            for i in 0..<indices.count - 2 {
                result +=
                    i % 2 == 0
                    ? [indices[i], indices[i + 1], indices[i + 2]] : [indices[i + 1], indices[i], indices[i + 2]]
            }
            return result
        case 6:
            guard indices.count >= 3 else { return [] }
            return (1..<indices.count - 1).flatMap { [indices[0], indices[$0], indices[$0 + 1]] }
        default:
            return Array(indices.prefix(indices.count - indices.count % 3))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (path.isEmpty ? "" : "at \(path.hasPrefix(".") ? String(path.dropFirst()) : path): ")
                + context.debugDescription
        default:
            return "\(error)"
        }
    }
}
