import ARVisSpec
import ArgumentParser
import Foundation

/// `arvis validate`: checks specs and prints every problem with its location.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check specs and report every problem with its file, line, column and path.",
        discussion: """
            Text output has one line per problem, FILE:LINE:COL: error|warning: PATH: MESSAGE, followed
            by a "hint:" line when a fix is known. JSON output is one array of
            {file, line, column, severity, code, path, message, hint}.

            Exit status: 0 when no file has errors, 1 when any file has errors, 2 for bad arguments or
            unreadable files.
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
        var unreadable = false
        for file in files {
            do {
                diagnostics += try SpecInput(path: file).read(options: reading.readOptions).diagnostics
            } catch {
                Console.error("error: \(error.message)")
                unreadable = true
            }
        }
        switch format {
        case .text: printText(diagnostics)
        case .json: Console.write(DiagnosticJSON.encode(diagnostics) + "\n")
        }
        if unreadable { throw CLIExit.usage.exitCode }
        if diagnostics.containsErrors { throw CLIExit.specErrors.exitCode }
    }

    private func printText(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            let place = diagnostic.path.isEmpty ? "" : "\(diagnostic.path): "
            Console.write("\(diagnostic.location): \(diagnostic.severity.rawValue): \(place)\(diagnostic.message)\n")
            if let hint = diagnostic.hint { Console.write("    hint: \(hint)\n") }
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        let summary = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")"
        Console.error(summary)
    }
}

/// The JSON form of diagnostics printed by `validate --format json`.
enum DiagnosticJSON {
    private struct Entry: Encodable {
        let file: String?, line: Int, column: Int, severity: String, code: String, path: String, message: String, hint: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(severity, forKey: .severity)
            try container.encode(code, forKey: .code)
            try container.encode(path, forKey: .path)
            try container.encode(message, forKey: .message)
            try container.encode(hint, forKey: .hint)
        }

        enum CodingKeys: String, CodingKey { case file, line, column, severity, code, path, message, hint }
    }

    static func encode(_ diagnostics: [Diagnostic]) -> String {
        let entries = diagnostics.map {
            Entry(file: $0.location.file, line: $0.location.line, column: $0.location.column, severity: $0.severity.rawValue,
                  code: $0.code.description, path: $0.path, message: $0.message, hint: $0.hint)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(entries)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
