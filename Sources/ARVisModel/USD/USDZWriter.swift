import ARVisSpatial
public import ARVisSupport

/// Writes a ``Model`` as a USDZ package for AR Quick Look and RealityKit: a binary `.usdc` root
/// layer (Y up, metres) with one `Xform` per node, one `Mesh` per drawn mesh and one
/// `UsdPreviewSurface` material per material, and the textures under `0/`. The output passes
/// usd-core's ARKit compliance checks with no error, failed check or warning.
///
/// ```swift
/// let usdz = try USDZWriter().write(try ModelFile.read(glbBytes))
/// ```
public struct USDZWriter: Sendable {
    /// How AR Quick Look places the scene in the world.
    public enum Anchoring: Sendable, Hashable {
        /// On a detected plane: `horizontal` (floor, table), `vertical` (wall) or `any`.
        case plane(alignment: String)
        /// On a tracked picture: the image (PNG or JPEG) and its printed width in metres.
        case image(Texture, physicalWidth: Double)
    }

    /// Where AR Quick Look anchors the root, or `nil` for its default (a horizontal plane).
    public var anchoring: Anchoring?

    /// Creates a writer.
    public init(anchoring: Anchoring? = nil) {
        self.anchoring = anchoring
    }

    /// The `.usdz` bytes.
    /// - Throws: ``ModelError`` `invalid` when the model fails ``Model/validate(limits:)``,
    ///   `tooLarge` when the package would pass zip's 4 GiB.
    public func write(_ model: Model) throws(ModelError) -> [UInt8] {
        var unreported: [String] = []
        let model = model.normalized().composingTextures(warnings: &unreported)
        try model.validate()
        var layer = USDLayerBuilder(model: model)
        layer.build(anchoring: anchoring)
        var files: [(name: String, data: [UInt8])] = [("scene.usdc", layer.crate.write())]
        for (index, texture) in model.textures.enumerated() where layer.usedTextures.contains(index) {
            files.append((USDLayerBuilder.textureFile(index, texture), texture.data))
        }
        if case .image(let picture, _) = anchoring {
            files.append((USDLayerBuilder.referenceImageFile(picture), picture.data))
        }
        return try USDZPackage.write(files)
    }
}

/// Builds the specs of the root layer from a normalised model.
struct USDLayerBuilder {
    let model: Model
    var crate = CrateWriter()
    var usedTextures = Set<Int>()

    init(model: Model) {
        self.model = model
    }

    static func textureFile(_ index: Int, _ texture: Texture) -> String {
        "0/texture_\(index).\(texture.format.fileExtension)"
    }
    static func referenceImageFile(_ picture: Texture) -> String { "0/anchor.\(picture.format.fileExtension)" }

    /// A valid USD prim name from any text: letters, digits and `_`, not starting with a digit.
    static func identifier(_ text: String, fallback: String) -> String {
        var name = String(
            text.unicodeScalars.map {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) ? Character($0) : "_"
            })
        if name.isEmpty || name.allSatisfy({ $0 == "_" }) { name = fallback }
        if name.first!.isNumber { name = "_" + name }
        return name
    }

    /// Names unique among siblings: a repeated name gets `_2`, `_3`…
    static func uniqueNames(_ names: [String]) -> [String] {
        var seen: [String: Int] = [:]
        var taken = Set<String>()
        return names.map { name in
            var candidate = name
            while taken.contains(candidate) {
                seen[name, default: 1] += 1
                candidate = "\(name)_\(seen[name]!)"
            }
            taken.insert(candidate)
            return candidate
        }
    }

    mutating func build(anchoring: USDZWriter.Anchoring?) {
        crate.add(
            "/", .pseudoRoot,
            [
                ("defaultPrim", .token("Root")), ("upAxis", .token("Y")), ("metersPerUnit", .double(1)),
                ("documentation", .string("Written by ARVis")), ("primChildren", .tokenVector(["Root"])),
            ])
        // "Materials" goes first so that it is never the one renamed (``materialPath(_:)`` relies on it).
        let rootNames = Self.uniqueNames(
            ["Materials"] + model.roots.map { Self.identifier(model.nodes[$0].name, fallback: "Node") })
        var rootFields: [(String, CrateWriter.Value)] = [("specifier", .specifier(0)), ("typeName", .token("Xform"))]
        var anchorChildren: [String] = []
        if let anchoring {
            var properties = ["preliminary:anchoring:type"]
            if case .plane = anchoring {
                properties.append("preliminary:planeAnchoring:alignment")
            } else {
                properties.append("preliminary:imageAnchoring:referenceImage")
                anchorChildren = ["AnchorImage"]
            }
            rootFields += [
                ("apiSchemas", .prependedTokens(["Preliminary_AnchoringAPI"])),
                ("properties", .tokenVector(properties)),
            ]
        }
        rootFields.append(("primChildren", .tokenVector(anchorChildren + rootNames.dropFirst() + ["Materials"])))
        crate.add("/Root", .prim, rootFields)
        switch anchoring {
        case .plane(let alignment):
            attribute("/Root.preliminary:anchoring:type", "token", .token("plane"), uniform: true)
            attribute("/Root.preliminary:planeAnchoring:alignment", "token", .token(alignment), uniform: true)
        case .image(let picture, let width):
            attribute("/Root.preliminary:anchoring:type", "token", .token("image"), uniform: true)
            crate.add(
                "/Root.preliminary:imageAnchoring:referenceImage", .relationship,
                [("variability", .variability(1)), ("targetPaths", .pathListOp(["/Root/AnchorImage"]))])
            crate.add(
                "/Root/AnchorImage", .prim,
                [
                    ("specifier", .specifier(0)), ("typeName", .token("Preliminary_ReferenceImage")),
                    ("properties", .tokenVector(["image", "physicalWidth"])),
                ])
            attribute("/Root/AnchorImage.image", "asset", .asset(Self.referenceImageFile(picture)), uniform: true)
            attribute("/Root/AnchorImage.physicalWidth", "double", .double(width * 100), uniform: true)
        case nil: break
        }
        for (root, name) in zip(model.roots, rootNames.dropFirst()) { node(root, path: "/Root/" + name) }
        materials()
    }

    mutating func attribute(
        _ path: String, _ typeName: String, _ value: CrateWriter.Value?, uniform: Bool = false,
        connection: String? = nil, interpolation: String? = nil
    ) {
        var fields: [(String, CrateWriter.Value)] = [("typeName", .token(typeName))]
        if uniform { fields.append(("variability", .variability(1))) }
        if let value { fields.append(("default", value)) }
        if let connection { fields.append(("connectionPaths", .pathListOp([connection]))) }
        if let interpolation { fields.append(("interpolation", .token(interpolation))) }
        crate.add(path, .attribute, fields)
    }

    private mutating func node(_ index: Int, path: String) {
        let node = model.nodes[index]
        let childNames = Self.uniqueNames(
            node.children.map { Self.identifier(model.nodes[$0].name, fallback: "Node") }
                + node.meshes.map { Self.identifier(model.meshes[$0].name, fallback: "Mesh") })
        var fields: [(String, CrateWriter.Value)] = [("specifier", .specifier(0)), ("typeName", .token("Xform"))]
        let hasTransform = node.transform != .identity
        if hasTransform { fields.append(("properties", .tokenVector(["xformOp:transform", "xformOpOrder"]))) }
        if !childNames.isEmpty { fields.append(("primChildren", .tokenVector(childNames))) }
        crate.add(path, .prim, fields)
        if hasTransform {
            attribute(path + ".xformOp:transform", "matrix4d", .matrix4d(node.transform.columnMajor))
            attribute(path + ".xformOpOrder", "token[]", .tokens(["xformOp:transform"]), uniform: true)
        }
        for (child, name) in zip(node.children, childNames) { self.node(child, path: path + "/" + name) }
        for (mesh, name) in zip(node.meshes, childNames.dropFirst(node.children.count)) {
            self.mesh(mesh, path: path + "/" + name)
        }
    }

    private mutating func mesh(_ index: Int, path: String) {
        let mesh = model.meshes[index]
        let material = mesh.material.map { model.materials[$0] }
        var properties = ["points", "faceVertexCounts", "faceVertexIndices", "extent", "subdivisionScheme"]
        if !mesh.normals.isEmpty { properties.append("normals") }
        if !mesh.uvs.isEmpty { properties.append("primvars:st") }
        if material?.doubleSided == true { properties.append("doubleSided") }
        if mesh.material != nil { properties.append("material:binding") }
        var fields: [(String, CrateWriter.Value)] = [("specifier", .specifier(0)), ("typeName", .token("Mesh"))]
        if mesh.material != nil { fields.append(("apiSchemas", .prependedTokens(["MaterialBindingAPI"]))) }
        fields.append(("properties", .tokenVector(properties)))
        crate.add(path, .prim, fields)
        attribute(path + ".points", "point3f[]", .floats(mesh.positions.flatMap { [$0.x, $0.y, $0.z] }, width: 3))
        attribute(path + ".faceVertexCounts", "int[]", .ints([Int32](repeating: 3, count: mesh.triangleCount)))
        attribute(path + ".faceVertexIndices", "int[]", .ints(mesh.indices.map { Int32(bitPattern: $0) }))
        let low = mesh.positions.reduce(SIMD3<Float>(repeating: .infinity)) { pointwiseMin($0, $1) }
        let high = mesh.positions.reduce(SIMD3<Float>(repeating: -.infinity)) { pointwiseMax($0, $1) }
        let extent: [Float] =
            mesh.positions.isEmpty ? [0, 0, 0, 0, 0, 0] : [low.x, low.y, low.z, high.x, high.y, high.z]
        attribute(path + ".extent", "float3[]", .floats(extent, width: 3))
        attribute(path + ".subdivisionScheme", "token", .token("none"), uniform: true)
        if !mesh.normals.isEmpty {
            attribute(
                path + ".normals", "normal3f[]", .floats(mesh.normals.flatMap { [$0.x, $0.y, $0.z] }, width: 3),
                interpolation: "vertex")
        }
        if !mesh.uvs.isEmpty {
            // USD's st origin is the image's bottom-left corner; glTF's uv origin its top-left.
            attribute(
                path + ".primvars:st", "texCoord2f[]", .floats(mesh.uvs.flatMap { [$0.x, 1 - $0.y] }, width: 2),
                interpolation: "vertex")
        }
        if material?.doubleSided == true { attribute(path + ".doubleSided", "bool", .bool(true), uniform: true) }
        if let index = mesh.material {
            crate.add(
                path + ".material:binding", .relationship,
                [("variability", .variability(1)), ("targetPaths", .pathListOp([Self.materialPath(index)]))])
        }
    }

    static func materialPath(_ index: Int) -> String { "/Root/Materials/Material_\(index)" }
}
