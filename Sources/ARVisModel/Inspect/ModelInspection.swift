import ARVisGraphics
import ARVisSpatial
import Foundation

/// What a model holds and whether it fits AR Quick Look's budget: counts, bounds in metres,
/// materials, textures with their pixel sizes, and a warning for each budget passed.
///
/// ```swift
/// let report = ModelInspection(model)
/// print(report.triangles, report.warnings)
/// ```
public struct ModelInspection: Sendable, Hashable, Codable {
    /// AR Quick Look's budget for one model.
    public enum Budget {
        /// The most triangles a model should draw.
        public static let triangles = 100_000
        /// The largest texture side, in pixels.
        public static let textureSide = 2048
    }

    /// A texture's summary.
    public struct TextureSummary: Sendable, Hashable, Codable {
        /// The texture's name.
        public var name: String
        /// PNG or JPEG.
        public var format: Texture.Format
        /// The encoded size in bytes.
        public var bytes: Int
        /// Pixel width and height, when the header could be read.
        public var width: Int?, height: Int?
    }

    /// A material's summary.
    public struct MaterialSummary: Sendable, Hashable, Codable {
        /// The material's name.
        public var name: String
        /// The base colour factor, linear RGBA.
        public var baseColor: [Float]
        /// Metalness and roughness factors.
        public var metallic: Float, roughness: Float
        /// The texture indices it uses, by role.
        public var textures: [String: Int]
        /// OPAQUE, MASK or BLEND.
        public var alphaMode: Material.AlphaMode
    }

    /// The axis-aligned box around everything drawn, in metres, +Y up.
    public struct Bounds: Sendable, Hashable, Codable {
        /// The lowest corner.
        public var min: [Double]
        /// The highest corner.
        public var max: [Double]
        /// Width, height and depth.
        public var size: [Double]
    }

    /// Triangles drawn (a mesh drawn twice counts twice).
    public var triangles: Int
    /// Vertices drawn.
    public var vertices: Int
    /// Meshes, nodes.
    public var meshes: Int, nodes: Int
    /// The bounds in metres with +Y up, or `nil` when nothing is drawn.
    public var bounds: Bounds?
    /// The file's unit and up axis.
    public var metersPerUnit: Double, upAxis: Model.UpAxis
    /// The materials.
    public var materials: [MaterialSummary]
    /// The textures.
    public var textures: [TextureSummary]
    /// Budget warnings, one line each.
    public var warnings: [String]

    /// Inspects a model.
    public init(_ model: Model) {
        let normalized = model.normalized()
        triangles = normalized.drawnTriangleCount
        vertices = normalized.drawnVertexCount
        meshes = model.meshes.count
        nodes = model.nodes.count
        metersPerUnit = model.metersPerUnit
        upAxis = model.upAxis
        bounds = normalized.bounds.map { box in
            Bounds(
                min: [box.minimum.x, box.minimum.y, box.minimum.z], max: [box.maximum.x, box.maximum.y, box.maximum.z],
                size: [box.extent.x, box.extent.y, box.extent.z])
        }
        materials = model.materials.map { material in
            var textures: [String: Int] = [:]
            textures["baseColor"] = material.baseColorTexture
            textures["metallicRoughness"] = material.metallicRoughnessTexture
            textures["normal"] = material.normalTexture
            textures["occlusion"] = material.occlusionTexture
            textures["emissive"] = material.emissiveTexture
            let c = material.baseColorFactor
            return MaterialSummary(
                name: material.name, baseColor: [c.x, c.y, c.z, c.w], metallic: material.metallicFactor,
                roughness: material.roughnessFactor, textures: textures, alphaMode: material.alphaMode)
        }
        textures = model.textures.indices.map { index in
            let texture = model.textures[index]
            let size = model.textureSize(index)
            return TextureSummary(
                name: texture.name, format: texture.format, bytes: texture.data.count, width: size?.width,
                height: size?.height)
        }
        var warnings: [String] = []
        if triangles > Budget.triangles {
            warnings.append(
                "\(triangles) triangles, more than AR Quick Look's budget of \(Budget.triangles): decimate the model")
        }
        for (index, texture) in textures.enumerated()
        where max(texture.width ?? 0, texture.height ?? 0) > Budget.textureSide {
            warnings.append(
                "texture \(index) (\(texture.name.isEmpty ? "unnamed" : texture.name)) is \(texture.width ?? 0)×\(texture.height ?? 0), larger than AR Quick Look's \(Budget.textureSide)×\(Budget.textureSide)"
            )
        }
        if let bounds, bounds.size.contains(where: { $0 > 100 }) || bounds.size.allSatisfy({ $0 < 0.005 }) {
            warnings.append(
                "the model is \(bounds.size.map { String(format: "%.3g", $0) }.joined(separator: " × ")) m: check its units"
            )
        }
        if triangles == 0 { warnings.append("the model draws nothing") }
        self.warnings = warnings
    }
}
