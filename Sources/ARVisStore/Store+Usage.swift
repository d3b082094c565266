import SQLKit

/// How much a project holds, for the quotas the server enforces.
public struct ProjectUsage: Sendable, Hashable {
    /// Saved anchors (expired ones not yet purged included).
    public var anchors: Int
    /// Bytes of uploaded assets, the trash included.
    public var assetBytes: Int
    /// Dataset rows over every dataset.
    public var rows: Int
    /// Bytes of those rows, as stored (compact JSON).
    public var rowBytes: Int
    /// Spec versions over every spec.
    public var versions: Int
    /// Annotations over every room.
    public var annotations = 0
    /// Planted trees.
    public var trees = 0
    /// Planting areas.
    public var areas = 0
    /// Saved plans.
    public var plans = 0
    /// Room links, expired ones not yet purged included.
    public var roomLinks = 0
}

extension Store {
    /// What project `projectID` holds now.
    public func usage(projectID: String) async throws(StoreError) -> ProjectUsage {
        // A row's bytes, not its characters: SQLite's LENGTH of text counts characters.
        let bytes = engine == .sqlite ? "LENGTH(CAST(row AS BLOB))" : "OCTET_LENGTH(row)"
        return try await withDatabase { database in
            let row = try await database.raw(
                """
                SELECT (SELECT COUNT(*) FROM anchors WHERE project_id = \(bind: projectID)) AS anchors,
                (SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM assets WHERE project_id = \(bind: projectID)) AS asset_bytes,
                (SELECT COUNT(*) FROM dataset_rows WHERE project_id = \(bind: projectID)) AS row_count,
                (SELECT CAST(COALESCE(SUM(\(unsafeRaw: bytes)), 0) AS BIGINT)
                    FROM dataset_rows WHERE project_id = \(bind: projectID)) AS row_bytes,
                (SELECT COUNT(*) FROM spec_versions WHERE project_id = \(bind: projectID)) AS versions,
                (SELECT COUNT(*) FROM annotations WHERE project_id = \(bind: projectID)) AS annotations,
                (SELECT COUNT(*) FROM trees WHERE project_id = \(bind: projectID)) AS trees,
                (SELECT COUNT(*) FROM areas WHERE project_id = \(bind: projectID)) AS areas,
                (SELECT COUNT(*) FROM plans WHERE project_id = \(bind: projectID)) AS plans,
                (SELECT COUNT(*) FROM room_links WHERE project_id = \(bind: projectID)) AS room_links
                """
            ).first()
            guard let row else { return ProjectUsage(anchors: 0, assetBytes: 0, rows: 0, rowBytes: 0, versions: 0) }
            return ProjectUsage(
                anchors: try row.decode(column: "anchors", as: Int.self),
                assetBytes: try row.decode(column: "asset_bytes", as: Int.self),
                rows: try row.decode(column: "row_count", as: Int.self),
                rowBytes: try row.decode(column: "row_bytes", as: Int.self),
                versions: try row.decode(column: "versions", as: Int.self),
                annotations: try row.decode(column: "annotations", as: Int.self),
                trees: try row.decode(column: "trees", as: Int.self),
                areas: try row.decode(column: "areas", as: Int.self),
                plans: try row.decode(column: "plans", as: Int.self),
                roomLinks: try row.decode(column: "room_links", as: Int.self))
        }
    }

    /// How many projects account `accountID` owns, the trashed ones included.
    public func ownedProjectCount(accountID: String) async throws(StoreError) -> Int {
        try await withDatabase { database in
            try await database.raw(
                "SELECT COUNT(*) AS count FROM members WHERE account_id = \(bind: accountID) AND role = 'owner'"
            ).first(decodingColumn: "count", as: Int.self) ?? 0
        }
    }
}

extension Store {
    /// The server's secret named `name` (hex), made from `fresh` the first time it is asked for and
    /// the same for every instance sharing this database from then on.
    public func serverSecret(named name: String, fresh: @Sendable () -> String) async throws(StoreError) -> String {
        let candidate = fresh()
        return try await transaction { database in
            try await database.raw(
                "INSERT INTO server_secrets (name, secret) VALUES (\(bind: name), \(bind: candidate)) ON CONFLICT (name) DO NOTHING"
            ).run()
            return try await database.raw("SELECT secret FROM server_secrets WHERE name = \(bind: name)").first(
                decodingColumn: "secret", as: String.self) ?? candidate
        }
    }
}
