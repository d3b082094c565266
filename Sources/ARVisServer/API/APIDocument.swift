import ARVisGraphics
import Foundation
import HTTPTypes
import Yams

/// `openapi.yaml` as the server knows it: the text it serves at `/openapi.yaml`, the reference page
/// at `/docs`, and the methods of every path for `405` answers.
struct APIDocument: Sendable {
    /// One operation of the document.
    struct Operation: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var identifier: String
        var summary: String
        var tag: String
        var statuses: [String]
        /// Whether it takes a request body (always JSON for the generated operations).
        var takesBody: Bool
    }

    /// Every operation, in the document's order.
    let operations: [Operation]
    /// The `info.description`, as Markdown.
    let description: String

    /// The text of `openapi.yaml`, embedded at build time by the `EmbedFiles` plugin.
    static let text = EmbeddedFiles.texts["openapi.yaml"] ?? ""

    /// The embedded document, read once.
    static let shared = APIDocument(text: APIDocument.text)

    init(text: String) {
        let root = (try? Yams.compose(yaml: text))?.mapping
        description = root?["info"]?.mapping?["description"]?.string ?? ""
        var operations: [Operation] = []
        let paths = root?["paths"]?.mapping
        for (pathNode, itemNode) in paths ?? [:] {
            guard let path = pathNode.string, let item = itemNode.mapping else { continue }
            for (methodNode, operationNode) in item {
                guard let name = methodNode.string, let method = HTTPRequest.Method(name.uppercased()),
                    let operation = operationNode.mapping
                else { continue }
                operations.append(
                    Operation(
                        method: method, path: path, identifier: operation["operationId"]?.string ?? "",
                        summary: operation["summary"]?.string ?? "",
                        tag: operation["tags"]?.sequence?.first?.string ?? "",
                        statuses: operation["responses"]?.mapping?.keys.compactMap(\.string) ?? [],
                        takesBody: operation["requestBody"] != nil))
            }
        }
        self.operations = operations
        bodyOperations = Set(operations.filter(\.takesBody).map(\.identifier))
        templates = Self.templates(of: operations)
    }

    /// The path templates, split once, for matching requests.
    private let templates: [(segments: [Substring], methods: Set<HTTPRequest.Method>)]

    /// The identifiers of the operations that take a body.
    let bodyOperations: Set<String>

    /// Each path template of `operations`, split into its segments, with its methods.
    private static func templates(of operations: [Operation]) -> [(
        segments: [Substring], methods: Set<HTTPRequest.Method>
    )] {
        Dictionary(grouping: operations, by: \.path).map { path, operations in
            (
                path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 },
                Set(operations.map(\.method))
            )
        }
    }

    /// The methods the document allows on a request path, `[]` when no path of the document matches.
    ///
    /// Where templates overlap (`…/trees/groups` and `…/trees/{id}`), the one the router picks
    /// answers: the router takes a literal segment over a parameter, segment by segment.
    func methods(for requestPath: Substring) -> Set<HTTPRequest.Method> {
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let matching = templates.filter { Self.matches($0.segments, segments) }.map { template in
            (literals: template.segments.map { $0.contains("{") ? 0 : 1 }, methods: template.methods)
        }
        guard let chosen = matching.map(\.literals).max(by: { $0.lexicographicallyPrecedes($1) }) else { return [] }
        return matching.filter { $0.literals == chosen }.reduce(into: []) { $0.formUnion($1.methods) }
    }

    /// Whether `segments` fit a template's, `{name}` standing for one non-empty segment or part of one.
    static func matches(_ template: [Substring], _ segments: ArraySlice<Substring>) -> Bool {
        guard template.count == segments.count else { return false }
        return zip(template, segments).allSatisfy { part, segment in
            guard let open = part.firstIndex(of: "{"), let close = part.firstIndex(of: "}") else {
                return part == segment
            }
            let prefix = part[..<open]
            let suffix = part[part.index(after: close)...]
            return segment.count > prefix.count + suffix.count && segment.hasPrefix(prefix) && segment.hasSuffix(suffix)
        }
    }

    /// The reference page: every operation by tag, with its method, path, summary and statuses.
    var referencePage: String {
        var tags: [String] = []
        for operation in operations where !tags.contains(operation.tag) { tags.append(operation.tag) }
        let sections = tags.map { tag in
            let rows = operations.filter { $0.tag == tag }.map { operation in
                Self.row.render([
                    "identifier": operation.identifier.xmlEscaped,
                    "methodClass": operation.method.rawValue.lowercased(),
                    "method": operation.method.rawValue, "path": operation.path.xmlEscaped,
                    "summary": operation.summary.xmlEscaped,
                    "statuses": operation.statuses.sorted().joined(separator: " "),
                ])
            }
            return Self.section.render(["tag": tag.xmlEscaped, "rows": rows.joined(separator: "\n")])
        }
        return Self.page.render([
            "style": PageTemplate.style("api-reference.css"), "description": description.xmlEscaped,
            "sections": sections.joined(separator: "\n"),
        ])
    }

    /// The reference page (`Web/Templates/api-reference.html`), a tag's section of it, and an
    /// operation's row.
    private static let page = PageTemplate("api-reference.html")
    private static let section = PageTemplate("api-reference-section.html")
    private static let row = PageTemplate("api-reference-row.html")
}
