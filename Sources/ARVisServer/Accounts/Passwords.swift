import ARVisSupport
import Foundation
import HummingbirdBcrypt

extension ServerServices {
    /// The configured bcrypt cost, clamped to bcrypt's 4–31.
    static func cost(_ configuration: ServerConfiguration) -> UInt8 {
        UInt8(clamping: min(31, max(4, configuration.passwordCost)))
    }

    /// The stored hash of a new password, at the configured bcrypt cost, made on ``passwords``.
    func passwordHash(_ password: String) async throws -> String {
        let cost = Self.cost(configuration)
        return try await passwords.run(client: RequestAddress.current) {
            Bcrypt.hash(Self.prepared(password), cost: cost)
        }
    }

    /// Whether `password` matches the stored `hash` (`nil`: no account, checked against the decoy
    /// so the answer takes as long), on ``passwords``.
    func passwordMatches(_ password: String, hash: String?) async throws -> Bool {
        let stored = hash ?? decoyHash
        let matches = try await passwords.run(client: RequestAddress.current) {
            Bcrypt.verify(Self.prepared(password), hash: stored)
        }
        return matches && hash != nil
    }

    /// bcrypt over the password's SHA-256 (base64), so passwords longer than bcrypt's 72 bytes still count whole.
    static func prepared(_ password: String) -> String {
        Data(Digest.sha256(Array(password.utf8))).base64EncodedString()
    }
}
