import Foundation

/// Checks `iARVis:` links where specs use them (Markdown links, tap and click actions): the link is
/// read as iARVis reads it, and a component or environment it embeds is read like any spec, its
/// diagnostics reported at the link with the path inside the embedded JSON.
package enum IARVisLinkCheck {
    /// How many embedded links down a chain are checked.
    static let maximumEmbeddingDepth = 4

    /// Reports every problem of the `iARVis:` link `url` at `offset` (the string that holds it).
    package static func check(_ url: String, at offset: Int, _ context: DecodingContext) {
        let action: IARVisLink.Action
        do { action = try IARVisLink.parse(url) } catch {
            context.error(
                .invalidValue, at: offset,
                "the iARVis link \"\(url.prefix(60))\(url.count > 60 ? "…" : "")\" cannot be read: \(error.message)",
                hint: error.hint)
            return
        }
        switch action {
        case .link(let href):
            URLCheck.warnIfRefused(href, at: offset, context)
        case .openComponent(let open):
            if case .json(let json) = open.source {
                checkEmbedded(json, kind: .component, action: action, at: offset, context)
            }
        case .openVisConfig(let source):
            if case .json(let json) = source {
                checkEmbedded(json, kind: .environment, action: action, at: offset, context)
            }
        }
    }

    /// Reads `json` as a `kind` and reports its diagnostics at `offset`, each naming where in the
    /// embedded JSON it is (line and column of the decoded text, and path).
    private static func checkEmbedded(
        _ json: String, kind: DocumentKind, action: IARVisLink.Action, at offset: Int, _ context: DecodingContext
    ) {
        // Each embedded document is read inside the one that embeds it, so the stack holds them all:
        // chains are checked 4 links deep, and an embedded document 128 levels deep.
        guard context.options.embeddingDepth < maximumEmbeddingDepth else {
            context.warning(
                .invalidValue, at: offset,
                "this link's \(kind.rawValue) is not checked: it is more than \(maximumEmbeddingDepth) links down a chain",
                hint: "open it with url= instead of embedding it with json=")
            return
        }
        var options = ReadOptions(
            kind: kind, strict: context.options.strict, maximumDepth: min(context.options.maximumDepth, 128))
        options.embeddingDepth = context.options.embeddingDepth + 1
        let result = SpecReader.read(json: Data(json.utf8), file: nil, options: options)
        let outer = context.pathText
        for diagnostic in result.diagnostics {
            let inner = diagnostic.path.isEmpty ? "" : "." + diagnostic.path
            context.report(
                diagnostic.severity, diagnostic.code, at: offset, path: "\(outer)→\(action.name).json\(inner)",
                "in the \(kind.rawValue) this link embeds (its JSON \(diagnostic.location.line):\(diagnostic.location.column)): \(diagnostic.message)",
                hint: diagnostic.hint)
        }
    }
}
