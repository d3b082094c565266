public import ARVisSupport
public import Foundation
import SQLKit

/// A link an owner gives a device so it can share its view in one room of a project, as the room's
/// publisher, until it expires; kept by the hash of its token.
public struct RoomLink: Sendable, Hashable {
    /// The link's id within its project: what an owner withdraws it by (never its token).
    public var id: String
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
    public init(
        id: String = UUID().uuidString.lowercased(), projectID: String, room: String, spec: String?, expiresAt: Date,
        creatorID: String?
    ) {
        self.id = id
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
                INSERT INTO room_links (token_hash, id, project_id, room, spec, creator_id, expires_at)
                VALUES (\(bind: tokenHash), \(bind: link.id), \(bind: link.projectID), \(bind: link.room), \(bind: link.spec), \(bind: link.creatorID), \(bind: link.expiresAt.storePrecision.timeIntervalSince1970))
                """
            ).run()
        }
    }

    /// The room link a token hash names, expired or not (the caller says which), or `nil`.
    public func roomLink(tokenHash: String) async throws(StoreError) -> RoomLink? {
        try await withDatabase { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.roomLinkColumns) FROM room_links WHERE token_hash = \(bind: tokenHash)"
            ).first().map(Self.roomLink)
        }
    }

    /// A room's links that have not expired by `now`, soonest to expire first, each with its maker's
    /// username (`nil` once that account is deleted).
    public func roomLinks(projectID: String, room: String, now: Date = Date()) async throws(StoreError)
        -> [(link: RoomLink, creator: String?)]
    {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.roomLinkColumns), accounts.username AS creator
                FROM room_links LEFT JOIN accounts ON accounts.id = room_links.creator_id
                WHERE project_id = \(bind: projectID) AND room = \(bind: room) AND expires_at > \(bind: now.timeIntervalSince1970)
                ORDER BY expires_at, room_links.id
                """
            ).all().map { row in (try Self.roomLink(row), try row.decode(column: "creator", as: String?.self)) }
        }
    }

    /// Withdraws a room's link: it stops working at once, and the live clients that joined with it
    /// are checked again (an ``StoreEvent/Kind/accessChanged`` for its maker, or for everyone).
    /// - Throws: ``StoreError`` `notFound` when the room has no link with this id.
    public func deleteRoomLink(projectID: String, room: String, id: String) async throws(StoreError) {
        try await recordingTransaction { database, recorder in
            guard
                let row = try await database.raw(
                    """
                    DELETE FROM room_links WHERE project_id = \(bind: projectID) AND room = \(bind: room) AND id = \(bind: id)
                    RETURNING creator_id
                    """
                ).first()
            else {
                throw StoreError(.notFound, "room '\(room)' has no link '\(id)'", location: "rooms/\(room)/links/\(id)")
            }
            try await recorder.record(
                .accessChanged, projectID: projectID,
                subject: try row.decode(column: "creator_id", as: String?.self) ?? "*",
                detail: "room link withdrawn", on: database)
        }
    }

    private static let roomLinkColumns =
        "room_links.id, project_id, room, spec, expires_at, creator_id"

    private static func roomLink(_ row: any SQLRow) throws -> RoomLink {
        RoomLink(
            id: try row.decode(column: "id", as: String.self),
            projectID: try row.decode(column: "project_id", as: String.self),
            room: try row.decode(column: "room", as: String.self),
            spec: try row.decode(column: "spec", as: String?.self),
            expiresAt: Date(timeIntervalSince1970: try row.decode(column: "expires_at", as: Double.self)),
            creatorID: try row.decode(column: "creator_id", as: String?.self))
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
