/// Any JSON value, for the few shapes that are untyped on purpose: glTF `extras` and extension
/// objects, and rows of a live dataset (any column names). Read and written with `Codable`, so
/// JSON leaves and enters the process one way.
///
/// ```swift
/// let row = try JSONDecoder().decode(JSONValue.self, from: data)
/// if case .object(let columns) = row { print(columns.keys.sorted()) }
/// ```
public enum JSONValue: Codable, Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON has one kind).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, member names to values.
    case object([String: JSONValue])

    /// Decodes whichever JSON value comes next.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member `name` of an object; `nil` for a missing member or a value that is not an object.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[name]
    }

    /// The text of a string value.
    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number of a number value.
    public var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The members of an object value.
    public var object: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The elements of an array value.
    public var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object; a repeated name keeps its last value.
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members, uniquingKeysWith: { $1 }))
    }
}
