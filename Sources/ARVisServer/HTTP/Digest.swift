import Crypto
import Foundation

/// The server's hashes, from swift-crypto: token and password hashes, content hashes and `ETag`s,
/// uploads hashed as they stream, and the signatures of asset links.
enum Digest {
    /// A SHA-256 computed piece by piece, for data that arrives in chunks.
    typealias Hasher = Crypto.SHA256

    /// The 32-byte SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes(sha256)
    }

    /// The 32-byte SHA-256 of the bytes in `buffer`, read where they are.
    static func sha256(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bufferPointer: buffer)
        return Array(hasher.finalize())
    }

    /// The SHA-256 of `bytes` in lowercase hex.
    static func sha256Hex(_ bytes: [UInt8]) -> String { hex(sha256(bytes)) }

    /// `bytes` in lowercase hex.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
