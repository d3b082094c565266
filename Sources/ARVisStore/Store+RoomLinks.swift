public import Foundation
import SQLKit

/// A link an owner gives a device so it can share its view in one room of a project, as the room's
/// publisher, until it expires; kept by the hash of its token.
public struct RoomLink: Sendable, Hashable {
    /// The project's id.
    public var projectID: String
    /// The room it opens.
    public var room: String
    /// The spec whose phone page the link opens, if any.
    public var spec: String?
    /// When it stops working.
    public var expiresAt: Date
    /// The account that made it (it works while that account owns the project), or `nil` once
    /// that account is deleted.
    public var creatorID: String?

    /// Creates a link's record.
    public init(projectID: String, room: String, spec: String?, expiresAt: Date, creatorID: String?) {
        self.projectID = projectID
        self.room = room
        self.spec = spec
        self.expiresAt = expiresAt
        self.creatorID = creatorID
    }
}

extension Store {
    /// Records a room link (its token's hash only).
    public func createRoomLink(_ link: RoomLink, tokenHash: String) async throws(StoreError) {
        try await withDatabase { database in
            try await database.raw(
                """
                INSERT INTO room_links (token_hash, project_id, room, spec, creator_id, expires_at)
                VALUES (\(bind: tokenHash), \(bind: link.projectID), \(bind: link.room), \(bind: link.spec), \(bind: link.creatorID), \(bind: link.expiresAt.storePrecision.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// The room link a token hash names, expired or not (the caller says which), or `nil`.
    public func roomLink(tokenHash: String) async throws(StoreError) -> RoomLink? {
        try await withDatabase { database in
            guard
                let row = try await database.raw(
                    "SELECT project_id, room, spec, expires_at, creator_id FROM room_links WHERE token_hash = \(bind: tokenHash)"
                ).first()
            else { return nil }
            return RoomLink(
                projectID: try row.decode(column: "project_id", as: String.self),
                room: try row.decode(column: "room", as: String.self),
                spec: try row.decode(column: "spec", as: String?.self),
                expiresAt: Date(timeIntervalSince1970: try row.decode(column: "expires_at", as: Double.self)),
                creatorID: try row.decode(column: "creator_id", as: String?.self))
        }
    }

    /// Forgets the links that expired before `date`.
    public func deleteRoomLinks(expiredBefore date: Date) async throws(StoreError) {
        try await withDatabase { database in
            try await database.raw(
                "DELETE FROM room_links WHERE expires_at < \(bind: date.timeIntervalSince1970)"
            ).run()
        }
    }
}
