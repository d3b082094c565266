public import Foundation
import SQLKit

extension Store {
    /// The most annotations one room keeps; placing more is refused (they stay until deleted).
    public static let annotationsPerRoom = 1_000

    /// Places an annotation. A retry with the same `clientID` returns the first one, unchanged.
    /// `annotation.author` is the username of `authorID` (what reading it back gives).
    /// - Returns: the annotation as stored, and whether this call created it.
    /// - Throws: ``StoreError`` `conflict` when the room already holds ``annotationsPerRoom``.
    public func placeAnnotation(projectID: String, _ annotation: Annotation, authorID: String?) async throws(StoreError) -> (annotation: Annotation, created: Bool) {
        var annotation = annotation
        annotation.createdAt = annotation.createdAt.storePrecision
        let cache = cache
        let placed: (annotation: Annotation, created: Bool)
        do {
            placed = try await placing(annotation, projectID: projectID, authorID: authorID, cache: cache)
        } catch {
            cache.forgetItem(projectID: projectID, id: annotation.id)
            throw error
        }
        return placed
    }

    private func placing(_ annotation: Annotation, projectID: String, authorID: String?, cache: ReadCache) async throws(StoreError) -> (annotation: Annotation, created: Bool) {
        try await recordingTransaction(lock: "annotations:\(projectID)") { [annotation] database, events in
            if let clientID = annotation.clientID, let earlier = try await database.raw("""
                SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
                WHERE project_id = \(bind: projectID) AND client_id = \(bind: clientID)
                """).first().map(Self.annotation) {
                return (earlier, false)
            }
            let count = try await database.raw("""
                SELECT COUNT(*) AS count FROM annotations WHERE project_id = \(bind: projectID) AND room = \(bind: annotation.room)
                """).first(decodingColumn: "count", as: Int.self) ?? 0
            guard count < Self.annotationsPerRoom else {
                throw StoreError(.conflict, "the room '\(annotation.room)' holds \(Self.annotationsPerRoom) annotations, the most it keeps; delete some first",
                                 location: "rooms/\(annotation.room)")
            }
            try await database.raw("""
                INSERT INTO annotations (id, project_id, room, x, y, z, text, frame, author_id, created_at, client_id) VALUES
                (\(bind: annotation.id), \(bind: projectID), \(bind: annotation.room), \(bind: annotation.x), \(bind: annotation.y), \(bind: annotation.z),
                 \(bind: annotation.text), \(bind: annotation.frame), \(bind: authorID), \(bind: annotation.createdAt.timeIntervalSince1970),
                 \(bind: annotation.clientID))
                """).run()
            try await events.record(.annotationAdded, projectID: projectID, subject: annotation.id, detail: annotation.room, on: database)
            // Kept before the event is announced, so the live streams need not read it back.
            cache.remember(annotation, projectID: projectID)
            return (annotation, true)
        }
    }

    /// A project's annotations (of one room, if given), oldest first.
    public func annotations(projectID: String, room: String? = nil) async throws(StoreError) -> [Annotation] {
        try await withDatabase { database in
            let rows: [any SQLRow]
            if let room {
                rows = try await database.raw("""
                    SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
                    WHERE project_id = \(bind: projectID) AND room = \(bind: room) ORDER BY created_at, annotations.id
                    """).all()
            } else {
                rows = try await database.raw("""
                    SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
                    WHERE project_id = \(bind: projectID) ORDER BY created_at, annotations.id
                    """).all()
            }
            return try rows.map(Self.annotation)
        }
    }

    /// One annotation, or `nil`.
    public func annotation(projectID: String, id: String) async throws(StoreError) -> Annotation? {
        if let recent = cache.annotation(projectID: projectID, id: id) { return recent }
        return try await withDatabase { database in
            try await database.raw("""
                SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
                WHERE project_id = \(bind: projectID) AND annotations.id = \(bind: id)
                """).first().map(Self.annotation)
        }
    }

    /// Deletes an annotation; returns whether it existed.
    public func deleteAnnotation(projectID: String, id: String) async throws(StoreError) -> Bool {
        let room = try await annotation(projectID: projectID, id: id)?.room
        guard let room else { return false }
        cache.forgetItem(projectID: projectID, id: id)
        return try await deleteRow(from: "annotations", projectID: projectID, id: id, announcing: .annotationDeleted, detail: room)
    }

    private static func annotation(_ row: any SQLRow) throws -> Annotation {
        Annotation(id: try row.decode(column: "id", as: String.self), room: try row.decode(column: "room", as: String.self),
                   x: try row.decode(column: "x", as: Double.self), y: try row.decode(column: "y", as: Double.self),
                   z: try row.decode(column: "z", as: Double.self), text: try row.decode(column: "text", as: String?.self),
                   frame: try row.decode(column: "frame", as: Int64?.self), author: try row.decode(column: "username", as: String?.self),
                   createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
                   clientID: try row.decode(column: "client_id", as: String?.self))
    }
}

