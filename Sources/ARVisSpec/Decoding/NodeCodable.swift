/// A model type that reads itself from a document node, writes itself back, and describes its JSON form.
///
/// Reading reports every problem to the context and returns `nil` when the value cannot be built;
/// writing is lossless: reading what `node` wrote gives an equal value.
package protocol NodeCodable: SendableMetatype {
    /// Reads a value from `node`, reporting problems to `context`; `nil` when it cannot be built.
    init?(from node: Node, in context: DecodingContext)
    /// The value as a document node, in canonical key order.
    var node: Node { get }
    /// The JSON Schema form of the value, also the source of its key set for the decoder.
    static var schema: Schema { get }
    /// The name of the value's schema in `$defs`.
    static var definitionName: String { get }
}

extension NodeCodable {
    /// The type's name without the module: `Component.Text` for a nested type.
    package static var definitionName: String {
        let full = String(reflecting: Self.self)
        return full.split(separator: ".", maxSplits: 1).last.map(String.init) ?? full
    }
}

extension Bool: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard case .bool(let value) = node.kind else {
            context.typeMismatch(node, expected: "true or false")
            return nil
        }
        self = value
    }
    package var node: Node { Node(.bool(self)) }
    package static var schema: Schema { .boolean }
}

extension String: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard case .string(let value) = node.kind else {
            context.typeMismatch(node, expected: "a string")
            return nil
        }
        self = value
    }
    package var node: Node { Node(.string(self)) }
    package static var schema: Schema { .string() }
}

extension Double: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard let value = node.number else {
            context.typeMismatch(node, expected: "a number")
            return nil
        }
        self = value
    }
    /// Integral values are written without a fraction, as authors write sizes and offsets.
    package var node: Node {
        if let integer = Int(exactly: self), abs(integer) < 1 << 53 { return Node(.int(integer)) }
        return Node(.double(self))
    }
    package static var schema: Schema { .number() }
}

extension Int: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard case .int(let value) = node.kind else {
            context.typeMismatch(node, expected: "an integer")
            return nil
        }
        self = value
    }
    package var node: Node { Node(.int(self)) }
    package static var schema: Schema { .integer() }
}

extension Array: NodeCodable where Element: NodeCodable {
    /// Reads every element; elements that fail are reported and left out.
    package init?(from node: Node, in context: DecodingContext) {
        guard let elements = node.elements else {
            context.typeMismatch(node, expected: "an array")
            return nil
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let value = context.at(index: index, { Element(from: element, in: context) }) { result.append(value) }
        }
        self = result
    }
    package var node: Node { Node(.array(map(\.node))) }
    package static var schema: Schema { .array(Element.schema) }
}

/// A string-valued enumeration of the grammar (anchor points, alignments, weights …).
///
/// Conforming types get reading with did-you-mean hints, writing, and a schema `enum` for free.
package protocol StringEnumeration: NodeCodable, RawRepresentable<String>, CaseIterable {
    /// What the value names, for messages ("an anchor point").
    static var valueDescription: String { get }
}

extension StringEnumeration {
    package init?(from node: Node, in context: DecodingContext) {
        guard case .string(let text) = node.kind else {
            context.typeMismatch(node, expected: Self.valueDescription)
            return nil
        }
        guard let value = Self(rawValue: text) else {
            let names = Self.allCases.map(\.rawValue)
            context.error(
                .invalidValue, at: node.offset, "\"\(text)\" is not \(Self.valueDescription)",
                hint: Suggestion.hint(for: text, among: names, listing: true))
            return nil
        }
        self = value
    }
    package var node: Node { Node(.string(rawValue)) }
    package static var schema: Schema { .enumeration(allCases.map(\.rawValue)) }
}
