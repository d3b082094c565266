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
    func methods(for requestPath: Substring) -> Set<HTTPRequest.Method> {
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var methods: Set<HTTPRequest.Method> = []
        for template in templates where Self.matches(template.segments, segments) {
            methods.formUnion(template.methods)
        }
        return methods
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
                """
                <tr id="\(operation.identifier.xmlEscaped)"><td class="method \(operation.method.rawValue.lowercased())">\(operation.method.rawValue)</td>\
                <td><code>\(operation.path.xmlEscaped)</code></td><td>\(operation.summary.xmlEscaped)</td>\
                <td>\(operation.statuses.sorted().joined(separator: " "))</td></tr>
                """
            }.joined(separator: "\n")
            return
                "<h2>\(tag.xmlEscaped)</h2>\n<table><tr><th>method</th><th>path</th><th>what</th><th>answers</th></tr>\n\(rows)\n</table>"
        }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>ARVis server API</title>
            <style>body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:0 auto;padding:16px;color:#1c1c1e}\
            table{border-collapse:collapse;width:100%;margin-bottom:24px}td,th{border-bottom:1px solid #ddd;padding:6px;text-align:left;vertical-align:top}\
            .method{font-weight:600;font-family:ui-monospace,monospace}.get{color:#0a7}.post{color:#07c}.put,.patch{color:#b70}.delete{color:#c22}\
            pre{white-space:pre-wrap;background:#f4f4f6;padding:12px;border-radius:8px}</style></head>
            <body>
            <h1>ARVis server API</h1>
            <p>The machine-readable contract: <a href="/openapi.yaml">/openapi.yaml</a> (OpenAPI 3.1).</p>
            <pre>\(description.xmlEscaped)</pre>
            \(sections)
            </body>
            </html>

            """
    }
}
