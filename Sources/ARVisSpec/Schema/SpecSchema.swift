/// The JSON Schema (draft 2020-12) of spec documents, generated from the model's own shapes.
///
/// Point an editor at it with `"$schema"` to get completion and checks:
/// ```swift
/// let text = SpecSchema.json(for: .chart)   // or nil for a root accepting all three kinds
/// ```
public enum SpecSchema {
    /// The identifier the schema declares.
    public static let identifier = "https://arvis.dev/schema/spec-1.json"

    /// The schema as JSON text: for one kind, or (`nil`) a root that accepts any of the three.
    public static func json(for kind: DocumentKind? = nil) -> String {
        JSONWriter.write(document(for: kind), pretty: true)
    }

    package static func document(for kind: DocumentKind?) -> Node {
        var generator = Generator()
        let roots: [(DocumentKind, Schema)] = [
            (.environment, .ref(Environment.self)), (.component, .ref(Component.self)), (.chart, .ref(Chart.self)),
        ]
        let selected = roots.filter { kind == nil || $0.0 == kind }
        // The reader picks the kind from the keys; the schema only asks that the document be one of them.
        let body =
            selected.count == 1
            ? generator.node(selected[0].1) : .object([("anyOf", .array(selected.map { generator.node($0.1) }))])
        let title = kind.map { "ARVis \($0.rawValue) spec" } ?? "ARVis spec (environment, component or chart)"
        var members: [Node.Member] = [
            Node.Member(key: "$schema", value: .string("https://json-schema.org/draft/2020-12/schema")),
            Node.Member(key: "$id", value: .string(identifier)),
            Node.Member(key: "title", value: .string(title)),
        ]
        members += body.members ?? []
        members.append(
            Node.Member(key: "$defs", value: Node(.object(generator.definitions.sorted { $0.key < $1.key }))))
        return Node(.object(members))
    }

    /// Turns ``Schema`` values into JSON Schema nodes, collecting named types under `$defs`.
    private struct Generator {
        var definitions: [Node.Member] = []
        private var visited: Set<String> = []

        mutating func node(_ schema: Schema) -> Node {
            switch schema {
            case .boolean: return .object([("type", .string("boolean"))])
            case .string(let format, let pattern, let minLength):
                return .object([
                    ("type", .string("string")), ("format", format?.node), ("pattern", pattern?.node),
                    ("minLength", minLength?.node),
                ])
            case .number(let minimum, let exclusiveMinimum, let maximum):
                return .object([
                    ("type", .string("number")), ("minimum", minimum?.node),
                    ("exclusiveMinimum", exclusiveMinimum?.node), ("maximum", maximum?.node),
                ])
            case .integer(let minimum, let maximum):
                return .object([("type", .string("integer")), ("minimum", minimum?.node), ("maximum", maximum?.node)])
            case .enumeration(let values):
                return .object([("type", .string("string")), ("enum", values.node)])
            case .array(let items, let minItems):
                return .object([("type", .string("array")), ("items", node(items)), ("minItems", minItems?.node)])
            case .tuple(let items, let description):
                return .object([
                    ("description", .string(description)), ("type", .string("array")),
                    ("prefixItems", .array(items.map { node($0) })), ("items", Node(.bool(false))),
                    ("minItems", items.count.node), ("maxItems", items.count.node),
                ])
            case .map(let values):
                return .object([("type", .string("object")), ("additionalProperties", node(values))])
            case .object(let shape):
                return object(shape)
            case .reference(let name, let resolve):
                if visited.insert(name).inserted {
                    let body = node(resolve())
                    definitions.append(Node.Member(key: name, value: body))
                }
                return .object([("$ref", .string("#/$defs/\(name)"))])
            case .oneOf(let alternatives):
                return .object([("oneOf", .array(alternatives.map { node($0) }))])
            case .scalar:
                return .object([("type", .array(["string", "number", "boolean", "null"].map { .string($0) }))])
            case .described(let inner, let text):
                var result = node(inner)
                result.kind = .object([Node.Member(key: "description", value: .string(text))] + (result.members ?? []))
                return result
            }
        }

        private mutating func object(_ shape: ObjectShape) -> Node {
            var properties: [Node.Member] = []
            for property in shape.properties {
                var value = node(property.schema)
                if let members = value.members {
                    value.kind = .object(
                        [Node.Member(key: "description", value: .string(property.documentation))]
                            + members.filter { $0.key != "description" })
                }
                properties.append(Node.Member(key: property.name, value: value))
            }
            let required = shape.properties.filter(\.isRequired).map { Node.string($0.name) }
            return .object([
                ("description", shape.documentation.isEmpty ? nil : .string(shape.documentation)),
                ("type", .string("object")),
                ("properties", Node(.object(properties))), ("required", required.isEmpty ? nil : .array(required)),
                (
                    "anyOf",
                    shape.requiresOneOf.isEmpty
                        ? nil : .array(shape.requiresOneOf.map { .object([("required", .array([.string($0)]))]) })
                ),
            ])
        }
    }
}
