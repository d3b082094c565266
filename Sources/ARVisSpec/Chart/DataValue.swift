/// One cell of inline data: a string, an integer, a real number, a boolean or null.
///
/// Integers and reals stay distinct (`2` and `2.0`), as iARVis types them differently.
public enum DataValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null

    /// The value as a number, for integers and reals.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of ``text``, formatting integers on the stack rather than
    /// allocating a string; `nil` for null.
    package func withUTF8Text<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        switch self {
        case .int(let value):
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
                var magnitude = value.magnitude
                var start = buffer.count
                repeat {
                    start -= 1
                    buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                if value < 0 {
                    start -= 1
                    buffer[start] = UInt8(ascii: "-")
                }
                return body(UnsafeBufferPointer(rebasing: buffer[start...]))
            }
        default:
            guard var text else { return nil }
            return text.withUTF8(body)
        }
    }

    /// The value as text, as iARVis stringifies numbers before applying a date format.
    public var text: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): JSONWriter.numberText(value)
        case .bool(let value): String(value)
        case .null: nil
        }
    }
}

extension DataValue: NodeCodable {
    package init?(from node: Node, in context: DecodingContext) {
        guard let value = DataValue(node) else {
            context.typeMismatch(node, expected: "a string, number, boolean or null")
            return nil
        }
        self = value
    }

    /// The value of a scalar node, or `nil` for arrays and objects.
    init?(_ node: Node) {
        switch node.kind {
        case .string(let value): self = .string(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .bool(let value): self = .bool(value)
        case .null: self = .null
        case .array, .object: return nil
        }
    }

    package var node: Node {
        switch self {
        case .string(let value): Node(.string(value))
        case .int(let value): Node(.int(value))
        case .double(let value): Node(.double(value))
        case .bool(let value): Node(.bool(value))
        case .null: Node(.null)
        }
    }

    package static var schema: Schema { .scalar }
}

extension DataValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    /// Creates a string value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an integer value from an integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a real value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a boolean value from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
