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
            context.typeMismatch(
                node, expected: "\(article(what)) \(what) (an object with one key such as \"\(cases[0])\")")
            return nil
        }
        guard members.count == 1, let member = members.first else {
            if members.isEmpty {
                context.error(
                    .invalidValue, at: node.offset,
                    "\(article(what)) \(what) needs one key naming its kind, found an empty object",
                    hint: "for example {\"\(cases[0])\": …}")
            } else {
                let keys = members.map { "\"\($0.key)\"" }.joined(separator: ", ")
                context.error(
                    .invalidValue, at: node.offset,
                    "\(article(what)) \(what) has exactly one key naming its kind, found \(members.count): \(keys)",
                    hint: manyKeysHint)
            }
            return nil
        }
        guard cases.contains(member.key) else {
            context.error(
                .invalidValue, at: member.keyOffset, "unknown \(what) \"\(member.key)\"",
                hint: Suggestion.hint(for: member.key, among: cases, listing: true))
            return nil
        }
        return member
    }

    /// The schema of a one-key union: one alternative per case.
    package static func schema(_ cases: [(String, Schema)]) -> Schema {
        .oneOf(
            cases.map { key, schema in
                .object(ObjectShape("The \(key) case.", [.required(key, schema, key)]))
            })
    }

    private static func article(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an" : "a"
    }
}
