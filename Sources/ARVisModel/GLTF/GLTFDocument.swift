import ARVisSupport

/// The JSON of a glTF 2.0 file, as much of it as ARVis reads and writes (the names are the
/// specification's). One set of `Codable` types serves the reader and the writer.
struct GLTFDocument: Codable {
    struct Asset: Codable {
        var version: String
        var generator: String?
        var minVersion: String?
    }

    struct Scene: Codable {
        var name: String?
        var nodes: [Int]?
    }

    struct Node: Codable {
        var name: String?
        var children: [Int]?
        var mesh: Int?
        var matrix: [Double]?
        var translation: [Double]?
        var rotation: [Double]?
        var scale: [Double]?
        var extras: JSONValue?
    }

    struct Primitive: Codable {
        var attributes: [String: Int]
        var indices: Int?
        var material: Int?
        var mode: Int?
        var extensions: PrimitiveExtensions?
    }

    /// The primitive extensions ARVis reads.
    struct PrimitiveExtensions: Codable {
        var draco: DracoCompression?

        enum CodingKeys: String, CodingKey {
            case draco = "KHR_draco_mesh_compression"
        }
    }

    /// `KHR_draco_mesh_compression` on a primitive: the buffer view holding its Draco stream, and the
    /// stream's unique id of each attribute the primitive names.
    struct DracoCompression: Codable {
        var bufferView: Int
        var attributes: [String: Int]
    }

    struct Mesh: Codable {
        var name: String?
        var primitives: [Primitive]
    }

    struct Sparse: Codable {
        struct Indices: Codable {
            var bufferView: Int
            var byteOffset: Int?
            var componentType: Int
        }
        struct Values: Codable {
            var bufferView: Int
            var byteOffset: Int?
        }
        var count: Int
        var indices: Indices
        var values: Values
    }

    struct Accessor: Codable {
        var bufferView: Int?
        var byteOffset: Int?
        var componentType: Int
        var normalized: Bool?
        var count: Int
        var type: String
        var min: [Double]?
        var max: [Double]?
        var sparse: Sparse?
    }

    struct BufferView: Codable {
        var buffer: Int
        var byteOffset: Int?
        var byteLength: Int
        var byteStride: Int?
        var target: Int?
        var extensions: BufferViewExtensions?
    }

    /// The buffer view extensions ARVis reads.
    struct BufferViewExtensions: Codable {
        var meshopt: MeshoptView?

        enum CodingKeys: String, CodingKey {
            case meshopt = "EXT_meshopt_compression"
        }
    }

    /// `EXT_meshopt_compression` on a buffer view: where its compressed bytes are and how to decode them.
    struct MeshoptView: Codable {
        var buffer: Int
        var byteOffset: Int?
        var byteLength: Int
        var byteStride: Int
        var count: Int
        var mode: String
        var filter: String?
    }

    struct Buffer: Codable {
        var byteLength: Int
        var uri: String?
    }

    struct TextureInfo: Codable {
        var index: Int
        var texCoord: Int?
        var scale: Double?
        var strength: Double?
    }

    struct PBR: Codable {
        var baseColorFactor: [Double]?
        var baseColorTexture: TextureInfo?
        var metallicFactor: Double?
        var roughnessFactor: Double?
        var metallicRoughnessTexture: TextureInfo?
    }

    struct Material: Codable {
        var name: String?
        var pbrMetallicRoughness: PBR?
        var normalTexture: TextureInfo?
        var occlusionTexture: TextureInfo?
        var emissiveTexture: TextureInfo?
        var emissiveFactor: [Double]?
        var alphaMode: String?
        var alphaCutoff: Double?
        var doubleSided: Bool?
        var extensions: MaterialExtensions?
    }

    /// The material extensions ARVis reads and writes.
    struct MaterialExtensions: Codable {
        var iridescence: Iridescence?

        enum CodingKeys: String, CodingKey {
            case iridescence = "KHR_materials_iridescence"
        }
    }

    /// `KHR_materials_iridescence`.
    struct Iridescence: Codable {
        var iridescenceFactor: Double?
        var iridescenceIor: Double?
        var iridescenceThicknessMinimum: Double?
        var iridescenceThicknessMaximum: Double?
        var iridescenceThicknessTexture: TextureInfo?
    }

    struct Texture: Codable {
        var sampler: Int?
        var source: Int?
        var name: String?
    }

    struct Image: Codable {
        var uri: String?
        var bufferView: Int?
        var mimeType: String?
        var name: String?
    }

    struct Sampler: Codable {
        var magFilter: Int?
        var minFilter: Int?
        var wrapS: Int?
        var wrapT: Int?
    }

    var asset: Asset
    var scene: Int?
    var scenes: [Scene]?
    var nodes: [Node]?
    var meshes: [Mesh]?
    var accessors: [Accessor]?
    var bufferViews: [BufferView]?
    var buffers: [Buffer]?
    var materials: [Material]?
    var textures: [Texture]?
    var images: [Image]?
    var samplers: [Sampler]?
    var extensionsUsed: [String]?
    var extensionsRequired: [String]?
}
