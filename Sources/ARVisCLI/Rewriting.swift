import ARVisModel
import ARVisSpec
import ARVisSpecYAML
import ArgumentParser
import Foundation

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
                throw CommandFailure.input("\(error.message)")
            }
        }
    }
}
