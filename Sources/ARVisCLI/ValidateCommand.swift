import ARVisSpec
import ArgumentParser
import Foundation

/// `arvis validate`: checks specs and prints every problem with its location.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check specs and report every problem with its file, line, column and path.",
        usage: "arvis validate [<options>] <files> ...",
        discussion: """
            Text output has one line per problem, FILE:LINE:COL: error|warning: PATH: MESSAGE, followed \
            by a "hint:" line when a fix is known. JSON output is one array of \
            {file, line, column, severity, code, path, message, hint}.

            Exit status: 0 when no file has errors, 1 when any file has errors, 2 for bad arguments or \
            unreadable files.

            Examples:
              arvis validate Examples/two-targets-environment.json
              arvis validate --strict --format json specs/*.json
              cat widget.yaml | arvis validate -
            """
    )

    /// How problems are printed.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var reading: ReadingOptions

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Argument(help: "Spec files (JSON or YAML; - reads standard input).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one spec file") }
    }

    func run() throws {
        var diagnostics: [Diagnostic] = []
        var unreadable = 0
        for file in files {
            do {
                diagnostics += try SpecInput(path: file, maximumBytes: reading.maximumBytes).read(
                    options: reading.readOptions
                ).diagnostics.sortedByPosition
            } catch {
                Console.error("error: \(error.message)")
                unreadable += 1
            }
        }
        switch format {
        case .text: try printText(diagnostics, unreadable: unreadable)
        case .json: try Console.write(Diagnostic.json(diagnostics) + "\n")
        }
        if unreadable > 0 { throw CLIExit.usage.exitCode }
        if diagnostics.containsErrors { throw CLIExit.specErrors.exitCode }
    }

    private func printText(_ diagnostics: [Diagnostic], unreadable: Int) throws {
        for diagnostic in diagnostics {
            let place = diagnostic.path.isEmpty ? "" : "\(diagnostic.path): "
            try Console.write(
                "\(diagnostic.location): \(diagnostic.severity.rawValue): \(place)\(diagnostic.message)\n")
            if let hint = diagnostic.hint { try Console.write("    hint: \(hint)\n") }
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        var summary =
            "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")"
        if unreadable > 0 { summary += " (\(unreadable) could not be read)" }
        Console.error(summary)
    }
}
