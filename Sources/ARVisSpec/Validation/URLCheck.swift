import ARVisSupport

/// Checks URLs for the place they are used.
package enum URLCheck {
    /// Where a URL is used, which decides the schemes it may have.
    package enum Use {
        /// An image, audio, video, model or target file: web, file or data URLs, or a relative path.
        case resource
        /// What a tap opens: any absolute URL, including `iARVis://` links.
        case action
    }

    private static let resourceSchemes: Set<String> = ["http", "https", "file", "data"]

    /// Whether `text` is a URL legal for `use`; reports why not at `offset`.
    @discardableResult
    package static func check(_ text: String, _ use: Use, at offset: Int, _ context: DecodingContext) -> Bool {
        guard !text.isEmpty else {
            context.error(.invalidValue, at: offset, "the URL is empty")
            return false
        }
        if let space = text.firstIndex(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            let position = text.distance(from: text.startIndex, to: space) + 1
            context.error(
                .invalidValue, at: offset, "the URL \"\(text)\" contains white space at character \(position)",
                hint: "percent-encode it (a space is %20)")
            return false
        }
        let scheme = LinkPolicy.scheme(of: text)
        switch use {
        case .resource:
            guard let scheme else {
                checkResource(text, at: offset, context)
                return true
            }
            guard resourceSchemes.contains(scheme) else {
                context.error(
                    .invalidValue, at: offset, "the URL scheme \"\(scheme)\" cannot name a file to load",
                    hint: "use an http, https, file or data URL, or a relative path")
                return false
            }
            checkResource(text, at: offset, context)
        case .action:
            guard scheme != nil else {
                context.error(
                    .invalidValue, at: offset, "\"\(text)\" is not an absolute URL",
                    hint: "begin it with a scheme such as https://")
                return false
            }
            checkLink(text, at: offset, context)
        }
        return true
    }

    /// Warns when a safe loader will refuse `url` whatever the disk and the DNS say.
    static func checkResource(_ url: String, at offset: Int, _ context: DecodingContext) {
        let reference = ResourceReference(url)
        guard let refusal = reference.refusal else { return }
        if case .file = reference {
            context.warning(
                .unsafeResource, at: offset,
                "\(refusal): a server never loads it, and --fetch only under --allow-files",
                hint: "put the file beside the spec and give a relative path")
        } else {
            context.warning(
                .unsafeResource, at: offset, "\(refusal): it is never fetched", hint: "give a public http or https URL")
        }
    }

    /// Warns when `url` will be drawn as text instead of a link (``LinkPolicy``); `iARVis:` links are
    /// the grammar's own and are read and checked as iARVis reads them (``IARVisLinkCheck``).
    package static func checkLink(_ url: String, at offset: Int, _ context: DecodingContext) {
        context.recordLink(url, at: offset)
        if LinkPolicy.scheme(of: url) == "iarvis" { return IARVisLinkCheck.check(url, at: offset, context) }
        warnIfRefused(url, at: offset, context)
    }

    /// Warns when ``LinkPolicy`` draws `url` as text.
    package static func warnIfRefused(_ url: String, at offset: Int, _ context: DecodingContext) {
        guard let refusal = LinkPolicy.refusal(url) else { return }
        context.warning(
            .unsafeLink, at: offset, "the link \"\(url.prefix(80))\" is shown as text: \(refusal)",
            hint: "links may be http, https, mailto or relative")
    }

    /// Whether `text` has a `](`, without which it has no Markdown link (one pass over its bytes).
    private static func hasLinkSyntax(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "]") && byte == UInt8(ascii: "(") { return true }
            previous = byte
        }
        return false
    }

    /// Warns about every Markdown link in `markdown` that will be drawn as text.
    package static func checkMarkdownLinks(_ markdown: String, at offset: Int, _ context: DecodingContext) {
        guard hasLinkSyntax(markdown) else { return }
        for link in InlineMarkdown.links(in: markdown) { checkLink(link, at: offset, context) }
    }

    /// The schema of a URL string.
    package static var schema: Schema { .string(format: "uri-reference", minLength: 1) }

    /// `{"url": "…"}`: the URL a tap or click opens.
    package static let actionObjectShape = ObjectShape("Opens a URL.", [.required("url", schema, "The URL to open.")])

    /// Reads `{"url": "…"}` and checks that the URL can be opened; `nil` after reporting otherwise.
    package static func readActionObject(_ node: Node, _ context: DecodingContext) -> String? {
        guard let object = ObjectReader(node, context, shape: actionObjectShape),
            let url = object.required("url", as: String.self)
        else { return nil }
        return context.at("url") { check(url, .action, at: object.offset(of: "url"), context) } ? url : nil
    }
}
