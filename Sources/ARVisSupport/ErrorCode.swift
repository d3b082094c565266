/// What kind of problem an error is: a name in a set that the error's module extends with its own
/// codes, so that new codes can be added without breaking clients.
///
/// ```swift
/// public enum ModelErrorDomain {}
/// extension ErrorCode<ModelErrorDomain> {
///     /// The file ends before the data it announces.
///     public static let truncated = Self("truncated")
/// }
/// ```
public struct ErrorCode<Domain>: Sendable, Hashable, CustomStringConvertible {
    /// The code's name, as JSON output and logs show it.
    public let name: String

    /// The code named `name`.
    public init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }
}

extension ErrorCode: Codable {
    /// The code's name, as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// The code a JSON string names (any name: codes are extensible, and a newer sender's are kept).
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }
}
