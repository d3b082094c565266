public import Foundation

/// The one way ARVis writes JSON of its own (the server's live messages, answers of hand-registered
/// routes, stored dataset rows): a `Codable` shape encoded with sorted keys, slashes unescaped and dates
/// in ISO 8601.
public enum JSONText {
    /// `value` as JSON text.
    /// - Throws: `EncodingError` for a number JSON cannot hold (NaN, infinity).
    public static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `value` as JSON bytes, for a response body.
    /// - Throws: `EncodingError` for a number JSON cannot hold (NaN, infinity).
    public static func data(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// `value` as JSON text, for shapes that cannot hold a number JSON refuses (strings, integers,
    /// checked doubles); `null` if one does.
    public static func text(_ value: some Encodable) -> String {
        (try? encode(value)) ?? "null"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
