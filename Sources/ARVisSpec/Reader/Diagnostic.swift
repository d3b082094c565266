/// One problem found in a spec: where it is, what is wrong, and how to fix it when that is known.
///
/// The reader reports every problem of a document in one pass. A document with any diagnostic of
/// severity ``Severity/error`` has no value; warnings leave the value usable.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// The document cannot be used as written.
        case error
        /// The document is usable, but something is likely a mistake or not portable.
        case warning

        /// Orders a warning before an error, so the more serious severity is the greater.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// How serious the problem is.
    public var severity: Severity
    /// What kind of problem this is, for tools that act on diagnostics.
    public var code: SpecError.Code
    /// Where the problem is in the source.
    public var location: SourceLocation
    /// The path of the offending value in the document, such as
    /// `imageTrackingConfigurations[0].relationships[1].widgetConfiguration.component`; empty for the root.
    public var path: String
    /// One line saying what is wrong.
    public var message: String
    /// How to fix it, when that is known (for example "did you mean 'vStack'?").
    public var hint: String?

    /// Creates a diagnostic.
    public init(
        severity: Severity, code: SpecError.Code, location: SourceLocation, path: String, message: String,
        hint: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.location = location
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// `FILE:LINE:COL: severity: PATH: MESSAGE (HINT)`, the form compilers use, so editors can jump to it.
    public var description: String {
        let place = path.isEmpty ? "" : "\(path): "
        let fix = hint.map { " (\($0))" } ?? ""
        return "\(location): \(severity.rawValue): \(place)\(message)\(fix)"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
