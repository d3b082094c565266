import ARVisModel
import ARVisSpec
import ARVisSpecYAML
import ArgumentParser
import Foundation

/// `arvis fmt`: rewrites a spec canonically.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Rewrite a spec canonically: keys in the grammar's order, two-space indentation.",
        usage: "arvis fmt [<options>] [--write] <file>",
        discussion: """
            The document's value is unchanged and formatting twice changes nothing. JSON stays JSON and \
            YAML stays YAML. A document with errors, with unknown keys that formatting would drop, with \
            integers too large for 64 bits or with YAML comments is left alone and its problems are \
            reported (exit 1). --write replaces the file atomically, keeping its permissions, and writes \
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
                throw CommandFailure.input(
                    "\(file) has comments (\(Rewriting.lineList(comments))) that formatting would drop; the file is left alone"
                )
            }
        }
        let text = try Rewriting.text(document, as: input.syntax)
        guard write else { return try Console.write(text) }
        guard file != "-" else {
            throw CommandFailure.usage("--write needs a file, not standard input")
        }
        try reporting.save(Data(text.utf8), to: file, what: "formatted")
    }
}
