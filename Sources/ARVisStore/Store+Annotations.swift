public import ARVisSupport
import Foundation
import NIOConcurrencyHelpers
import SQLKit

extension Store {
    /// The most annotations one room keeps; placing more is refused (they stay until deleted).
    public static let annotationsPerRoom = 1_000

    /// Places an annotation. A retry with the same `clientID` returns the first one, unchanged.
    /// `annotation.author` is the username of `authorID` (what reading it back gives).
    ///
    /// Annotations placed at the same moment in a project (every room's experts tapping) are written
    /// in one transaction, each with its event: one commit instead of one each.
    /// - Returns: the annotation as stored, and whether this call created it.
    /// - Throws: ``StoreError`` `conflict` when the room already holds ``annotationsPerRoom``.
    public func placeAnnotation(projectID: String, _ annotation: Annotation, authorID: String?) async throws(StoreError)
        -> (annotation: Annotation, created: Bool)
    {
        var annotation = annotation
        annotation.createdAt = annotation.createdAt.storePrecision
        let request = AnnotationWrites.Request(projectID: projectID, annotation: annotation, authorID: authorID)
        return try await annotationWrites.place(request, in: self).get()
    }

    /// Writes a batch of one project's annotations in one transaction; each gets its own outcome (a
    /// full room refuses only its own annotation).
    func write(_ batch: [AnnotationWrites.Request]) async -> [AnnotationWrites.Outcome] {
        guard let projectID = batch.first?.projectID else { return [] }
        do {
            return engine == .postgres
                ? try await writeInOneCall(batch, projectID: projectID)
                : try await writeStatementByStatement(batch, projectID: projectID)
        } catch {
            for request in batch { cache.forgetItem(projectID: projectID, id: request.annotation.id) }
            return batch.map { _ in .failure(error) }
        }
    }

    /// The refusal of an annotation for a room holding ``annotationsPerRoom``.
    private static func roomFull(_ room: String) -> StoreError {
        StoreError(
            .conflict,
            "the room '\(room)' holds \(annotationsPerRoom) annotations, the most it keeps; delete some first",
            location: "rooms/\(room)")
    }

    /// The batch with a statement for the whole batch at each step (so a batch costs a few round trips
    /// to the database, not a few per tap).
    private func writeStatementByStatement(_ batch: [AnnotationWrites.Request], projectID: String)
        async throws(StoreError) -> [AnnotationWrites.Outcome]
    {
        let cache = cache
        return try await recordingTransaction(lock: "annotations:\(projectID)") { database, events in
            var placed = try await Self.placedEarlier(batch, projectID: projectID, on: database)
            var counts = try await Self.annotationCounts(
                rooms: Set(batch.map(\.annotation.room)), projectID: projectID, on: database)
            var outcomes: [AnnotationWrites.Outcome] = []
            var new: [AnnotationWrites.Request] = []
            for request in batch {
                let annotation = request.annotation
                if let clientID = annotation.clientID, let earlier = placed[clientID] {
                    outcomes.append(.success((earlier, false)))
                } else if counts[annotation.room, default: 0] >= Self.annotationsPerRoom {
                    outcomes.append(.failure(Self.roomFull(annotation.room)))
                } else {
                    counts[annotation.room, default: 0] += 1
                    if let clientID = annotation.clientID { placed[clientID] = annotation }
                    new.append(request)
                    outcomes.append(.success((annotation, true)))
                }
            }
            guard !new.isEmpty else { return outcomes }
            try await Self.insert(new, projectID: projectID, on: database)
            try await events.record(
                new.map { (.annotationAdded, subject: $0.annotation.id, detail: $0.annotation.room) },
                projectID: projectID, on: database)
            // Kept before the events are announced, so the live streams need not read them back.
            for request in new { cache.remember(request.annotation, projectID: projectID) }
            return outcomes
        }
    }

    /// The batch on PostgreSQL: one call of `arvis_place_annotations_1` (``Migrations/postgresFunctions``),
    /// which applies the rules of ``writeStatementByStatement(_:projectID:)`` inside the database, so
    /// the batch costs one round trip, not nine.
    private func writeInOneCall(_ batch: [AnnotationWrites.Request], projectID: String)
        async throws(StoreError) -> [AnnotationWrites.Outcome]
    {
        let createdAt = Date().storePrecision
        let traceParent = TraceParent.current
        let items: String
        do {
            items = String(decoding: try JSONEncoder().encode(batch.map(PlacedItem.init)), as: UTF8.self)
        } catch {
            throw StoreError(.invalid, "an annotation cannot be written: \(error)")
        }
        let rows = try await withDatabase { database in
            try await database.raw(
                """
                SELECT * FROM arvis_place_annotations_1(\(bind: projectID), \(bind: items)::JSONB, \(bind: Self.annotationsPerRoom),
                    \(bind: StoreEvent.Kind.annotationAdded.rawValue), \(bind: createdAt.timeIntervalSince1970),
                    \(bind: traceParent), \(bind: Self.eventChannel))
                """
            ).all()
        }
        guard rows.count == batch.count else {
            throw StoreError(
                .unavailable, "the database answered \(rows.count) outcomes for \(batch.count) annotations")
        }
        var outcomes: [AnnotationWrites.Outcome] = []
        var events: [StoreEvent] = []
        do {
            for (request, row) in zip(batch, rows) {
                let annotation = request.annotation
                switch try row.decode(column: "o_status", as: String.self) {
                case "created":
                    cache.remember(annotation, projectID: projectID)
                    events.append(
                        StoreEvent(
                            sequence: try row.decode(column: "o_seq", as: Int64.self), projectID: projectID,
                            kind: .annotationAdded, subject: annotation.id, detail: annotation.room,
                            createdAt: createdAt, traceParent: traceParent))
                    outcomes.append(.success((annotation, true)))
                case "earlier":
                    outcomes.append(.success((try Self.annotation(row, prefix: "o_"), false)))
                default:
                    outcomes.append(.failure(Self.roomFull(annotation.room)))
                }
            }
        } catch {
            throw Self.storeError(error)
        }
        deliverOwn(events.sorted { $0.sequence < $1.sequence })
        return outcomes
    }

    /// The annotations already placed under the client ids of `batch`, by client id: a retry is
    /// answered with the stored one.
    private static func placedEarlier(
        _ batch: [AnnotationWrites.Request], projectID: String, on database: any SQLDatabase
    ) async throws -> [String: Annotation] {
        let clientIDs = Array(Set(batch.compactMap(\.annotation.clientID))).sorted()
        guard !clientIDs.isEmpty else { return [:] }
        let rows = try await database.raw(
            """
            SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
            WHERE project_id = \(bind: projectID) AND client_id IN (\(binds: clientIDs))
            """
        ).all()
        var placed: [String: Annotation] = [:]
        for annotation in try rows.map(annotation) {
            if let clientID = annotation.clientID { placed[clientID] = annotation }
        }
        return placed
    }

    /// How many annotations each of `rooms` holds.
    private static func annotationCounts(rooms: Set<String>, projectID: String, on database: any SQLDatabase)
        async throws -> [String: Int]
    {
        let rows = try await database.raw(
            """
            SELECT room, COUNT(*) AS count FROM annotations
            WHERE project_id = \(bind: projectID) AND room IN (\(binds: rooms.sorted())) GROUP BY room
            """
        ).all()
        var counts: [String: Int] = [:]
        for row in rows {
            counts[try row.decode(column: "room", as: String.self)] = try row.decode(column: "count", as: Int.self)
        }
        return counts
    }

    /// Inserts `requests`' annotations in one statement.
    private static func insert(_ requests: [AnnotationWrites.Request], projectID: String, on database: any SQLDatabase)
        async throws
    {
        let rows = requests.map { request -> SQLQueryString in
            let annotation = request.annotation
            return """
                (\(bind: annotation.id), \(bind: projectID), \(bind: annotation.room), \(bind: annotation.x), \(bind: annotation.y), \(bind: annotation.z),
                 \(bind: annotation.text), \(bind: annotation.frame), \(bind: request.authorID), \(bind: annotation.createdAt.timeIntervalSince1970),
                 \(bind: annotation.clientID))
                """
        }
        try await database.raw(
            """
            INSERT INTO annotations (id, project_id, room, x, y, z, text, frame, author_id, created_at, client_id) VALUES
            """ + rows.joined(separator: ", ")
        ).run()
    }

    /// A project's annotations (of one room, if given), oldest first: at most `limit`, and only those
    /// after the annotation `after` (a page's last) when given.
    public func annotations(projectID: String, room: String? = nil, after: String? = nil, limit: Int = .max)
        async throws(StoreError) -> [Annotation]
    {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
                WHERE project_id = \(bind: projectID) AND (\(bind: room == nil) OR room = \(bind: room ?? ""))
                AND (\(bind: after == nil) OR (annotations.created_at, annotations.id) > (
                    SELECT created_at, id FROM annotations WHERE project_id = \(bind: projectID) AND id = \(bind: after ?? "")))
                ORDER BY annotations.created_at, annotations.id LIMIT \(bind: min(limit, Int(Int32.max)))
                """
            ).all().map(Self.annotation)
        }
    }

    /// One annotation, or `nil`.
    public func annotation(projectID: String, id: String) async throws(StoreError) -> Annotation? {
        if let recent = cache.annotation(projectID: projectID, id: id) { return recent }
        return try await withDatabase { database in
            try await database.raw(
                """
                SELECT annotations.*, accounts.username FROM annotations LEFT JOIN accounts ON accounts.id = annotations.author_id
                WHERE project_id = \(bind: projectID) AND annotations.id = \(bind: id)
                """
            ).first().map(Self.annotation)
        }
    }

    /// Deletes an annotation; returns whether it existed.
    public func deleteAnnotation(projectID: String, id: String) async throws(StoreError) -> Bool {
        let room = try await annotation(projectID: projectID, id: id)?.room
        guard let room else { return false }
        cache.forgetItem(projectID: projectID, id: id)
        return try await deleteRow(
            from: "annotations", projectID: projectID, id: id, announcing: .annotationDeleted, detail: room)
    }

    /// The annotation of a row of `annotations` joined with its author's `username`.
    private static func annotation(_ row: any SQLRow) throws -> Annotation {
        try annotation(row, prefix: "")
    }

    /// The annotation of a row whose columns' names start with `prefix` (`o_` in what
    /// `arvis_place_annotations_1` returns).
    private static func annotation(_ row: any SQLRow, prefix: String) throws -> Annotation {
        Annotation(
            id: try row.decode(column: prefix + "id", as: String.self),
            room: try row.decode(column: prefix + "room", as: String.self),
            x: try row.decode(column: prefix + "x", as: Double.self),
            y: try row.decode(column: prefix + "y", as: Double.self),
            z: try row.decode(column: prefix + "z", as: Double.self),
            text: try row.decode(column: prefix + "text", as: String?.self),
            frame: try row.decode(column: prefix + "frame", as: Int64?.self),
            author: try row.decode(column: prefix + "username", as: String?.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: prefix + "created_at", as: Double.self)),
            clientID: try row.decode(column: prefix + "client_id", as: String?.self))
    }
}

/// An annotation as `arvis_place_annotations_1` reads it from its JSON batch.
private struct PlacedItem: Encodable {
    var id: String
    var room: String
    var x: Double
    var y: Double
    var z: Double
    var text: String?
    var frame: Int64?
    var authorID: String?
    var createdAt: Double
    var clientID: String?

    init(_ request: AnnotationWrites.Request) {
        let annotation = request.annotation
        (id, room, x, y, z) = (annotation.id, annotation.room, annotation.x, annotation.y, annotation.z)
        (text, frame, authorID) = (annotation.text, annotation.frame, request.authorID)
        (createdAt, clientID) = (annotation.createdAt.timeIntervalSince1970, annotation.clientID)
    }
}

/// Gathers annotations placed while a write is running, and writes them together next: a commit
/// per batch, not per annotation (taps from many rooms arrive at once).
final class AnnotationWrites: Sendable {
    struct Request: Sendable {
        var projectID: String
        var annotation: Annotation
        var authorID: String?
    }

    /// What placing one annotation came to: the annotation as stored and whether this call created
    /// it, or why it was refused.
    typealias Outcome = Result<(annotation: Annotation, created: Bool), StoreError>
    private struct Waiting: Sendable {
        var request: Request
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private let state = NIOLockedValueBox<(waiting: [Waiting], writing: Bool)>(([], false))

    /// The most annotations one transaction writes.
    static let batchLimit = 256

    func place(_ request: Request, in store: Store) async -> Outcome {
        await withCheckedContinuation { continuation in
            let start = state.withLockedValue { state -> Bool in
                state.waiting.append(Waiting(request: request, continuation: continuation))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if start { Task { await self.drain(store) } }
        }
    }

    /// Writes batches until nothing waits: each time, the waiting requests of the first one's project.
    private func drain(_ store: Store) async {
        while true {
            let batch = state.withLockedValue { state -> [Waiting] in
                guard let project = state.waiting.first?.request.projectID else {
                    state.writing = false
                    return []
                }
                var batch: [Waiting] = []
                var rest: [Waiting] = []
                for waiting in state.waiting {
                    if waiting.request.projectID == project, batch.count < Self.batchLimit {
                        batch.append(waiting)
                    } else {
                        rest.append(waiting)
                    }
                }
                state.waiting = rest
                return batch
            }
            guard !batch.isEmpty else { return }
            let outcomes = await store.write(batch.map(\.request))
            for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(returning: outcome) }
        }
    }
}
