import Foundation

/// What a `Repr-Digest` or `Content-Digest` field (RFC 9530) declares of SHA-256: a list of
/// `algorithm=:Base64:` members, of which ARVis reads `sha-256` (any case) and skips the others.
///
/// ```swift
/// DigestField(parsing: "sha-512=:…:, sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:")
/// // .sha256 of the empty file
/// ```
public enum DigestField: Sendable, Hashable {
    /// The field has no `sha-256` member.
    case absent
    /// The 32 bytes of the `sha-256` member.
    case sha256([UInt8])
    /// The `sha-256` member is not 32 bytes of Base64 between colons.
    case malformed

    /// Reads a field's value; the first `sha-256` member counts.
    public init(parsing field: String) {
        for member in field.split(separator: ",") {
            let parts = member.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].lowercased() == "sha-256" else { continue }
            let value = parts[1]
            guard value.count > 2, value.hasPrefix(":"), value.hasSuffix(":"),
                let bytes = Data(base64Encoded: String(value.dropFirst().dropLast())), bytes.count == 32
            else {
                self = .malformed
                return
            }
            self = .sha256(Array(bytes))
            return
        }
        self = .absent
    }

    /// The field's value declaring `sha256`: `sha-256=:…:`.
    public static func value(sha256: [UInt8]) -> String {
        "sha-256=:\(Data(sha256).base64EncodedString()):"
    }
}
