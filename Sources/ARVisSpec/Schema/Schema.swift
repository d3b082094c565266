/// The JSON form of a model type, written once beside the type and used twice: the decoder takes an
/// object's key set (for unknown-key warnings and did-you-mean hints) from it, and
/// ``SpecSchema`` turns it into a JSON Schema document.
package indirect enum Schema: Sendable {
    case boolean
    case string(format: String? = nil, pattern: String? = nil, minLength: Int? = nil)
    case number(minimum: Double? = nil, exclusiveMinimum: Double? = nil, maximum: Double? = nil)
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    case enumeration([String])
    case array(Schema, minItems: Int? = nil)
    /// A fixed-length array whose items have their own meaning, such as `[x, y, z]`.
    case tuple([Schema], description: String)
    /// An object with free keys (data columns, child widgets by key).
    case map(Schema)
    case object(ObjectShape)
    /// A named type, emitted once under `$defs`.
    case reference(String, @Sendable () -> Schema)
    case oneOf([Schema])
    /// Any JSON scalar: string, number, boolean or null.
    case scalar
    case described(Schema, String)

    /// A reference to a model type's schema, named after the type.
    package static func ref<T: NodeCodable>(_ type: T.Type) -> Schema {
        .reference(T.definitionName, { T.schema })
    }

    /// This schema with a description attached.
    package func described(_ text: String) -> Schema { .described(self, text) }
}

/// The keys of one JSON object of the grammar: their names, types, whether they are required, and docs.
package struct ObjectShape: Sendable {
    /// One key of an object.
    package struct Property: Sendable {
        package let name: String
        package let schema: Schema
        package let isRequired: Bool
        package let documentation: String
    }

    package let documentation: String
    package let properties: [Property]
    /// Keys that older grammars used and that iARVis ignores now, with what to write instead.
    package let retiredKeys: [String: String]
    package let keys: Set<String>
    /// Keys of which at least one must be present (none: no such rule).
    package let requiresOneOf: [String]

    package init(
        _ documentation: String, retiredKeys: [String: String] = [:], requiresOneOf: [String] = [],
        _ properties: [Property]
    ) {
        self.documentation = documentation
        self.properties = properties
        self.retiredKeys = retiredKeys
        self.requiresOneOf = requiresOneOf
        self.keys = Set(properties.map(\.name))
    }

    /// An object with no keys, such as `{"vertical": {}}`'s value.
    package static let empty = ObjectShape("An empty object.", [])

    package func property(_ name: String) -> Property? { properties.first { $0.name == name } }
}

extension ObjectShape.Property {
    /// A key that must be present.
    package static func required(_ name: String, _ schema: Schema, _ documentation: String) -> Self {
        Self(name: name, schema: schema, isRequired: true, documentation: documentation)
    }

    /// A key that may be absent.
    package static func optional(_ name: String, _ schema: Schema, _ documentation: String) -> Self {
        Self(name: name, schema: schema, isRequired: false, documentation: documentation)
    }
}
