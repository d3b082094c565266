import Foundation

/// A diagnostic as JSON: `{file, line, column, severity, code, path, message, hint}`, absent values as `null`.
extension Diagnostic: Codable {
    private enum CodingKeys: String, CodingKey {
        case file, line, column, severity, code, path, message, hint
    }

    /// Encodes the diagnostic as one flat object, writing `null` for a missing file or hint.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location.file, forKey: .file)
        try container.encode(location.line, forKey: .line)
        try container.encode(location.column, forKey: .column)
        try container.encode(severity, forKey: .severity)
        try container.encode(code, forKey: .code)
        try container.encode(path, forKey: .path)
        try container.encode(message, forKey: .message)
        try container.encode(hint, forKey: .hint)
    }

    /// Decodes the flat object `encode(to:)` writes; `file` and `hint` may be absent or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let location = SourceLocation(
            file: try container.decodeIfPresent(String.self, forKey: .file),
            line: try container.decode(Int.self, forKey: .line), column: try container.decode(Int.self, forKey: .column)
        )
        self.init(
            severity: try container.decode(Severity.self, forKey: .severity),
            code: try container.decode(SpecError.Code.self, forKey: .code),
            location: location, path: try container.decode(String.self, forKey: .path),
            message: try container.decode(String.self, forKey: .message),
            hint: try container.decodeIfPresent(String.self, forKey: .hint))
    }

    /// Diagnostics as pretty-printed JSON with sorted keys, the form `arvis validate --format json` prints.
    public static func json(_ diagnostics: [Diagnostic]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and nulls cannot fail.
        return (try? encoder.encode(diagnostics)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}

extension Array where Element == Diagnostic {
    /// The diagnostics in source order (file, line, column), keeping the reader's order for ties.
    public var sortedByPosition: [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.location, rhs.element.location)
            if (a.file ?? "") != (b.file ?? "") { return lhs.offset < rhs.offset }
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
