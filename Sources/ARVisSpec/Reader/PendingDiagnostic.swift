/// A diagnostic whose location is still a byte offset; resolved to line and column only when reported.
package struct PendingDiagnostic: Sendable, Hashable {
    package var severity: Diagnostic.Severity
    package var code: SpecError.Code
    package var offset: Int
    package var path: String
    package var message: String
    package var hint: String?

    package init(
        _ severity: Diagnostic.Severity, _ code: SpecError.Code, offset: Int, path: String, message: String,
        hint: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.offset = offset
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// Values nested deeper than the reader's limit (JSON and YAML report it alike).
    package static func depthLimit(at offset: Int, path: String = "", maximumDepth: Int) -> PendingDiagnostic {
        PendingDiagnostic(
            .error, .depthLimit, offset: offset, path: path,
            message: "values are nested more than \(maximumDepth) levels deep",
            hint: maximumDepth < ReadOptions.largestMaximumDepth
                ? "flatten the document, or raise the limit (up to \(ReadOptions.largestMaximumDepth), --max-depth) if this nesting is intended"
                : "flatten the document")
    }

    /// The public diagnostics, located in `text` in one pass.
    package static func resolve(_ pending: [PendingDiagnostic], in text: SourceText, file: String?) -> [Diagnostic] {
        let locations = text.lineAndColumn(ofEach: pending.map(\.offset))
        return zip(pending, locations).map { $0.resolved(line: $1.line, column: $1.column, file: file) }
    }

    private func resolved(line: Int, column: Int, file: String?) -> Diagnostic {
        Diagnostic(
            severity: severity, code: code, location: SourceLocation(file: file, line: line, column: column),
            path: path, message: message, hint: hint)
    }
}
