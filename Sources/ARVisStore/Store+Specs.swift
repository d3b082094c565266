public import ARVisSupport
public import Foundation
import SQLKit

extension Store {
    /// Saves a new version of a spec. Every version is kept.
    /// - Parameters:
    ///   - expectedVersion: the version the change was made against (from `If-Match`); when another
    ///     version has been saved since, nothing is written. 0: the spec must not exist yet.
    ///   - expectedHashPrefix: with `expectedVersion`, the start of that version's content hash, so a
    ///     spec deleted and created again does not match a tag of the old one.
    /// - Throws: ``StoreError`` `preconditionFailed` when the expected version is not the latest.
    public func saveSpec(
        projectID: String, name: String, body: [UInt8], contentHash: String, mediaType: String,
        authorID: String?, expectedVersion: Int? = nil, expectedHashPrefix: String? = nil,
        now date: Date = Date()
    ) async throws(StoreError) -> SpecVersion {
        let now = date.storePrecision
        defer { cache.forgetSpec(projectID: projectID, name: name) }
        return try await recordingTransaction(lock: "spec:\(projectID):\(name)") { database, events in
            let row = try await database.raw(
                """
                SELECT version, content_hash FROM spec_versions WHERE project_id = \(bind: projectID) AND name = \(bind: name)
                ORDER BY version DESC LIMIT 1
                """
            ).first()
            let latest = try row?.decode(column: "version", as: Int.self) ?? 0
            let latestHash = try row?.decode(column: "content_hash", as: String.self) ?? ""
            if let expectedVersion, expectedVersion != latest || !latestHash.hasPrefix(expectedHashPrefix ?? "") {
                throw StoreError(
                    .preconditionFailed,
                    latest == 0
                        ? "the spec '\(name)' does not exist (any more); create it without If-Match"
                        : "the spec '\(name)' changed since the version you edited: it is at version \(latest); fetch it again and reapply the change",
                    location: "specs/\(name)")
            }
            let version = SpecVersion(
                name: name, version: latest + 1, contentHash: contentHash, mediaType: mediaType, author: nil,
                createdAt: now, body: nil)
            try await database.raw(
                """
                INSERT INTO spec_versions (project_id, name, version, content_hash, media_type, body, author_id, created_at) VALUES
                (\(bind: projectID), \(bind: name), \(bind: version.version), \(bind: contentHash), \(bind: mediaType), \(bind: Data(body)),
                 \(bind: authorID), \(bind: now.timeIntervalSince1970))
                """
            ).run()
            try await events.record(
                .specSaved, projectID: projectID, subject: name, detail: String(version.version), on: database)
            return version
        }
    }

    /// A version of a spec with its body: the latest, or version `number`.
    public func spec(projectID: String, name: String, version number: Int? = nil) async throws(StoreError)
        -> SpecVersion?
    {
        if number == nil, let cached = cache.latestSpec(projectID: projectID, name: name) { return cached }
        let generation = cache.generation
        let version = try await withDatabase { database in
            let row: (any SQLRow)?
            if let number {
                row = try await database.raw(
                    """
                    SELECT spec_versions.*, accounts.username FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                    WHERE project_id = \(bind: projectID) AND name = \(bind: name) AND version = \(bind: number)
                    """
                ).first()
            } else {
                row = try await database.raw(
                    """
                    SELECT spec_versions.*, accounts.username FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                    WHERE project_id = \(bind: projectID) AND name = \(bind: name) ORDER BY version DESC LIMIT 1
                    """
                ).first()
            }
            return try row.map { try Self.specVersion($0, withBody: true) }
        }
        if number == nil { cache.remember(version, projectID: projectID, name: name, readAt: generation) }
        return version
    }

    /// Every version of a spec, newest first, without bodies.
    public func versions(projectID: String, name: String) async throws(StoreError) -> [SpecVersion] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT spec_versions.project_id, spec_versions.name, version, content_hash, media_type, spec_versions.created_at, accounts.username
                FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                WHERE project_id = \(bind: projectID) AND name = \(bind: name) ORDER BY version DESC
                """
            ).all().map { try Self.specVersion($0, withBody: false) }
        }
    }

    /// The latest version of every spec in a project, by name, without bodies.
    public func specs(projectID: String) async throws(StoreError) -> [SpecVersion] {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT spec_versions.project_id, spec_versions.name, version, content_hash, media_type, spec_versions.created_at, accounts.username
                FROM spec_versions LEFT JOIN accounts ON accounts.id = spec_versions.author_id
                WHERE project_id = \(bind: projectID) AND version = (
                    SELECT MAX(version) FROM spec_versions AS newer WHERE newer.project_id = spec_versions.project_id AND newer.name = spec_versions.name)
                ORDER BY spec_versions.name
                """
            ).all().map { try Self.specVersion($0, withBody: false) }
        }
    }

    /// Deletes a spec with every version; returns whether it existed.
    @discardableResult
    public func deleteSpec(projectID: String, name: String) async throws(StoreError) -> Bool {
        defer { cache.forgetSpec(projectID: projectID, name: name) }
        return try await recordingTransaction(lock: "spec:\(projectID):\(name)") { database, events in
            let existed =
                try await database.raw(
                    """
                    SELECT 1 AS one FROM spec_versions WHERE project_id = \(bind: projectID) AND name = \(bind: name) LIMIT 1
                    """
                ).first() != nil
            try await database.raw(
                "DELETE FROM spec_versions WHERE project_id = \(bind: projectID) AND name = \(bind: name)"
            ).run()
            if existed { try await events.record(.specDeleted, projectID: projectID, subject: name, on: database) }
            return existed
        }
    }

    private static func specVersion(_ row: any SQLRow, withBody: Bool) throws -> SpecVersion {
        SpecVersion(
            name: try row.decode(column: "name", as: String.self),
            version: try row.decode(column: "version", as: Int.self),
            contentHash: try row.decode(column: "content_hash", as: String.self),
            mediaType: try row.decode(column: "media_type", as: String.self),
            author: try row.decodeNil(column: "username") ? nil : try row.decode(column: "username", as: String.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            body: withBody ? [UInt8](try row.decode(column: "body", as: Data.self)) : nil)
    }
}
