public import ARVisSupport

/// The 3D file formats ARVis reads and writes.
public enum ModelFormat: String, FileFormat, Hashable, Codable {
    /// Binary glTF 2.0 (read and written).
    case glb
    /// glTF 2.0 JSON with embedded or neighbouring buffers (read).
    case gltf
    /// A USDZ package (read and written).
    case usdz
    /// A binary USD layer (read).
    case usdc
    /// A USD text layer (read).
    case usda

    /// The format of a file, by its first bytes, else by its name's extension.
    public static func detect(_ bytes: [UInt8], fileName: String? = nil) -> ModelFormat? {
        if bytes.starts(with: Array("glTF".utf8)) { return .glb }
        if bytes.starts(with: CrateReader.magic) { return .usdc }
        if bytes.starts(with: Array("#usda".utf8)) { return .usda }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .usdz }
        if let fileName, !fileExtension(of: fileName).isEmpty { return ModelFormat(path: fileName) }
        return bytes.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{")
            ? .gltf : nil
    }

    /// The media type served for the format.
    public var mediaType: String { mediaTypes.first ?? "application/octet-stream" }

    /// The media types that name the format, the served one first (a USDZ also as
    /// `model/vnd.usd+zip`; a USD layer's is the same for both encodings).
    public var mediaTypes: [String] {
        switch self {
        case .glb: ["model/gltf-binary"]
        case .gltf: ["model/gltf+json"]
        case .usdz: ["model/vnd.usdz+zip", "model/vnd.usd+zip"]
        case .usdc, .usda: ["model/vnd.usd"]
        }
    }

    /// `.glb`, `.gltf`, `.usdz`, `.usdc` or `.usda`.
    public var fileExtensions: [String] { [rawValue] }
}

/// Reads and writes 3D files: the one entry point for GLB, glTF, USDZ, USDC and USDA.
///
/// ```swift
/// var warnings: [String] = []
/// let model = try ModelFile.read(bytes, fileName: "chair.glb", warnings: &warnings)
/// let usdz = try ModelFile.write(model, as: .usdz)
/// ```
public enum ModelFile {
    /// Reads a model, detecting the format from the bytes (or `fileName`'s extension). Meshes that
    /// draw no triangle are left out, with a warning.
    /// - Parameters:
    ///   - external: loads a file a `.gltf` or a loose USD layer names by relative path (buffers,
    ///     textures); `nil` refuses them.
    ///   - warnings: what was read only in part (skipped primitives, missing textures).
    /// - Throws: ``ModelError``: `unsupported` for unknown formats and features ARVis does not
    ///   read, `invalid` or `truncated` for damaged files, `tooLarge` past `limits`.
    public static func read(
        _ bytes: [UInt8], fileName: String? = nil, limits: Model.Limits = Model.Limits(),
        external: ((String) throws(ModelError) -> [UInt8])? = nil, warnings: inout [String]
    ) throws(ModelError) -> Model {
        let model = try readFormat(bytes, fileName: fileName, limits: limits, external: external, warnings: &warnings)
        let empty = model.meshes.count { $0.triangleCount == 0 }
        if empty > 0 { warnings.append("\(empty) of the meshes draw no triangle and are left out") }
        return model.droppingEmptyMeshes()
    }

    private static func readFormat(
        _ bytes: [UInt8], fileName: String?, limits: Model.Limits,
        external: ((String) throws(ModelError) -> [UInt8])?, warnings: inout [String]
    ) throws(ModelError) -> Model {
        guard let format = ModelFormat.detect(bytes, fileName: fileName) else {
            throw ModelError(
                .unsupported, "not a 3D file ARVis reads: give GLB, glTF, USDZ, USDC or USDA", location: fileName)
        }
        switch format {
        case .glb, .gltf:
            var reader = GLTFReader(external: external, limits: limits)
            let model = format == .glb ? try reader.readGLB(bytes) : try reader.readJSON(bytes)
            warnings += reader.warnings
            return model
        case .usdc, .usda:
            return try readUSD(
                layer: bytes, files: [:], folder: "", limits: limits, external: external, warnings: &warnings)
        case .usdz:
            let package = try USDZPackage(reading: bytes)
            let root = package.entries[0]
            guard
                root.name.lowercased().hasSuffix(".usdc") || root.name.lowercased().hasSuffix(".usda")
                    || root.name.lowercased().hasSuffix(".usd")
            else {
                throw ModelError(
                    .invalid, "the package's first file, \(root.name), is not a USD layer", location: root.name)
            }
            var files: [String: ArraySlice<UInt8>] = [:]
            for entry in package.entries.dropFirst() { files[entry.name] = entry.data }
            let folder = root.name.contains("/") ? String(root.name[..<root.name.lastIndex(of: "/")!]) : ""
            return try readUSD(
                layer: Array(root.data), files: files, folder: folder, limits: limits, external: nil,
                warnings: &warnings)
        }
    }

    /// Reads a model, ignoring warnings.
    public static func read(_ bytes: [UInt8], fileName: String? = nil) throws(ModelError) -> Model {
        var warnings: [String] = []
        return try read(bytes, fileName: fileName, warnings: &warnings)
    }

    private static func readUSD(
        layer bytes: [UInt8], files: [String: ArraySlice<UInt8>], folder: String, limits: Model.Limits,
        external: ((String) throws(ModelError) -> [UInt8])?, warnings: inout [String]
    ) throws(ModelError) -> Model {
        let layer: USDLayer
        if bytes.starts(with: CrateReader.magic) {
            layer = try CrateReader(bytes).layer()
        } else {
            var reader = try USDAReader(bytes)
            layer = try reader.read()
            warnings += reader.warnings
        }
        var stage = USDStageReader(layer: layer, files: files, folder: folder)
        stage.limits = limits
        stage.external = external
        let model = try stage.read()
        warnings += stage.warnings
        return model
    }

    /// Writes a model as GLB or USDZ.
    /// - Throws: ``ModelError`` `unsupported` for the formats ARVis only reads, or what the writer throws.
    public static func write(_ model: Model, as format: ModelFormat) throws(ModelError) -> [UInt8] {
        switch format {
        case .glb: try GLBWriter().write(model.normalized())
        case .usdz: try USDZWriter().write(model)
        default: throw ModelError(.unsupported, "ARVis writes GLB and USDZ, not \(format.rawValue)")
        }
    }
}
