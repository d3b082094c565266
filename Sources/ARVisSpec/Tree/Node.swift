/// A value of a spec document with the byte offset it was read from.
///
/// The reader turns JSON or YAML into a tree of nodes; the decoder turns nodes into model values
/// and reports problems at a node's offset. Nodes built by the encoder have no source offset.
///
/// A node is 24 bytes (the offset is kept in 32 bits, so sources are limited to ``maximumOffset``
/// bytes), and the reader sizes every array exactly, so a large data table costs 24 bytes per cell.
package struct Node: Sendable, Hashable {
    /// What kind of value this is, with its content.
    package var kind: Kind
    private var storedOffset: Int32

    /// Byte offset of the value's first character in its source, or `Node.noOffset`.
    package var offset: Int {
        get { Int(storedOffset) }
        set { storedOffset = Int32(clamping: newValue) }
    }

    /// The offset of a node that was not read from a source.
    package static let noOffset = -1
    /// The largest offset a node records: sources must be smaller than 2 GiB.
    package static let maximumOffset = Int(Int32.max)

    package init(_ kind: Kind, offset: Int = Node.noOffset) {
        self.kind = kind
        storedOffset = Int32(clamping: offset)
    }

    /// The shapes a document value can take.
    package enum Kind: Sendable, Hashable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        case array([Node])
        case object([Member])
    }

    /// One key-value pair of an object, in document order.
    package struct Member: Sendable, Hashable {
        package var key: String
        package var keyOffset: Int
        package var value: Node

        package init(key: String, keyOffset: Int = Node.noOffset, value: Node) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    /// Equality of content only: two nodes read from different places compare equal.
    package static func == (lhs: Node, rhs: Node) -> Bool { lhs.kind == rhs.kind }
    package func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

extension Node {
    /// The name of this value's JSON type, as used in messages ("an object", "a string" …).
    package var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The members of an object node, or `nil`.
    package var members: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The elements of an array node, or `nil`.
    package var elements: [Node]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    /// The text of a string node, or `nil`.
    package var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    /// The numeric value of an integer or real node, or `nil`.
    package var number: Double? {
        switch kind {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The value for `key` in an object node (the first, if repeated).
    package subscript(key: String) -> Node? {
        members?.first { $0.key == key }?.value
    }
}

extension Node {
    /// Builds an object node from ordered pairs, dropping pairs whose value is `nil`.
    package static func object(_ pairs: [(String, Node?)]) -> Node {
        Node(.object(pairs.compactMap { key, value in value.map { Member(key: key, value: $0) } }))
    }

    /// A string node.
    package static func string(_ text: String) -> Node { Node(.string(text)) }

    /// An array node.
    package static func array(_ nodes: [Node]) -> Node { Node(.array(nodes)) }
}
