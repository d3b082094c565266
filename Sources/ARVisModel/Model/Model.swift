public import ARVisSpatial

/// A 3D asset held in memory: a node hierarchy with triangle meshes, PBR metallic-roughness
/// materials and their texture images — what GLB and USDZ both describe, read from either and
/// written to either.
///
/// Geometry follows glTF's conventions: right-handed, counter-clockwise front faces, texture
/// coordinates with `v` pointing down from the image's top-left corner. ``upAxis`` and
/// ``metersPerUnit`` say how the file's own units and up direction relate to metres and +Y;
/// ``normalized()`` bakes them into the roots.
///
/// ```swift
/// let model = try ModelFile.read(bytes, format: .glb)
/// let usdz = try USDZWriter().write(model)
/// ```
public struct Model: Sendable, Hashable {
    /// Every node; ``roots`` and each node's `children` index into it.
    public var nodes: [Node]
    /// The nodes at the top of the hierarchy.
    public var roots: [Int]
    /// Triangle meshes; nodes refer to them by index.
    public var meshes: [Mesh]
    /// Materials; meshes refer to them by index.
    public var materials: [Material]
    /// Texture images; materials refer to them by index.
    public var textures: [Texture]
    /// The length of one unit in metres (1 for glTF; USD files often use 0.01).
    public var metersPerUnit: Double
    /// Which axis points up in the file's own frame.
    public var upAxis: UpAxis

    /// Creates a model.
    public init(
        nodes: [Node] = [], roots: [Int] = [], meshes: [Mesh] = [], materials: [Material] = [],
        textures: [Texture] = [],
        metersPerUnit: Double = 1, upAxis: UpAxis = .y
    ) {
        self.nodes = nodes
        self.roots = roots
        self.meshes = meshes
        self.materials = materials
        self.textures = textures
        self.metersPerUnit = metersPerUnit
        self.upAxis = upAxis
    }

    /// The axis a file calls up.
    public enum UpAxis: String, Sendable, Hashable, Codable {
        /// +Y up (glTF, ARKit).
        case y = "Y"
        /// +Z up (many CAD and scanning tools).
        case z = "Z"
    }

    /// The same model in metres with +Y up: the unit scale and the Z-to-Y rotation become the
    /// transform of one new root node above the old roots, so every point keeps its meaning.
    public func normalized() -> Model {
        guard metersPerUnit != 1 || upAxis != .y else { return self }
        let s = metersPerUnit
        // Z up → Y up: (x, y, z) ↦ (x, z, −y), a −90° turn about +X.
        let columns: [SIMD4<Double>] =
            upAxis == .z
            ? [SIMD4(s, 0, 0, 0), SIMD4(0, 0, -s, 0), SIMD4(0, s, 0, 0), SIMD4(0, 0, 0, 1)]
            : [SIMD4(s, 0, 0, 0), SIMD4(0, s, 0, 0), SIMD4(0, 0, s, 0), SIMD4(0, 0, 0, 1)]
        var model = self
        model.nodes.append(Node(name: "units", transform: Matrix4(columns: columns), children: roots))
        model.roots = [model.nodes.count - 1]
        model.metersPerUnit = 1
        model.upAxis = .y
        return model
    }
}

/// One node of a ``Model``: a local transform, the meshes drawn at it and its children.
public struct Node: Sendable, Hashable {
    /// The node's name (may be empty).
    public var name: String
    /// The transform from this node's frame to its parent's.
    public var transform: Matrix4
    /// Indices of the child nodes.
    public var children: [Int]
    /// Indices of the meshes drawn in this node's frame.
    public var meshes: [Int]

    /// Creates a node.
    public init(name: String = "", transform: Matrix4 = .identity, children: [Int] = [], meshes: [Int] = []) {
        self.name = name
        self.transform = transform
        self.children = children
        self.meshes = meshes
    }
}

/// A triangle mesh with one material: positions, optional normals and texture coordinates per
/// vertex, and three vertex indices per triangle (counter-clockwise seen from the front).
public struct Mesh: Sendable, Hashable {
    /// The mesh's name (may be empty).
    public var name: String
    /// Vertex positions.
    public var positions: [SIMD3<Float>]
    /// Unit normals, one per vertex, or empty.
    public var normals: [SIMD3<Float>]
    /// Texture coordinates, one per vertex (`v` down from the image's top), or empty.
    public var uvs: [SIMD2<Float>]
    /// Three indices into the vertices per triangle.
    public var indices: [UInt32]
    /// The material's index, or `nil` for the default grey.
    public var material: Int?

    /// Creates a mesh.
    public init(
        name: String = "", positions: [SIMD3<Float>], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [],
        indices: [UInt32], material: Int? = nil
    ) {
        self.name = name
        self.positions = positions
        self.normals = normals
        self.uvs = uvs
        self.indices = indices
        self.material = material
    }

    /// The number of triangles.
    public var triangleCount: Int { indices.count / 3 }
}

/// A physically based material (glTF's metallic-roughness model, which UsdPreviewSurface shares).
public struct Material: Sendable, Hashable {
    /// How a material's alpha is used.
    public enum AlphaMode: String, Sendable, Hashable, Codable {
        /// Alpha is ignored: fully opaque.
        case opaque = "OPAQUE"
        /// Pixels with alpha below ``Material/alphaCutoff`` are not drawn.
        case mask = "MASK"
        /// Alpha blends the surface over what is behind it.
        case blend = "BLEND"
    }

    /// The material's name (may be empty).
    public var name: String
    /// Linear RGBA multiplied with the base-colour texture.
    public var baseColorFactor: SIMD4<Float>
    /// The base-colour texture (sRGB, alpha in A).
    public var baseColorTexture: Int?
    /// Metalness, 0…1, multiplied with the texture's blue channel.
    public var metallicFactor: Float
    /// Roughness, 0…1, multiplied with the texture's green channel.
    public var roughnessFactor: Float
    /// A texture with roughness in G and metalness in B.
    public var metallicRoughnessTexture: Int?
    /// A tangent-space normal map.
    public var normalTexture: Int?
    /// An ambient-occlusion texture (R).
    public var occlusionTexture: Int?
    /// Linear RGB emitted light, multiplied with the emissive texture.
    public var emissiveFactor: SIMD3<Float>
    /// The emissive texture (sRGB).
    public var emissiveTexture: Int?
    /// How alpha is used.
    public var alphaMode: AlphaMode
    /// The alpha below which a masked pixel is dropped.
    public var alphaCutoff: Float
    /// Whether back faces are drawn too.
    public var doubleSided: Bool
    /// A thin film on the surface whose colour comes from interference (glTF's
    /// `KHR_materials_iridescence`), or `nil`.
    public var iridescence: Iridescence?
    /// A texture whose green channel picks the film's thickness within the iridescence's range (0 the
    /// thinnest, 1 the thickest); without it the film is the range's thickest everywhere.
    public var iridescenceThicknessTexture: Int?

    /// Creates a material; by default an opaque, fully rough, non-metallic white.
    public init(
        name: String = "", baseColorFactor: SIMD4<Float> = SIMD4(1, 1, 1, 1), baseColorTexture: Int? = nil,
        metallicFactor: Float = 1, roughnessFactor: Float = 1, metallicRoughnessTexture: Int? = nil,
        normalTexture: Int? = nil, occlusionTexture: Int? = nil, emissiveFactor: SIMD3<Float> = .zero,
        emissiveTexture: Int? = nil, alphaMode: AlphaMode = .opaque, alphaCutoff: Float = 0.5,
        doubleSided: Bool = false,
        iridescence: Iridescence? = nil, iridescenceThicknessTexture: Int? = nil
    ) {
        self.name = name
        self.baseColorFactor = baseColorFactor
        self.baseColorTexture = baseColorTexture
        self.metallicFactor = metallicFactor
        self.roughnessFactor = roughnessFactor
        self.metallicRoughnessTexture = metallicRoughnessTexture
        self.normalTexture = normalTexture
        self.occlusionTexture = occlusionTexture
        self.emissiveFactor = emissiveFactor
        self.emissiveTexture = emissiveTexture
        self.alphaMode = alphaMode
        self.alphaCutoff = alphaCutoff
        self.doubleSided = doubleSided
        self.iridescence = iridescence
        self.iridescenceThicknessTexture = iridescenceThicknessTexture
    }

    /// Where a material names a texture.
    public static var textureKeyPaths: [WritableKeyPath<Material, Int?>] {
        [
            \.baseColorTexture, \.metallicRoughnessTexture, \.normalTexture, \.occlusionTexture, \.emissiveTexture,
            \.iridescenceThicknessTexture,
        ]
    }

    /// The indices of every texture the material uses.
    public var textureIndices: [Int] { Self.textureKeyPaths.compactMap { self[keyPath: $0] } }

    /// A thin film on a surface (a soap film, oil on water), coloured by the interference of the
    /// light its two faces reflect: glTF's `KHR_materials_iridescence`, whose names these are.
    public struct Iridescence: Sendable, Hashable {
        /// How much of the surface the film covers, 0…1.
        public var factor: Float
        /// The film's refractive index (1.33 for soapy water).
        public var index: Float
        /// The film's thinnest and thickest (nm), which the thickness texture's 0 and 1 stand for.
        public var thicknessRange: ClosedRange<Float>

        /// Creates a film; the defaults are the glTF extension's.
        public init(factor: Float = 1, index: Float = 1.3, thicknessRange: ClosedRange<Float> = 100...400) {
            (self.factor, self.index, self.thicknessRange) = (factor, index, thicknessRange)
        }
    }
}

/// An encoded texture image, kept as the file had it.
public struct Texture: Sendable, Hashable {
    /// The image's formats.
    public enum Format: String, Sendable, Hashable, Codable {
        /// PNG.
        case png
        /// JPEG.
        case jpeg

        /// The file-name extension (`png`, `jpg`).
        public var fileExtension: String { self == .png ? "png" : "jpg" }
        /// The MIME type.
        public var mimeType: String { self == .png ? "image/png" : "image/jpeg" }
    }

    /// One channel of another texture of the model.
    public struct Channel: Sendable, Hashable {
        /// The texture's index in the model.
        public var texture: Int
        /// The channel: 0 red, 1 green, 2 blue, 3 alpha.
        public var channel: Int

        /// Creates a channel reference.
        public init(texture: Int, channel: Int) {
            self.texture = texture
            self.channel = channel
        }
    }

    /// A texture still to be made from channels of others: roughness into green and metalness into
    /// blue (glTF's layout), from the separate single-channel maps Apple's USDZ files keep. Only
    /// writers that need the pixels make it (``Model/composingTextures()``); reading and inspecting
    /// a model never decode a picture for it.
    public struct Composition: Sendable, Hashable {
        /// Where roughness comes from, if from a texture.
        public var roughness: Channel?
        /// Where metalness comes from, if from a texture.
        public var metallic: Channel?

        /// Creates a composition.
        public init(roughness: Channel?, metallic: Channel?) {
            self.roughness = roughness
            self.metallic = metallic
        }
    }

    /// The image's name (may be empty).
    public var name: String
    /// The encoded bytes; empty for a composition not yet made.
    public var data: [UInt8]
    /// The encoding.
    public var format: Format
    /// How the texture is made from others, until it is.
    public var composition: Composition?

    /// Creates a texture.
    public init(name: String = "", data: [UInt8], format: Format, composition: Composition? = nil) {
        self.name = name
        self.data = data
        self.format = format
        self.composition = composition
    }

    /// The texture with the textures it is composed from renumbered by `offset`.
    func offsettingSources(by offset: Int) -> Texture {
        var texture = self
        texture.composition?.roughness?.texture += offset
        texture.composition?.metallic?.texture += offset
        return texture
    }

    /// The format of encoded image bytes, by their signature; `nil` when neither PNG nor JPEG.
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}
