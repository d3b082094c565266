import ARVisModel
import ARVisSpec
import ARVisSpecYAML
import ArgumentParser
import Foundation

/// `arvis convert`: specs between JSON and YAML, 3D models between GLB and USDZ.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a spec between JSON and YAML, losslessly, or a 3D model to GLB or USDZ.",
        usage:
            "arvis convert [<options>] --to json|yaml <file>\n       arvis convert [<options>] --to glb|usdz <model> -o <file>",
        discussion: """
            Specs: reading the output gives a document equal to the input's. The result goes to \
            standard output. YAML comments cannot be carried over (a warning names their lines).

            Models: GLB, glTF, USDZ, USDC or USDA in; GLB (for Android's Scene Viewer and the web) or \
            USDZ (for AR Quick Look) out, with meshes, the node hierarchy, PBR materials and their \
            textures. The USDZ passes Apple's ARKit checks; the file's units and up axis become \
            metres and +Y.

            Examples:
              arvis convert --to yaml Examples/laptop-benchmark-bar-chart.json > chart.yaml
              arvis convert --to json Examples/museum-label.yaml
              arvis convert --to usdz chair.glb -o chair.usdz
              arvis convert --to glb scan.usdz -o scan.glb
            """
    )

    @OptionGroup var reading: ReadingOptions

    @Option(help: "The output: json or yaml for specs, glb or usdz for models.")
    var to: Syntax

    @Option(name: .shortAndLong, help: "The model file to write (models only).")
    var output: String?

    @Option(name: .customLong("max-model-mb"), help: "The largest model file read, in megabytes.")
    var maximumModelMegabytes = 512

    @OptionGroup var reporting: ReportingOptions

    @Argument(help: "The spec file (JSON or YAML), or the model.")
    var file: String

    /// An output syntax.
    enum Syntax: String, ExpressibleByArgument, CaseIterable {
        case json, yaml, glb, usdz
    }

    func run() throws {
        if to == .glb || to == .usdz {
            var input = try ModelInput.parse([file])
            input.maximumMegabytes = maximumModelMegabytes
            return try ModelConversion.run(
                input: input, to: to == .glb ? .glb : .usdz, output: output, reporting: reporting)
        }
        let input = try SpecInput.open(file, maximumBytes: reading.maximumBytes)
        let document = try Rewriting.document(from: input, reading.readOptions)
        if input.syntax == .yaml, case let comments = YAMLComments.lines(in: input.data, document: document),
            !comments.isEmpty
        {
            Console.error("warning: the comments of \(file) (\(Rewriting.lineList(comments))) are not carried over")
        }
        try Console.write(try Rewriting.text(document, as: to == .json ? .json : .yaml))
    }
}
