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
            throw CommandFailure.usage("cannot read \(error)\(raise)")
        }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL
        let limit = maximumMegabytes * 1_000_000
        var warnings: [String] = []
        let model = try ModelFile.read(
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
        for warning in warnings { Console.error("warning: \(file): \(warning)") }
        return model
    }
}

/// Model conversion for `arvis convert --to glb|usdz`.
enum ModelConversion {
    static func run(input: ModelInput, to format: ModelFormat, output: String?, reporting: ReportingOptions) throws {
        let toStandardOutput = output == nil || output == "-"
        guard !toStandardOutput || isatty(STDOUT_FILENO) == 0 else {
            throw CommandFailure.usage(
                "\(format.rawValue.uppercased()) output needs -o FILE (or a redirect): it is binary")
        }
        var warnings: [String] = []
        let model = try input.read().composingTextures(warnings: &warnings)
        for warning in warnings { Console.error("warning: \(input.file): \(warning)") }
        let bytes = try ModelFile.write(model, as: format)
        guard let output, !toStandardOutput else { return try Console.write(Data(bytes)) }
        try reporting.save(Data(bytes), to: output, what: "\(model.drawnTriangleCount) triangles, \(format.rawValue)")
    }
}
