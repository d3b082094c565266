public import Foundation
import SQLKit

/// A 3D asset of a project's gallery: the uploaded file (kept by content hash under the data
/// directory) and what the server read from it.
public struct Asset: Sendable, Hashable {
    /// Where the server is with the file.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Stored; its summary, thumbnails and other format are being made.
        case processing
        /// Read, drawn and converted.
        case ready
        /// The file could not be read as a model (``Asset/failure`` says why).
        case failed
    }

    /// Stable identifier.
    public var id: String
    /// The name shown in the gallery.
    public var name: String
    /// The uploaded format (`glb` or `usdz`).
    public var format: String
    /// The SHA-256 of the uploaded file, in hex.
    public var contentHash: String
    /// The uploaded file's size in bytes.
    public var size: Int
    /// Where processing is.
    public var status: Status
    /// What was read from the file (JSON), once ready.
    public var summary: String?
    /// Why the file could not be read, when it failed.
    public var failure: String?
    /// Who uploaded it.
    public var uploaderID: String?
    /// The uploader's user name, when the account still exists.
    public var uploaderName: String?
    /// When it was uploaded.
    public var createdAt: Date
    /// When it went to the trash.
    public var trashedAt: Date?

    /// Creates an asset record.
    public init(
        id: String = UUID().uuidString.lowercased(), name: String, format: String, contentHash: String, size: Int,
        status: Status = .processing, summary: String? = nil, failure: String? = nil, uploaderID: String?,
        uploaderName: String? = nil, createdAt: Date = Date(), trashedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.format = format
        self.contentHash = contentHash
        self.size = size
        self.status = status
        self.summary = summary
        self.failure = failure
        self.uploaderID = uploaderID
        self.uploaderName = uploaderName
        self.createdAt = createdAt
        self.trashedAt = trashedAt
    }
}

extension Store {
    /// The orders a gallery can be listed in.
    public enum AssetOrder: String, Sendable, CaseIterable {
        /// By name, A to Z (case-insensitive), then newest first.
        case name
        /// Newest first.
        case date
    }

    /// Saves a new asset record.
    public func addAsset(projectID: String, _ asset: Asset) async throws(StoreError) -> Asset {
        var asset = asset
        asset.createdAt = asset.createdAt.storePrecision
        try await transaction { [asset] database in
            try await database.raw(
                """
                INSERT INTO assets (id, project_id, name, format, content_hash, size, status, summary, failure, uploader_id, created_at)
                VALUES (\(bind: asset.id), \(bind: projectID), \(bind: asset.name), \(bind: asset.format), \(bind: asset.contentHash),
                        \(bind: asset.size), \(bind: asset.status.rawValue), \(bind: asset.summary), \(bind: asset.failure),
                        \(bind: asset.uploaderID), \(bind: asset.createdAt.timeIntervalSince1970))
                """
            ).run()
        }
        return try await self.asset(projectID: projectID, id: asset.id, includingTrashed: true) ?? asset
    }

    /// A project's assets, in the trash or out of it.
    public func assets(projectID: String, trashed: Bool = false, order: AssetOrder = .name) async throws(StoreError)
        -> [Asset]
    {
        try await withDatabase { database in
            let filter: SQLQueryString = trashed ? "a.trashed_at IS NOT NULL" : "a.trashed_at IS NULL"
            let sort: SQLQueryString =
                order == .name ? "LOWER(a.name), a.created_at DESC, a.id" : "a.created_at DESC, a.id"
            return try await database.raw(
                "\(Self.assetsWithUploaders) WHERE a.project_id = \(bind: projectID) AND \(filter) ORDER BY \(sort)"
            )
            .all().map(Self.asset)
        }
    }

    /// One asset, or `nil` (assets in the trash only when `includingTrashed`).
    public func asset(projectID: String, id: String, includingTrashed: Bool = false) async throws(StoreError) -> Asset?
    {
        try await withDatabase { database in
            let filter: SQLQueryString = includingTrashed ? "1 = 1" : "a.trashed_at IS NULL"
            return try await database.raw(
                "\(Self.assetsWithUploaders) WHERE a.project_id = \(bind: projectID) AND a.id = \(bind: id) AND \(filter)"
            )
            .first().map(Self.asset)
        }
    }

    /// Renames an asset out of the trash; returns whether it exists.
    public func renameAsset(projectID: String, id: String, to name: String) async throws(StoreError) -> Bool {
        try await updateAsset(projectID: projectID, id: id, "name = \(bind: name)", where: "trashed_at IS NULL")
    }

    /// Records what processing found.
    public func finishAsset(id: String, status: Asset.Status, summary: String?, failure: String?)
        async throws(StoreError)
    {
        try await transaction { database in
            try await database.raw(
                """
                UPDATE assets SET status = \(bind: status.rawValue), summary = \(bind: summary), failure = \(bind: failure) WHERE id = \(bind: id)
                """
            ).run()
        }
    }

    /// Moves an asset to the trash; returns whether it was out of it.
    public func trashAsset(projectID: String, id: String, at date: Date = Date()) async throws(StoreError) -> Bool {
        try await updateAsset(
            projectID: projectID, id: id, "trashed_at = \(bind: date.storePrecision.timeIntervalSince1970)",
            where: "trashed_at IS NULL")
    }

    /// Takes an asset out of the trash; returns whether it was in it.
    public func restoreAsset(projectID: String, id: String) async throws(StoreError) -> Bool {
        try await updateAsset(projectID: projectID, id: id, "trashed_at = NULL", where: "trashed_at IS NOT NULL")
    }

    private func updateAsset(projectID: String, id: String, _ set: SQLQueryString, where condition: SQLQueryString)
        async throws(StoreError) -> Bool
    {
        try await transaction { database in
            let found =
                try await database.raw(
                    """
                    SELECT id FROM assets WHERE project_id = \(bind: projectID) AND id = \(bind: id) AND \(condition)
                    """
                ).first() != nil
            if found {
                try await database.raw(
                    "UPDATE assets SET \(set) WHERE project_id = \(bind: projectID) AND id = \(bind: id)"
                ).run()
            }
            return found
        }
    }

    /// Assets still processing (at start, those a stopped server left unfinished), oldest first,
    /// with how often their processing started.
    public func unfinishedAssets() async throws(StoreError) -> [(projectID: String, asset: Asset, attempts: Int)] {
        try await withDatabase { database in
            try await database.raw("\(Self.assetsWithUploaders) WHERE a.status = 'processing' ORDER BY a.created_at")
                .all().map {
                    (
                        try $0.decode(column: "project_id", as: String.self), try Self.asset($0),
                        try $0.decode(column: "attempts", as: Int.self)
                    )
                }
        }
    }

    /// Counts one more start of an asset's processing (`by: -1` takes back one a stopping server
    /// interrupted on purpose); returns how many starts are counted now.
    @discardableResult
    public func countAssetAttempt(id: String, by change: Int = 1) async throws(StoreError) -> Int {
        try await transaction { database in
            try await database.raw(
                """
                UPDATE assets SET attempts = CASE WHEN attempts + \(bind: change) < 0 THEN 0 ELSE attempts + \(bind: change) END WHERE id = \(bind: id)
                """
            ).run()
            return try await database.raw("SELECT attempts FROM assets WHERE id = \(bind: id)").first(
                decodingColumn: "attempts", as: Int.self) ?? 0
        }
    }

    /// Deletes for good the assets trashed before `cutoff`; returns how many.
    @discardableResult
    public func purgeTrashedAssets(before cutoff: Date) async throws(StoreError) -> Int {
        try await transaction { database in
            let count =
                try await database.raw(
                    """
                    SELECT COUNT(*) AS count FROM assets WHERE trashed_at IS NOT NULL AND trashed_at < \(bind: cutoff.timeIntervalSince1970)
                    """
                ).first(decodingColumn: "count", as: Int.self) ?? 0
            try await database.raw(
                "DELETE FROM assets WHERE trashed_at IS NOT NULL AND trashed_at < \(bind: cutoff.timeIntervalSince1970)"
            ).run()
            return count
        }
    }

    /// The content hashes some asset (in the trash or not) still refers to.
    public func assetHashesInUse() async throws(StoreError) -> Set<String> {
        try await withDatabase { database in
            Set(
                try await database.raw("SELECT DISTINCT content_hash FROM assets").all().map {
                    try $0.decode(column: "content_hash", as: String.self)
                })
        }
    }

    /// Assets (`a`) with their uploader's user name, for the queries to filter and order.
    private static let assetsWithUploaders: SQLQueryString =
        "SELECT a.*, u.username FROM assets a LEFT JOIN accounts u ON u.id = a.uploader_id"

    static func asset(_ row: any SQLRow) throws -> Asset {
        func optional<T: Decodable>(_ column: String, _ type: T.Type) throws -> T? {
            try row.decodeNil(column: column) ? nil : try row.decode(column: column, as: type)
        }
        return Asset(
            id: try row.decode(column: "id", as: String.self), name: try row.decode(column: "name", as: String.self),
            format: try row.decode(column: "format", as: String.self),
            contentHash: try row.decode(column: "content_hash", as: String.self),
            size: try row.decode(column: "size", as: Int.self),
            status: Asset.Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .failed,
            summary: try optional("summary", String.self), failure: try optional("failure", String.self),
            uploaderID: try optional("uploader_id", String.self), uploaderName: try optional("username", String.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            trashedAt: try optional("trashed_at", Double.self).map(Date.init(timeIntervalSince1970:)))
    }
}
