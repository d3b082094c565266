import Foundation

/// A page of the server's, or a part of one, from its template in `Web/Templates` (embedded at build
/// time by the `EmbedFiles` plugin, like the browser code): the template's text with every
/// `{{name}}` replaced by the value given for it.
///
/// Values go in as they are given: whatever comes from a spec, a project or a request is escaped by
/// the caller first (`xmlEscaped`). A template file ends with a newline that is not part of it.
struct PageTemplate: Sendable {
    private enum Piece: Sendable {
        case text(String)
        case slot(String)
    }

    private let pieces: [Piece]

    /// The template `Web/Templates/<name>`; an empty one when the build embedded no such file (a test
    /// renders every page, so a missing template cannot go unnoticed).
    init(_ name: String) {
        let text = EmbeddedFiles.texts[Self.folder + name] ?? ""
        self.init(text: text.hasSuffix("\n") ? String(text.dropLast()) : text)
    }

    /// A template of `text`.
    init(text: String) {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            pieces.append(.text(String(rest[..<open.lowerBound])))
            pieces.append(.slot(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        pieces.append(.text(String(rest)))
        self.pieces = pieces
    }

    /// The names of its slots, in order.
    var slots: [String] {
        pieces.compactMap {
            guard case .slot(let name) = $0 else { return nil }
            return name
        }
    }

    /// The text with each slot replaced by `values[name]` (nothing for a name without a value).
    func render(_ values: [String: String]) -> String {
        pieces.map {
            switch $0 {
            case .text(let text): text
            case .slot(let name): values[name] ?? ""
            }
        }.joined()
    }

    /// The folder of the templates in the target.
    static let folder = "Web/Templates/"

    /// The style sheet `Web/Templates/<name>` on one line, as the pages inline it.
    static func style(_ name: String) -> String {
        PageTemplate(name).render([:]).split(separator: "\n").joined()
    }

    /// The shared start of a page (`head.html`), up to its `<body>`: `title` (escaped already) and
    /// the inline `style`.
    static func head(title: String, style: String) -> String {
        head.render(["title": title, "style": style])
    }

    private static let head = PageTemplate("head.html")
}
