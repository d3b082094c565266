import ARVisGraphics
import ARVisStore
import Foundation
import NIOConcurrencyHelpers

/// Short-lived signed links to one asset's files, so a page opened with a session token never
/// copies that token into its links (or hands it to Scene Viewer, another app).
///
/// A grant is `?grant=EXPIRY.SIGNATURE`: the expiry in Unix seconds and HMAC-SHA256 over the
/// project's id, the asset's id and the expiry, keyed by a secret every instance reads from the
/// database. It lets anyone holding the link read that asset's model and thumbnails, and nothing
/// else, until it expires.
final class AssetGrants: Sendable {
    /// How long a grant lasts: an hour.
    static let lifetime: TimeInterval = 3_600

    private let store: Store
    private let key = NIOLockedValueBox<[UInt8]?>(nil)

    init(store: Store) { self.store = store }

    /// A grant for `assetID` of `projectID`, valid for ``lifetime`` from `now`.
    func grant(projectID: String, assetID: String, now: Date = Date()) async throws -> String {
        let expiry = Int(now.timeIntervalSince1970 + Self.lifetime)
        return "\(expiry).\(Digest.hex(try await signature(projectID: projectID, assetID: assetID, expiry: expiry)))"
    }

    /// Whether `grant` is one this server made for the asset and has not expired.
    func isValid(_ grant: String, projectID: String, assetID: String, now: Date = Date()) async throws -> Bool {
        let parts = grant.split(separator: ".")
        guard parts.count == 2, let expiry = Int(parts[0]), Double(expiry) > now.timeIntervalSince1970,
            parts[1].count == 64
        else { return false }
        let expected = Digest.hex(try await signature(projectID: projectID, assetID: assetID, expiry: expiry))
        // Compared in full whatever differs, so timing tells nothing.
        return zip(expected.utf8, parts[1].utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func signature(projectID: String, assetID: String, expiry: Int) async throws -> [UInt8] {
        Digest.hmacSHA256(key: try await secret(), message: Array("\(projectID)/\(assetID)/\(expiry)".utf8))
    }

    private func secret() async throws -> [UInt8] {
        if let known = key.withLockedValue({ $0 }) { return known }
        let hex = try await store.serverSecret(named: "asset-grants") {
            var generator = SystemRandomNumberGenerator()
            return Digest.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        let digits = Array(hex)
        let bytes = stride(from: 0, to: digits.count - 1, by: 2).compactMap {
            UInt8(String(digits[$0...$0 + 1]), radix: 16)
        }
        key.withLockedValue { $0 = bytes }
        return bytes
    }
}
