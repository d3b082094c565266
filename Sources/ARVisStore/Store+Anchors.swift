public import Foundation
import SQLKit

extension Store {
    /// The most anchors one device session keeps unless the project says otherwise (Bubble Vision's cap).
    public static let defaultAnchorsPerSession = 100
    /// The caps a project may set.
    public static let anchorsPerSessionRange = 1...1_000

    /// Saves an anchor; when its session then holds more than the project's
    /// ``Project/anchorsPerSession``, the oldest go (each announced as deleted).
    public func saveAnchor(projectID: String, _ anchor: Anchor) async throws(StoreError) -> Anchor {
        var anchor = anchor
        anchor.createdAt = anchor.createdAt.storePrecision
        anchor.expiresAt = anchor.expiresAt.storePrecision
        try await recordingTransaction(lock: "anchors:\(projectID)") { [anchor] database, events in
            try await database.raw(
                """
                INSERT INTO anchors (id, project_id, session, pose, payload, created_at, expires_at) VALUES
                (\(bind: anchor.id), \(bind: projectID), \(bind: anchor.session), \(bind: Self.poseText(anchor.pose)),
                 \(bind: anchor.payload.map { Data($0) }), \(bind: anchor.createdAt.timeIntervalSince1970), \(bind: anchor.expiresAt.timeIntervalSince1970))
                """
            ).run()
            try await events.record(.anchorSaved, projectID: projectID, subject: anchor.id, on: database)
            guard let session = anchor.session else { return }
            let cap =
                try await database.raw("SELECT anchors_per_session FROM projects WHERE id = \(bind: projectID)")
                .first(decodingColumn: "anchors_per_session", as: Int.self) ?? Self.defaultAnchorsPerSession
            // The evicted go as a deletion does, announced, so every device drops them too.
            let evicted = try await database.raw(
                """
                SELECT id FROM anchors WHERE project_id = \(bind: projectID) AND session = \(bind: session) AND id NOT IN (
                    SELECT id FROM anchors WHERE project_id = \(bind: projectID) AND session = \(bind: session)
                    ORDER BY created_at DESC, id DESC LIMIT \(bind: cap))
                """
            ).all().map { try $0.decode(column: "id", as: String.self) }
            try await Self.deleteAnchors(evicted, projectID: projectID, on: database, events)
        }
        return anchor
    }

    /// A project's live anchors (of one session, if given), oldest first.
    public func anchors(projectID: String, session: String? = nil, now: Date = Date()) async throws(StoreError)
        -> [Anchor]
    {
        try await withDatabase { database in
            let rows: [any SQLRow]
            if let session {
                rows = try await database.raw(
                    """
                    SELECT * FROM anchors WHERE project_id = \(bind: projectID) AND session = \(bind: session)
                    AND expires_at > \(bind: now.timeIntervalSince1970) ORDER BY created_at, id
                    """
                ).all()
            } else {
                rows = try await database.raw(
                    """
                    SELECT * FROM anchors WHERE project_id = \(bind: projectID) AND expires_at > \(bind: now.timeIntervalSince1970) ORDER BY created_at, id
                    """
                ).all()
            }
            return try rows.map(Self.anchor)
        }
    }

    /// One live anchor, or `nil`.
    public func anchor(projectID: String, id: String, now: Date = Date()) async throws(StoreError) -> Anchor? {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT * FROM anchors WHERE project_id = \(bind: projectID) AND id = \(bind: id) AND expires_at > \(bind: now.timeIntervalSince1970)
                """
            ).first().map(Self.anchor)
        }
    }

    /// Deletes every anchor of a project whose payload is a JSON object with one of `kinds` as its
    /// `kind` (a bubble's `pane` or `trail`), announcing each; returns how many.
    public func deleteAnchors(projectID: String, kinds: Set<String>) async throws(StoreError) -> Int {
        try await recordingTransaction(lock: "anchors:\(projectID)") { database, events in
            let rows = try await database.raw("SELECT id, payload FROM anchors WHERE project_id = \(bind: projectID)")
                .all()
            let ids = try rows.compactMap { row -> String? in
                guard try !row.decodeNil(column: "payload"),
                    let payload = try? JSONDecoder().decode(
                        Kinded.self, from: row.decode(column: "payload", as: Data.self)),
                    let kind = payload.kind, kinds.contains(kind)
                else { return nil }
                return try row.decode(column: "id", as: String.self)
            }
            try await Self.deleteAnchors(ids, projectID: projectID, on: database, events)
            return ids.count
        }
    }

    /// A payload's `kind`, if it has one.
    private struct Kinded: Decodable {
        var kind: String?
    }

    /// Deletes anchors `ids` of a project and announces each.
    private static func deleteAnchors(
        _ ids: [String], projectID: String, on database: any SQLDatabase, _ events: EventRecorder
    ) async throws {
        for id in ids {
            try await database.raw("DELETE FROM anchors WHERE project_id = \(bind: projectID) AND id = \(bind: id)")
                .run()
        }
        try await events.record(ids.map { (.anchorDeleted, $0, nil) }, projectID: projectID, on: database)
    }

    /// Deletes an anchor; returns whether it existed.
    public func deleteAnchor(projectID: String, id: String) async throws(StoreError) -> Bool {
        try await deleteRow(from: "anchors", projectID: projectID, id: id, announcing: .anchorDeleted)
    }

    /// Deletes every anchor past its lifetime; returns how many.
    @discardableResult
    public func purgeExpiredAnchors(now: Date = Date()) async throws(StoreError) -> Int {
        try await transaction { database in
            let count =
                try await database.raw(
                    "SELECT COUNT(*) AS count FROM anchors WHERE expires_at <= \(bind: now.timeIntervalSince1970)"
                )
                .first(decodingColumn: "count", as: Int.self) ?? 0
            try await database.raw("DELETE FROM anchors WHERE expires_at <= \(bind: now.timeIntervalSince1970)").run()
            return count
        }
    }

    /// The pose as stored: seven numbers, comma-separated, exactly as Swift prints them (round-trips).
    private static func poseText(_ pose: [Double]) -> String {
        pose.map { "\($0)" }.joined(separator: ",")
    }

    private static func anchor(_ row: any SQLRow) throws -> Anchor {
        Anchor(
            id: try row.decode(column: "id", as: String.self),
            session: try row.decodeNil(column: "session") ? nil : try row.decode(column: "session", as: String.self),
            pose: try row.decode(column: "pose", as: String.self).split(separator: ",").compactMap { Double($0) },
            payload: try row.decodeNil(column: "payload")
                ? nil : [UInt8](try row.decode(column: "payload", as: Data.self)),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            expiresAt: Date(timeIntervalSince1970: try row.decode(column: "expires_at", as: Double.self)))
    }
}
