public import ARVisSpec
import Yams

/// Writes documents as YAML, typed so that reading them back gives an equal document.
public enum YAMLSpecWriter {
    /// The document as block-style YAML, keys in the grammar's order.
    /// - Throws: ``SpecError`` if the YAML emitter fails.
    public static func yaml(_ document: SpecDocument) throws(SpecError) -> String {
        do {
            return try Yams.serialize(node: yamsNode(document.node), width: -1, allowUnicode: true, sortKeys: false)
        } catch {
            throw SpecError(code: .unreadable, message: "the YAML emitter failed: \(error)")
        }
    }

    private static func yamsNode(_ node: SpecNode) -> Yams.Node {
        switch node.kind {
        case .null: Yams.Node("null", Tag(.null))
        case .bool(let value): Yams.Node(value ? "true" : "false", Tag(.bool))
        case .int(let value): Yams.Node(String(value), Tag(.int))
        case .double(let value): Yams.Node(JSONWriter.numberText(value), Tag(.float))
        case .string(let text): Yams.Node(text, Tag(.str), needsQuotes(text) ? .doubleQuoted : .any)
        case .array(let elements): Yams.Node(elements.map(yamsNode))
        case .object(let members):
            Yams.Node(
                members.map {
                    (Yams.Node($0.key, Tag(.str), needsQuotes($0.key) ? .doubleQuoted : .any), yamsNode($0.value))
                })
        }
    }

    /// Whether a plain scalar with this text would read back as something other than a string.
    private static func needsQuotes(_ text: String) -> Bool {
        let typed: Yams.Node = Yams.Node(text)
        return text.isEmpty || Resolver.default.resolveTag(of: typed) != Tag.Name.str
    }
}
