/// Reads the keys of one JSON object against its ``ObjectShape``.
///
/// Creating a reader checks the node is an object and reports every key the shape does not define
/// (a warning, an error in strict mode) with a did-you-mean hint. `required` and `optional` then
/// decode single keys, reporting missing required keys at the object's opening brace.
package struct ObjectReader {
    package let node: Node
    package let members: [Node.Member]
    private let context: DecodingContext
    private let shape: ObjectShape

    /// Starts reading `node` as an object of `shape`; `nil` (after reporting) if it is not an object.
    package init?(_ node: Node, _ context: DecodingContext, shape: ObjectShape, expected: String = "an object") {
        guard let members = node.members else {
            context.typeMismatch(node, expected: expected)
            return nil
        }
        self.node = node
        self.members = members
        self.context = context
        self.shape = shape
        for member in members where !shape.keys.contains(member.key) { reportUnknown(member) }
    }

    private func reportUnknown(_ member: Node.Member) {
        if let replacement = shape.retiredKeys[member.key] {
            context.warning(
                .unknownKey, at: member.keyOffset, "\"\(member.key)\" is a retired key that iARVis ignores",
                hint: replacement)
            return
        }
        context.warning(
            .unknownKey, at: member.keyOffset, "unknown key \"\(member.key)\"",
            hint: Suggestion.hint(for: member.key, among: shape.properties.map(\.name), listing: true))
    }

    /// The raw node for `key`, if present.
    package func value(_ key: String) -> Node? {
        members.first { $0.key == key }?.value
    }

    /// Decodes the required `key`; reports it missing (with a hint if a key looks like a misspelling).
    package func required<T: NodeCodable>(_ key: String, as type: T.Type = T.self) -> T? {
        assert(shape.property(key)?.isRequired == true, "\(key) is not a required key of its shape")
        guard let child = value(key) else {
            reportMissing(key)
            return nil
        }
        return context.at(key) { T(from: child, in: context) }
    }

    /// Decodes the optional `key`; `nil` when absent or invalid (invalid values are reported).
    package func optional<T: NodeCodable>(_ key: String, as type: T.Type = T.self) -> T? {
        assert(shape.property(key).map { !$0.isRequired } == true, "\(key) is not an optional key of its shape")
        guard let child = value(key) else { return nil }
        return context.at(key) { T(from: child, in: context) }
    }

    /// Reports a missing required key at the object.
    package func reportMissing(_ key: String) {
        let misspelling = members.first {
            !shape.keys.contains($0.key) && Suggestion.closest(to: $0.key, among: [key]) != nil
        }
        context.error(
            .missingKey, at: node.offset, "missing required key \"\(key)\"",
            hint: misspelling.map { "is \"\($0.key)\" a misspelling of it?" })
    }

    /// The offset of `key`'s value, or of the object when the key is absent.
    package func offset(of key: String) -> Int {
        value(key)?.offset ?? node.offset
    }
}
