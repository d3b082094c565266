import ARVisModel
import ARVisSpec
import ARVisSpecYAML
import ArgumentParser
import Foundation

/// `arvis fmt`: rewrites a spec canonically.
struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Rewrite a spec canonically: keys in the grammar's order, two-space indentation.",
        usage: "arvis fmt [<options>] [--write] <file>",
        discussion: """
            The document's value is unchanged and formatting twice changes nothing. JSON stays JSON and
            YAML stays YAML. A document with errors, with unknown keys that formatting would drop, with
            integers too large for 64 bits or with YAML comments is left alone and its problems are
            reported (exit 1). --write replaces the file atomically, keeping its permissions, and writes
            through a symbolic link to the file it names.

            Examples:
              arvis fmt Examples/museum-artwork-widget.json
              arvis fmt --write widget.yaml
            """
    )

    @OptionGroup var reading: ReadingOptions

    @Flag(
        help:
            "Write the result back to the file instead of printing it (atomically, keeping its permissions; through a symbolic link to the file it names)."
    )
    var write = false

    @OptionGroup var reporting: ReportingOptions

    @Argument(help: "The spec file.")
    var file: String

    func run() throws {
        let input = try SpecInput.open(file, maximumBytes: reading.maximumBytes)
        let document = try Rewriting.document(from: input, reading.readOptions)
        if input.syntax == .yaml {
            let comments = YAMLComments.lines(in: input.data, document: document)
            guard comments.isEmpty else {
                Console.error(
                    "error: \(file) has comments (\(Rewriting.lineList(comments))) that formatting would drop; the file is left alone"
                )
                throw CLIExit.specErrors.exitCode
            }
        }
        let text = try Rewriting.text(document, as: input.syntax)
        guard write else { return try Console.write(text) }
        guard file != "-" else {
            Console.error("error: --write needs a file, not standard input")
            throw CLIExit.usage.exitCode
        }
        try reporting.save(Data(text.utf8), to: file, what: "formatted")
    }
}

/// `arvis convert`: specs between JSON and YAML, 3D models between GLB and USDZ.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a spec between JSON and YAML, losslessly, or a 3D model to GLB or USDZ.",
        usage:
            "arvis convert [<options>] --to json|yaml <file>\n       arvis convert [<options>] --to glb|usdz <model> -o <file>",
        discussion: """
            Specs: reading the output gives a document equal to the input's. The result goes to
            standard output. YAML comments cannot be carried over (a warning names their lines).

            Models: GLB, glTF, USDZ, USDC or USDA in; GLB (for Android's Scene Viewer and the web) or
            USDZ (for AR Quick Look) out, with meshes, the node hierarchy, PBR materials and their
            textures. The USDZ passes Apple's ARKit checks; the file's units and up axis become
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

/// What `fmt` and `convert` share: reading a document that is safe to rewrite, and writing it.
enum Rewriting {
    /// The document, unless it has errors or unknown keys (which a rewrite would silently drop).
    /// The document, unless it has errors, unknown keys (which a rewrite would drop) or integers
    /// too large for 64 bits (which it would change).
    static func document(from input: SpecInput, _ options: ReadOptions) throws -> SpecDocument {
        let result = input.read(options: options)
        let lossy = result.diagnostics.filter { $0.code == .unknownKey || $0.code == .inexactNumber }
        for diagnostic in result.diagnostics where diagnostic.severity == .error || lossy.contains(diagnostic) {
            Console.error(diagnostic.description)
        }
        guard let document = result.document, lossy.isEmpty else {
            if !lossy.isEmpty {
                Console.error("error: rewriting would drop or change the values above; fix them first")
            }
            throw CLIExit.specErrors.exitCode
        }
        return document
    }

    /// "line 3", "lines 3, 7 and 9", "lines 3, 7, 9 … (12 in all)".
    static func lineList(_ lines: [Int]) -> String {
        guard let last = lines.last, lines.count > 1 else { return "line \(lines.first ?? 0)" }
        if lines.count > 5 {
            return "lines " + lines.prefix(5).map(String.init).joined(separator: ", ") + " … (\(lines.count) in all)"
        }
        return "lines " + lines.dropLast().map(String.init).joined(separator: ", ") + " and \(last)"
    }

    static func text(_ document: SpecDocument, as syntax: SpecSyntax) throws -> String {
        switch syntax {
        case .json: return SpecWriter.json(document)
        case .yaml:
            do {
                return try YAMLSpecWriter.yaml(document)
            } catch {
                Console.error("error: \(error.message)")
                throw CLIExit.specErrors.exitCode
            }
        }
    }
}
