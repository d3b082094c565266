/// Reads iARVis's tagged unions: an object with exactly one key, which names the case.
///
/// `{"vStack": {…}}`, `{"padding": {…}}`, `{"openURL": {"url": …}}`, `{"vertical": {}}`.
package enum SingleKeyObject {
    /// The single member of `node`, if its key is one of `cases`; reports every other shape.
    /// - Parameters:
    ///   - what: the union's name in messages ("component", "modifier" …).
    ///   - manyKeysHint: advice when the object has several keys.
    package static func read(
        _ node: Node, _ context: DecodingContext, cases: [String], what: String, manyKeysHint: String? = nil
    ) -> Node.Member? {
        guard let members = node.members else {
            context.typeMismatch(node, expected: "\(article(what)) \(what) (an object with one key such as \"\(cases[0])\")")
            return nil
        }
        guard members.count == 1, let member = members.first else {
            if members.isEmpty {
                context.error(.invalidValue, at: node.offset, "\(article(what)) \(what) needs one key naming its kind, found an empty object",
                              hint: "for example {\"\(cases[0])\": …}")
            } else {
                let keys = members.map { "\"\($0.key)\"" }.joined(separator: ", ")
                context.error(.invalidValue, at: node.offset,
                              "\(article(what)) \(what) has exactly one key naming its kind, found \(members.count): \(keys)",
                              hint: manyKeysHint)
            }
            return nil
        }
        guard cases.contains(member.key) else {
            context.error(.invalidValue, at: member.keyOffset, "unknown \(what) \"\(member.key)\"",
                          hint: Suggestion.hint(for: member.key, among: cases, listing: true))
            return nil
        }
        return member
    }

    /// The schema of a one-key union: one alternative per case.
    package static func schema(_ cases: [(String, Schema)]) -> Schema {
        .oneOf(cases.map { key, schema in
            .object(ObjectShape("The \(key) case.", [.required(key, schema, key)]))
        })
    }

    private static func article(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an" : "a"
    }
}

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
            context.error(.invalidValue, at: offset, "the URL \"\(text)\" contains white space at character \(position)",
                          hint: "percent-encode it (a space is %20)")
            return false
        }
        let scheme = schemeOf(text)
        switch use {
        case .resource:
            guard let scheme else { return true }
            guard resourceSchemes.contains(scheme) else {
                context.error(.invalidValue, at: offset, "the URL scheme \"\(scheme)\" cannot name a file to load",
                              hint: "use an http, https, file or data URL, or a relative path")
                return false
            }
        case .action:
            guard scheme != nil else {
                context.error(.invalidValue, at: offset, "\"\(text)\" is not an absolute URL",
                              hint: "begin it with a scheme such as https://")
                return false
            }
        }
        return true
    }

    /// The lower-cased scheme of `text` (`https`, `iarvis` …), or `nil` for a relative reference.
    package static func schemeOf(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
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
