public import ARVisSupport
public import Foundation
import NIOConcurrencyHelpers
import PostgresNIO
import SQLKit

/// What changed in a project: one row of the event log, written in the same transaction as the
/// change, so a change that was acknowledged always has its event.
///
/// Only an id travels between server instances (PostgreSQL `NOTIFY` carries the sequence number);
/// the subject is read from the store.
public struct StoreEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A spec got a new version (`subject`: the spec's name; `detail`: the version).
        case specSaved
        /// A spec and its versions were deleted (`subject`: the name).
        case specDeleted
        /// An annotation was placed (`subject`: its id; `detail`: its room).
        case annotationAdded
        /// An annotation was deleted (`subject`: its id; `detail`: its room).
        case annotationDeleted
        /// A tree was planted (`subject`: its id).
        case treePlanted
        /// A tree was removed (`subject`: its id).
        case treeRemoved
        /// An anchor was saved (`subject`: its id).
        case anchorSaved
        /// An anchor was deleted (`subject`: its id).
        case anchorDeleted
        /// Rows were appended to a dataset (`subject`: its name; `detail`: `first-last` row sequence numbers).
        case rowsAppended
        /// Who may see or change the project changed (`subject`: the account whose access changed,
        /// or `*` for everyone's; `detail`: why): a member added, removed or given another role, the
        /// project's visibility changed, the project trashed or restored, an account signed out,
        /// changed its password or was deleted. Open live connections check their access again.
        case accessChanged
    }

    /// The position in the server-wide log: increasing, and on every instance the same.
    public var sequence: Int64
    /// The project it happened in.
    public var projectID: String
    /// What happened.
    public var kind: Kind
    /// What it happened to (see ``Kind``).
    public var subject: String
    /// More about it (see ``Kind``).
    public var detail: String?
    /// When.
    public var createdAt: Date
    /// The W3C `traceparent` of the request that caused it, when traces are on (``TraceParent``).
    public var traceParent: String? = nil
}

extension Store {
    /// The PostgreSQL channel events are announced on.
    static let eventChannel = "arvis_events"

    /// Every event committed from now on, in sequence order, on this instance and (on PostgreSQL)
    /// every other instance. The stream ends when the store closes.
    public func eventFeed() -> AsyncStream<StoreEvent> {
        feed.subscribe()
    }

    /// A project's events after `sequence`, oldest first, at most `limit` (what a client that
    /// reconnects has missed).
    public func events(projectID: String, after sequence: Int64, limit: Int = 1_000) async throws(StoreError)
        -> [StoreEvent]
    {
        try await withDatabase { database in
            try await database.raw(
                """
                SELECT * FROM events WHERE project_id = \(bind: projectID) AND seq > \(bind: sequence) ORDER BY seq LIMIT \(bind: limit)
                """
            ).all().compactMap(Self.event)
        }
    }

    /// The sequence number of the newest event (0 when there is none).
    public func lastEventSequence() async throws(StoreError) -> Int64 {
        try await withDatabase { database in
            try await database.raw("SELECT COALESCE(MAX(seq), 0) AS seq FROM events").first(
                decodingColumn: "seq", as: Int64.self) ?? 0
        }
    }

    /// The sequence number of the oldest event kept (0 when there is none): a client holding an
    /// older one may have missed events that were purged, and must start afresh.
    public func firstEventSequence() async throws(StoreError) -> Int64 {
        try await withDatabase { database in
            try await database.raw("SELECT COALESCE(MIN(seq), 0) AS seq FROM events").first(
                decodingColumn: "seq", as: Int64.self) ?? 0
        }
    }

    /// Deletes the events logged before `date`; returns how many. The newest event is always kept,
    /// so the sequence never restarts.
    @discardableResult
    public func purgeEvents(before date: Date) async throws(StoreError) -> Int {
        try await transaction { database in
            let newest =
                try await database.raw("SELECT COALESCE(MAX(seq), 0) AS seq FROM events").first(
                    decodingColumn: "seq", as: Int64.self) ?? 0
            let count =
                try await database.raw(
                    """
                    SELECT COUNT(*) AS count FROM events WHERE created_at < \(bind: date.timeIntervalSince1970) AND seq < \(bind: newest)
                    """
                ).first(decodingColumn: "count", as: Int.self) ?? 0
            try await database.raw(
                "DELETE FROM events WHERE created_at < \(bind: date.timeIntervalSince1970) AND seq < \(bind: newest)"
            ).run()
            return count
        }
    }

    /// Logs ``StoreEvent/Kind/accessChanged`` for `accountID` in every project it is a member of.
    static func recordAccessChanged(
        ofAccount accountID: String, because reason: String, on database: any SQLDatabase,
        _ recorder: EventRecorder
    ) async throws {
        let projects = try await database.raw(
            "SELECT project_id FROM members WHERE account_id = \(bind: accountID) ORDER BY project_id"
        )
        .all(decodingColumn: "project_id", as: String.self)
        for projectID in projects {
            try await recorder.record(
                .accessChanged, projectID: projectID, subject: accountID, detail: reason, on: database)
        }
    }

    /// Runs `work` in a transaction whose events are logged with it and announced once it commits.
    func recordingTransaction<T: Sendable>(
        lock: String? = nil, caller: String = #function,
        _ work: @escaping @Sendable (any SQLDatabase, EventRecorder) async throws -> T
    ) async throws(StoreError) -> T {
        let recorder = EventRecorder(engine: engine)
        let result = try await transaction(lock: lock, caller: caller) { database in
            let result = try await work(database, recorder)
            try await recorder.announce(on: database)
            return result
        }
        // Who may see a project changed: cached projects go before anyone checks access again.
        if recorder.recorded.contains(where: { $0.kind == .accessChanged }) { cache.forgetProjects() }
        deliverOwn(recorder.recorded)
        return result
    }

    /// Delivers the events of a transaction this instance committed, in sequence order. They go out
    /// at once, without the notification's round trip, when nothing of another instance's is due
    /// before them (else the reader of the log sends them).
    func deliverOwn(_ events: [StoreEvent]) {
        if engine == .sqlite {
            events.forEach(feed.deliver)
        } else {
            _ = feed.deliverFollowing(events)
        }
    }

    /// Reads the events committed after the last one delivered and delivers them (PostgreSQL: on
    /// every notification, and after reconnecting).
    func deliverCommittedEvents() async throws(StoreError) {
        while true {
            let after = feed.lastSequence
            let (events, read, last) = try await withDatabase { database in
                let rows = try await database.raw(
                    "SELECT * FROM events WHERE seq > \(bind: after) ORDER BY seq LIMIT 1000"
                ).all()
                return (
                    try rows.compactMap(Self.event), rows.count, try rows.last?.decode(column: "seq", as: Int64.self)
                )
            }
            for event in events {
                // Another instance changed the spec: the cached latest version is stale now, not in a second.
                if event.kind == .specSaved || event.kind == .specDeleted {
                    cache.forgetSpec(projectID: event.projectID, name: event.subject)
                }
                if event.kind == .accessChanged { cache.forgetProjects() }
                feed.deliver(event)
            }
            // Past events of kinds this version does not know, too.
            if let last { feed.start(after: last) }
            if read < 1000 { return }
        }
    }

    /// The event of a row; `nil` for a kind this version does not know (written by a newer one),
    /// which is skipped rather than taken for another.
    static func event(_ row: any SQLRow) throws -> StoreEvent? {
        guard let known = StoreEvent.Kind(rawValue: try row.decode(column: "kind", as: String.self)) else { return nil }
        return StoreEvent(
            sequence: try row.decode(column: "seq", as: Int64.self),
            projectID: try row.decode(column: "project_id", as: String.self),
            kind: known,
            subject: try row.decode(column: "subject", as: String.self),
            detail: try row.decode(column: "detail", as: String?.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            traceParent: try row.decode(column: "trace_parent", as: String?.self))
    }
}

/// Logs the events of one transaction.
final class EventRecorder: Sendable {
    private let engine: Store.Engine
    private let events = NIOLockedValueBox<[StoreEvent]>([])

    init(engine: Store.Engine) { self.engine = engine }

    /// The events logged so far.
    var recorded: [StoreEvent] { events.withLockedValue { $0 } }

    /// Logs an event in the transaction on `database`. On PostgreSQL the log is appended under a lock
    /// held to the commit (taken with the transaction's first event), so events commit in sequence
    /// order and a reader that follows the sequence never skips one; ``announce(on:)`` tells the
    /// other instances.
    func record(
        _ kind: StoreEvent.Kind, projectID: String, subject: String, detail: String? = nil, on database: any SQLDatabase
    ) async throws {
        try await record([(kind, subject, detail)], projectID: projectID, on: database)
    }

    /// Logs one project's events in one statement, in the order given.
    func record(
        _ happenings: [(kind: StoreEvent.Kind, subject: String, detail: String?)], projectID: String,
        on database: any SQLDatabase
    ) async throws {
        guard !happenings.isEmpty else { return }
        if engine == .postgres, events.withLockedValue({ $0.isEmpty }) {
            try await database.raw("SELECT pg_advisory_xact_lock(hashtext('arvis-events'))").run()
        }
        let now = Date().storePrecision
        let traceParent = TraceParent.current
        let rows = happenings.map { happening -> SQLQueryString in
            """
            (\(bind: projectID), \(bind: happening.kind.rawValue), \(bind: happening.subject), \(bind: happening.detail), \(bind: now.timeIntervalSince1970), \(bind: traceParent))
            """
        }
        // Each row's number read back with it: a statement's rows are numbered in the order given,
        // and the numbers are sorted so the events keep that order whatever order RETURNING uses.
        let sequences = try await database.raw(
            "INSERT INTO events (project_id, kind, subject, detail, created_at, trace_parent) VALUES "
                + rows.joined(separator: ", ") + " RETURNING seq"
        ).all(decodingColumn: "seq", as: Int64.self).sorted()
        guard sequences.count == happenings.count else {
            throw StoreError(
                .unavailable, "the event log gave \(sequences.count) numbers for \(happenings.count) events")
        }
        let recorded = zip(sequences, happenings).map { sequence, happening in
            StoreEvent(
                sequence: sequence, projectID: projectID, kind: happening.kind, subject: happening.subject,
                detail: happening.detail, createdAt: now, traceParent: traceParent)
        }
        events.withLockedValue { $0.append(contentsOf: recorded) }
    }

    /// On PostgreSQL, one notification for the transaction's events, sent when it commits (the
    /// listeners read every event after the last they delivered).
    func announce(on database: any SQLDatabase) async throws {
        guard engine == .postgres, let last = recorded.last else { return }
        try await database.raw("SELECT pg_notify(\(bind: Store.eventChannel), \(bind: String(last.sequence)))").run()
    }
}

/// Hands committed events to every subscriber of ``Store/eventFeed()``.
final class EventFeed: Sendable {
    private let subscribers = Subscribers<StoreEvent>()
    private let delivered = NIOLockedValueBox<Int64>(0)

    /// The sequence number of the last event delivered.
    var lastSequence: Int64 { delivered.withLockedValue { $0 } }

    /// Starts delivery after `sequence` (what was committed before the feed started is history).
    func start(after sequence: Int64) { delivered.withLockedValue { $0 = max($0, sequence) } }

    func subscribe() -> AsyncStream<StoreEvent> { subscribers.subscribe() }

    /// Delivers `event` unless one at or after its sequence was delivered already: a transaction's
    /// own instance and the reader of the log may both offer it.
    func deliver(_ event: StoreEvent) {
        delivered.withLockedValue { last in
            guard event.sequence > last else { return }
            last = event.sequence
            subscribers.yield(event)
        }
    }

    /// Delivers one transaction's `events` (in sequence order) at once when they follow the last
    /// one delivered with no gap; false when they do not (another instance's events come first, or a
    /// rolled-back transaction used a number): the reader of the log delivers them then.
    func deliverFollowing(_ events: [StoreEvent]) -> Bool {
        delivered.withLockedValue { last in
            guard let first = events.first,
                first.sequence == last + 1,
                zip(events, events.dropFirst()).allSatisfy({ $1.sequence == $0.sequence + 1 })
            else { return false }
            for event in events { subscribers.yield(event) }
            last = events[events.count - 1].sequence
            return true
        }
    }

    func close() { subscribers.close() }
}

/// The streams handed out to a feed's subscribers: each gets every element yielded after it
/// subscribed, until the feed closes.
final class Subscribers<Element: Sendable>: Sendable {
    private typealias State = (next: Int, continuations: [Int: AsyncStream<Element>.Continuation], closed: Bool)
    private let state = NIOLockedValueBox<State>((0, [:], false))
    private let policy: AsyncStream<Element>.Continuation.BufferingPolicy

    /// `policy`: what a subscriber that falls behind keeps.
    init(keeping policy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) {
        self.policy = policy
    }

    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: policy)
        let id: Int? = state.withLockedValue { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.continuations[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ element: Element) {
        for continuation in state.withLockedValue({ Array($0.continuations.values) }) { continuation.yield(element) }
    }

    func close() {
        let continuations = state.withLockedValue { state in
            state.closed = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// Follows a PostgreSQL notification channel on one connection of the pool, and reconnects with
/// back-off when it drops.
enum NotificationListener {
    /// Listens on `channel` until cancelled: `connected()` runs each time the listening starts,
    /// `received(payload)` for each notification.
    static func run(
        _ channel: String, client: PostgresClient, connected: @escaping @Sendable () async throws -> Void = {},
        received: @escaping @Sendable (String) async throws -> Void
    ) async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            let started = ContinuousClock.now
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        try await connected()
                        for try await notification in notifications { try await received(notification.payload) }
                    }
                }
            } catch {
                if Task.isCancelled { break }
            }
            // A connection that held for a while was healthy: start the back-off again.
            if ContinuousClock.now - started > .seconds(30) { delay = .milliseconds(100) }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
