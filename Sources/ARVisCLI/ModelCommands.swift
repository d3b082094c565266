import ARVisModel
import ARVisPipeline
import ARVisSupport
import ArgumentParser
import Foundation

/// Reading a 3D file for the model commands: bounded in size, a `.gltf`'s neighbouring buffers and
/// images read only from its own folder.
struct ModelInput: ParsableArguments {
    @Option(name: .customLong("max-input-mb"), help: "The largest model file read, in megabytes.")
    var maximumMegabytes = 512

    @Argument(help: "The model: .glb, .gltf, .usdz, .usdc or .usda.")
    var file: String

    func validate() throws {
        guard (1...4096).contains(maximumMegabytes) else {
            throw ValidationError("--max-input-mb must be between 1 and 4096")
        }
    }

    /// The model and the warnings of reading it (printed to standard error).
    func read() throws -> Model {
        let bytes: [UInt8]
        do { bytes = try BoundedRead.file(file, maximumBytes: maximumMegabytes * 1_000_000) } catch {
            let raise = error.code == .tooLarge ? " (raise the limit with --max-input-mb)" : ""
            Console.error("error: cannot read \(error)\(raise)")
            throw CLIExit.usage.exitCode
        }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL
        let limit = maximumMegabytes * 1_000_000
        var warnings: [String] = []
        let model = try CLIExit.reporting {
            try ModelFile.read(
                bytes, fileName: file,
                external: { (uri: String) throws(ModelError) -> [UInt8] in
                    let target = folder.appendingPathComponent(uri).standardizedFileURL
                    guard !uri.hasPrefix("/"), !uri.contains("://"), target.path.hasPrefix(folder.path + "/") else {
                        throw ModelError(
                            .notFound, "'\(uri)' is outside the glTF file's folder; only files beside it are read")
                    }
                    do { return try BoundedRead.file(target.path, maximumBytes: limit) } catch {
                        throw ModelError(.notFound, "cannot read \(error)", cause: error)
                    }
                }, warnings: &warnings)
        }
        for warning in warnings { Console.error("warning: \(file): \(warning)") }
        return model
    }
}

/// `arvis inspect`: what a 3D model holds and whether it fits AR Quick Look's budget.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a 3D model's triangles, vertices, bounds, materials and textures, with AR budget warnings.",
        discussion: """
            Reads GLB, glTF, USDZ, USDC and USDA. Bounds are in metres with +Y up (the file's units and
            up axis applied). A warning is printed for each AR Quick Look budget passed: more than
            100 000 triangles, or a texture larger than 2048 × 2048. Exit 0 when the model was read,
            1 when it is damaged, 2 when it cannot be read.

            Examples:
              arvis inspect chair.glb
              arvis inspect --format json scan.usdz
            """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "text (default) or json.")
    var format: OutputFormat = .text

    @OptionGroup var input: ModelInput

    func run() throws {
        let report = ModelInspection(try input.read())
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try Console.write(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        case .text:
            try Console.write(Self.text(report) + "\n")
        }
    }

    static func text(_ report: ModelInspection) -> String {
        func number(_ value: Double) -> String { String(format: "%.4g", value) }
        var lines = [
            "triangles  \(report.triangles)", "vertices   \(report.vertices)",
            "meshes     \(report.meshes) in \(report.nodes) nodes",
        ]
        if let bounds = report.bounds {
            lines.append(
                "bounds     \(bounds.size.map(number).joined(separator: " × ")) m, from (\(bounds.min.map(number).joined(separator: ", "))) to (\(bounds.max.map(number).joined(separator: ", ")))"
            )
        }
        lines.append("units      \(number(report.metersPerUnit)) m per unit, \(report.upAxis.rawValue) up")
        lines.append("materials  \(report.materials.count)")
        for (index, material) in report.materials.enumerated() {
            let maps = material.textures.sorted { $0.key < $1.key }.map { "\($0.key) → texture \($0.value)" }
            lines.append(
                "  \(index) \(material.name.isEmpty ? "(unnamed)" : material.name): metallic \(number(Double(material.metallic))), roughness \(number(Double(material.roughness))), \(material.alphaMode.rawValue.lowercased())"
                    + (maps.isEmpty ? "" : "; " + maps.joined(separator: ", ")))
        }
        lines.append("textures   \(report.textures.count)")
        for (index, texture) in report.textures.enumerated() {
            let size = texture.width.map { "\($0)×\(texture.height ?? 0)" } ?? "unreadable"
            lines.append(
                "  \(index) \(texture.name.isEmpty ? "(unnamed)" : texture.name): \(texture.format.rawValue) \(size), \(texture.bytes) bytes"
            )
        }
        lines += report.warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// `arvis thumbnail`: a picture of a 3D model, drawn without a GPU.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Draw a 3D model to a square PNG, framed on its bounding sphere.",
        discussion: """
            The camera looks at the model from the front, 30° to the right and 20° above, with a 30°
            field of view, far enough back that the whole bounding sphere fits. Surfaces are shaded
            with their base colour textures, metalness and roughness under a key and a fill light;
            edges are 4× supersampled. The background is transparent unless --background gives a
            colour.

            Examples:
              arvis thumbnail chair.glb -o chair.png
              arvis thumbnail scan.usdz --size 1024 --background '#ffffff' -o scan.png
            """)

    @Option(help: "Width and height in pixels (16 to 4096).")
    var size = 512

    @Option(help: "The background colour as #rrggbb, or 'transparent' (the default).")
    var background = "transparent"

    @OptionGroup var input: ModelInput

    @OptionGroup var reporting: ReportingOptions

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output: String

    func validate() throws {
        guard (16...ThumbnailRenderer.maximumSize).contains(size) else {
            throw ValidationError("--size must be between 16 and \(ThumbnailRenderer.maximumSize)")
        }
        _ = try parsedBackground()
    }

    private func parsedBackground() throws -> SIMD4<Float> {
        if background == "transparent" { return .zero }
        let hex = background.hasPrefix("#") ? String(background.dropFirst()) : background
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else {
            throw ValidationError("--background is #rrggbb or transparent; got \(background)")
        }
        return SIMD4(Float(value >> 16 & 0xFF) / 255, Float(value >> 8 & 0xFF) / 255, Float(value & 0xFF) / 255, 1)
    }

    func run() throws {
        let model = try input.read()
        let png = try CLIExit.reporting {
            try ThumbnailRenderer(size: size, background: try parsedBackground()).png(of: model)
        }
        try reporting.save(Data(png), to: output, what: "\(size)×\(size) thumbnail")
    }
}

/// Model conversion for `arvis convert --to glb|usdz`.
enum ModelConversion {
    static func run(input: ModelInput, to format: ModelFormat, output: String?, reporting: ReportingOptions) throws {
        let toStandardOutput = output == nil || output == "-"
        guard !toStandardOutput || isatty(STDOUT_FILENO) == 0 else {
            Console.error("error: \(format.rawValue.uppercased()) output needs -o FILE (or a redirect): it is binary")
            throw CLIExit.usage.exitCode
        }
        let model = try input.read()
        let bytes = try CLIExit.reporting { try ModelFile.write(model, as: format) }
        guard let output, !toStandardOutput else { return try Console.write(Data(bytes)) }
        try reporting.save(Data(bytes), to: output, what: "\(model.drawnTriangleCount) triangles, \(format.rawValue)")
    }
}
