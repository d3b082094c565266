public import Foundation
import SQLKit

extension Store {
    /// Saves a new version of a spec. Every version is kept.
    /// - Parameter expectedVersion: the version the change was made against (from `If-Match`); when
    ///   another version has been saved since, nothing is written.
    /// - Throws: ``StoreError`` `preconditionFailed` when `expectedVersion` is not the latest (0: the
    ///   spec must not exist yet).
    public func saveSpec(projectID: String, name: String, body: [UInt8], contentHash: String, mediaType: String,
                         authorID: String?, expectedVersion: Int? = nil, now date: Date = Date()) async throws(StoreError) -> SpecVersion {
        let now = date.storePrecision
        return try await transaction { database in
            let latest = try await database.raw("""
                SELECT COALESCE(MAX(version), 0) AS version FROM spec_versions WHERE project_id = \(bind: projectID) AND name = \(bind: name)
                """).first(decodingColumn: "version", as: Int.self) ?? 0
            if let expectedVersion, expectedVersion != latest {
                throw StoreError(.preconditionFailed, "the spec '\(name)' is at version \(latest), not \(expectedVersion); fetch it again and reapply the change",
                                 location: "specs/\(name)")
            }
            let version = SpecVersion(name: name, version: latest + 1, contentHash: contentHash, mediaType: mediaType, author: nil, createdAt: now, body: nil)
            try await database.raw("""
                INSERT INTO spec_versions (project_id, name, version, content_hash, media_type, body, author_id, created_at) VALUES
                (\(bind: projectID), \(bind: name), \(bind: version.version), \(bind: contentHash), \(bind: mediaType), \(bind: Data(body)),
                 \(bind: authorID), \(bind: now.timeIntervalSince1970))
                """).run()
            return version
        }
    }

    /// A version of a spec with its body: the latest, or version `number`.
    public func spec(projectID: String, name: String, version number: Int? = nil) async throws(StoreError) -> SpecVersion? {
        try await serialized { database in
            let row: (any SQLRow)?
            if let number {
                row = try await database.raw("""
                    SELECT spec_versions.*, accounts.username FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                    WHERE project_id = \(bind: projectID) AND name = \(bind: name) AND version = \(bind: number)
                    """).first()
            } else {
                row = try await database.raw("""
                    SELECT spec_versions.*, accounts.username FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                    WHERE project_id = \(bind: projectID) AND name = \(bind: name) ORDER BY version DESC LIMIT 1
                    """).first()
            }
            return try row.map { try Self.specVersion($0, withBody: true) }
        }
    }

    /// Every version of a spec, newest first, without bodies.
    public func versions(projectID: String, name: String) async throws(StoreError) -> [SpecVersion] {
        try await serialized { database in
            try await database.raw("""
                SELECT spec_versions.project_id, spec_versions.name, version, content_hash, media_type, spec_versions.created_at, accounts.username
                FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                WHERE project_id = \(bind: projectID) AND name = \(bind: name) ORDER BY version DESC
                """).all().map { try Self.specVersion($0, withBody: false) }
        }
    }

    private static func specVersion(_ row: any SQLRow, withBody: Bool) throws -> SpecVersion {
        SpecVersion(
            name: try row.decode(column: "name", as: String.self), version: try row.decode(column: "version", as: Int.self),
            contentHash: try row.decode(column: "content_hash", as: String.self), mediaType: try row.decode(column: "media_type", as: String.self),
            author: try row.decodeNil(column: "username") ? nil : try row.decode(column: "username", as: String.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            body: withBody ? [UInt8](try row.decode(column: "body", as: Data.self)) : nil)
    }
}
