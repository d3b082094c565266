#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The result of reading a spec: the document, unless it has errors, and every diagnostic.
public struct ReadResult: Sendable {
    /// The document; `nil` when any diagnostic is an error.
    public var document: SpecDocument?
    /// Every problem found, in document order within each pass.
    public var diagnostics: [Diagnostic]
    /// Every link the document makes (Markdown links, tap and click actions), in reading order.
    public var links: [SpecLink] = []
}

/// A link a spec makes — a Markdown link, or what a tap or click opens — and where it is.
public struct SpecLink: Sendable, Hashable {
    /// The string that holds it.
    public var location: SourceLocation
    /// The path of that string in the document.
    public var path: String
    /// The link as written.
    public var url: String

    /// What an `iARVis:` link does; `nil` for other links and for iARVis links that do not read.
    public var action: IARVisLink.Action? { try? IARVisLink.parse(url) }
}

/// Reads spec documents: bytes in, a ``SpecDocument`` or located diagnostics out.
///
/// ```swift
/// let result = SpecReader.read(json: data, file: "museum.json")
/// for diagnostic in result.diagnostics { print(diagnostic) }   // museum.json:12:7: error: …
/// if let document = result.document { … }
/// ```
public enum SpecReader {
    /// Whether `bytes` are JSON rather than YAML, by their first byte past white space and a
    /// byte-order mark: `{` or `[`. No such byte (an empty input) counts as JSON.
    public static func looksLikeJSON(_ bytes: some Sequence<UInt8>) -> Bool {
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == nil
    }

    /// Reads JSON (with iARVis's leniency for trailing commas) into a document, reporting every problem.
    /// - Parameters:
    ///   - data: the document's bytes, UTF-8.
    ///   - file: the name diagnostics give as their file.
    ///   - options: the kind to read, strictness and the depth limit.
    public static func read(json data: Data, file: String? = nil, options: ReadOptions = ReadOptions()) -> ReadResult {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let parsed = JSONParser.parse(bytes, maximumDepth: options.maximumDepth)
            return read(
                root: parsed.root, diagnostics: parsed.diagnostics, text: SourceText(Array(bytes)), file: file,
                options: options)
        }
    }

    /// Reads JSON and returns the document, or throws the first error with all diagnostics attached.
    /// - Throws: ``SpecError`` when the document has errors.
    public static func decode(_ data: Data, file: String? = nil, options: ReadOptions = ReadOptions()) throws(SpecError)
        -> SpecDocument
    {
        let result = read(json: data, file: file, options: options)
        guard let document = result.document else { throw SpecError(diagnostics: result.diagnostics) }
        return document
    }

    /// Decodes a tree produced by a front end (JSON here, YAML in ARVisSpecYAML) and locates its diagnostics.
    /// - Parameter text: the source's line table, built only if there is something to locate.
    package static func read(
        root: Node?, diagnostics parserDiagnostics: [PendingDiagnostic], text: @autoclosure () -> SourceText,
        file: String?,
        options: ReadOptions
    ) -> ReadResult {
        let context = DecodingContext(options: options)
        var document: SpecDocument?
        if let root { document = SpecDocument(from: root, kind: options.kind, in: context) }
        var pending = parserDiagnostics + context.diagnostics
        if options.strict {
            pending = pending.map { diagnostic in
                var escalated = diagnostic
                escalated.severity = .error
                return escalated
            }
        }
        guard !pending.isEmpty || !context.links.isEmpty else { return ReadResult(document: document, diagnostics: []) }
        let source = text()
        let diagnostics = PendingDiagnostic.resolve(pending, in: source, file: file)
        let places = source.lineAndColumn(ofEach: context.links.map(\.offset))
        let links = zip(context.links, places).map { link, place in
            SpecLink(
                location: SourceLocation(file: file, line: place.line, column: place.column), path: link.path,
                url: link.url)
        }
        return ReadResult(document: diagnostics.containsErrors ? nil : document, diagnostics: diagnostics, links: links)
    }
}

/// Writes documents back as canonical JSON.
public enum SpecWriter {
    /// Canonical JSON: keys in the grammar's order, two-space indentation, scalar arrays on one line,
    /// a final newline. Reading it back gives an equal document.
    public static func json(_ document: SpecDocument) -> String {
        JSONWriter.write(document.node, pretty: true)
    }

    /// The same document as compact JSON with no white space.
    public static func compactJSON(_ document: SpecDocument) -> String {
        JSONWriter.write(document.node, pretty: false)
    }
}
