public import ARVisSupport
import Foundation
public import Logging
import NIOConcurrencyHelpers
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLiteKit
import Tracing

/// Where ARVis keeps accounts, sessions, projects, members, every version of every spec, planting
/// and anchors: one implementation over SQLKit, on SQLite or PostgreSQL.
///
/// - SQLite (the default): one file (WAL journal, `synchronous=FULL`, foreign keys on), one
///   connection; operations run one at a time, so a transaction never interleaves with another and
///   a write that returned is on disk.
/// - PostgreSQL: a connection pool; transactions that check before they write (a spec's next
///   version, a tree's spacing, a project's last owner) take a transaction-scoped advisory lock on
///   what they check, so concurrent requests and server instances never both pass the check.
///
/// ```swift
/// let store = try await Store.open(sqliteAt: "arvis-data/arvis.sqlite")
/// let account = try await store.createAccount(username: "ana", passwordHash: hash)
/// ```
public final class Store: Sendable {
    /// The database engine behind a store.
    public enum Engine: String, Sendable {
        case sqlite, postgres
    }

    private enum Backend: Sendable {
        case sqlite(SQLiteConnection, AsyncLock)
        /// The pool, its running task, and how to open a connection outside it (to check whether the
        /// database answers while the pool may be busy).
        case postgres(PostgresClient, Task<Void, Never>, PostgresConnection.Configuration)
    }

    private let backend: Backend
    /// Committed events, handed to ``eventFeed()`` subscribers.
    let feed = EventFeed()
    /// Broadcasts from every instance, handed to ``broadcasts()`` subscribers; one that falls far
    /// behind loses the oldest (they are live messages, not a log).
    let broadcastFeed = Subscribers<String>(keeping: .bufferingNewest(10_000))
    /// Annotations waiting to be written together.
    let annotationWrites = AnnotationWrites()
    /// PostgreSQL: the task following other instances' events.
    private let listener = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// Hub reads kept in memory, dropped by every write that changes them.
    let cache: ReadCache
    /// Where a database call that holds its connection for long is reported.
    private let logger: Logger

    /// The engine this store runs on.
    public var engine: Engine {
        switch backend {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    private init(backend: Backend, logger: Logger) {
        self.backend = backend
        self.logger = logger
        // On PostgreSQL other server instances may write too: trust a cached read for one second.
        cache = ReadCache(lifetime: { if case .postgres = backend { .seconds(1) } else { .seconds(3_600) } }())
    }

    /// Opens (creating if needed) the SQLite database at `path` and brings its schema up to date.
    /// - Throws: ``StoreError`` `unavailable` when the file cannot be opened or migrated.
    public static func open(sqliteAt path: String, logger: Logger = Logger(label: "arvis.store"))
        async throws(StoreError) -> Store
    {
        let connection: SQLiteConnection
        do { connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger) } catch {
            throw StoreError(.unavailable, "cannot open the database \(path): \(error)", location: path, cause: error)
        }
        let store = try await prepared(Store(backend: .sqlite(connection, AsyncLock()), logger: logger), location: path)
        { database in
            try await database.raw("PRAGMA journal_mode = WAL").run()
            try await database.raw("PRAGMA synchronous = FULL").run()
            try await database.raw("PRAGMA foreign_keys = ON").run()
        }
        try await store.startEventFeed()
        return store
    }

    /// Starts the feed after the newest event already committed.
    private func startEventFeed() async throws(StoreError) {
        feed.start(after: try await lastEventSequence())
    }

    /// Connects to the PostgreSQL database of `url` (`postgres://user:password@host:port/database`,
    /// `?sslmode=disable|prefer|require`; without one, TLS is off on loopback and preferred elsewhere)
    /// and brings its schema up to date.
    /// - Throws: ``StoreError`` `invalid` for a URL that is not one; `unavailable` when the server
    ///   does not answer or the schema cannot be migrated.
    public static func open(postgres url: String, logger: Logger = Logger(label: "arvis.store"))
        async throws(StoreError) -> Store
    {
        let configuration = try PostgresURL.configuration(url)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let running = Task { await client.run() }
        let store = try await prepared(
            Store(backend: .postgres(client, running, try PostgresURL.connectionConfiguration(url)), logger: logger),
            location: PostgresURL.redacted(url)
        ) { _ in }
        try await store.startEventFeed()
        store.listener.withLockedValue {
            $0 = Task {
                await withDiscardingTaskGroup { group in
                    // Events: catching up on what was committed while not listening, so none is skipped.
                    group.addTask {
                        await NotificationListener.run(
                            Store.eventChannel, client: client, connected: { try await store.deliverCommittedEvents() },
                            received: { _ in try await store.deliverCommittedEvents() })
                    }
                    // Broadcasts are live only: what was said while not listening is gone.
                    group.addTask {
                        await NotificationListener.run(Store.broadcastChannel, client: client) {
                            store.broadcastFeed.yield($0)
                        }
                    }
                }
            }
        }
        return store
    }

    /// `store` with its schema migrated after `setUp`; closed again when that fails.
    private static func prepared(
        _ store: Store, location: String, setUp: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws(StoreError) -> Store {
        do {
            try await store.withDatabase { database in
                try await setUp(database)
                try await Migrations.run(on: database, engine: store.engine)
            }
            return store
        } catch {
            await store.close()
            throw StoreError(
                .unavailable, "cannot prepare the database \(location): \(error.message)", location: location,
                cause: error)
        }
    }

    /// Closes the database.
    public func close() async {
        feed.close()
        broadcastFeed.close()
        switch backend {
        case .sqlite(let connection, _): try? await connection.close()
        case .postgres(_, let running, _):
            listener.withLockedValue { $0?.cancel() }
            running.cancel()
        }
    }

    /// Runs `work` on a connection (on SQLite, alone), in a span of the trace under way (when traces
    /// are on); a thrown database error becomes ``StoreError``: `conflict` for a broken uniqueness
    /// rule, else `unavailable`.
    /// `caller` names the call in the warning about one that holds its connection for long.
    func withDatabase<T: Sendable>(
        caller: String = #function, _ work: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await InstrumentationSystem.tracer.withSpan("database", ofKind: .client) { span in
                span.attributes["db.system.name"] = engine == .sqlite ? "sqlite" : "postgresql"
                return try await onConnection(caller: caller, work)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.storeError(error)
        }
    }

    private func onConnection<T: Sendable>(
        caller: String, _ work: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        switch backend {
        case .sqlite(let connection, let lock):
            await lock.acquire()
            do {
                let result = try await work(connection.sql())
                await lock.release()
                return result
            } catch {
                await lock.release()
                throw error
            }
        case .postgres(let client, _, let direct):
            let logger = logger
            let watch = HoldWatch(
                after: Self.longHold,
                databaseAnswers: {
                    // On a connection of its own: when the pool is busy (overload), the database
                    // may still answer.
                    let answer = try? await Self.leasing(within: .seconds(1)) { leased in
                        try leased()
                        let connection = try await PostgresConnection.connect(
                            configuration: direct, id: 0, logger: logger)
                        let answers = try? await connection.sql().raw("SELECT 1 AS one").first() != nil
                        try? await connection.close()
                        return answers == true
                    }
                    return answer == true
                },
                report: { logger.warning("database: \(caller) has held its PostgreSQL connection for \($0)") })
            return try await Self.leasing(within: Self.connectionWait, watching: watch) { leased in
                try await client.withConnection { connection in
                    try leased()
                    return try await work(connection.sql())
                }
            }
        }
    }

    /// How long a request waits for a PostgreSQL connection before it is refused as `unavailable`:
    /// while the database is down, PostgresNIO's pool would hold it until the database returns.
    static let connectionWait = Duration.seconds(3)

    /// How long a call holds its PostgreSQL connection before the database is checked: a call still
    /// running then while the database answers is reported; one whose database no longer answers is
    /// answered `unavailable`, as one waiting for a connection is.
    static let longHold = Duration.seconds(3)

    /// Runs `work`, which calls `leased` once it holds a connection; fails with `unavailable` when it
    /// has not within `limit`, or when `watch` finds the database gone while `work` still holds it.
    /// Work that holds its connection while the database answers is never cut.
    ///
    /// The answer does not wait for `work` to end once it is refused: PostgresNIO's pool does not
    /// always end a cancelled wait for a connection at once, so `work` runs in a task of its own. A
    /// connection it gets after the limit is given back unused: `leased` then throws, so a write
    /// refused with `unavailable` while waiting is never made later.
    static func leasing<T: Sendable>(
        within limit: Duration, watching watch: HoldWatch? = nil,
        _ work: @escaping @Sendable (_ leased: @escaping @Sendable () throws -> Void) async throws -> T
    ) async throws -> T {
        let lease = Lease()
        let answer = AnswerOnce<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.set(continuation)
                let worker = Task {
                    do {
                        answer.resume(with: .success(try await work { try lease.take() }))
                    } catch {
                        answer.resume(with: .failure(error))
                    }
                }
                answer.onCancel { worker.cancel() }
                let timer = Task {
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    let refusal: String
                    if lease.expire() {
                        refusal = "the database did not give a connection within \(limit); try again"
                    } else {
                        guard let watch, (try? await Task.sleep(for: watch.after - limit)) != nil else { return }
                        guard !(await watch.databaseAnswers()) else { return watch.report(watch.after) }
                        refusal =
                            "the database stopped answering during the change, which may not have been made; check and try again"
                    }
                    worker.cancel()
                    answer.resume(with: .failure(StoreError(.unavailable, refusal)))
                }
                answer.onAnswer { timer.cancel() }
            }
        } onCancel: {
            answer.cancel()
        }
    }

    /// Runs `work` in a transaction: all of it is kept, or none. On PostgreSQL, `lock` names what the
    /// transaction checks before it writes, and transactions with the same name run one at a time.
    func transaction<T: Sendable>(
        lock: String? = nil, caller: String = #function, _ work: @escaping @Sendable (any SQLDatabase) async throws -> T
    )
        async throws(StoreError) -> T
    {
        let engine = engine
        return try await withDatabase(caller: caller) { database in
            try await database.raw(engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
            do {
                if engine == .postgres, let lock {
                    try await database.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: lock)))").run()
                }
                let result = try await work(database)
                try await database.raw("COMMIT").run()
                return result
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Whether the database answers (for `/health`).
    public func ping() async -> Bool {
        if case .sqlite(let connection, _) = backend {
            // Not behind the lock: `SELECT 1` reads nothing, so it may run between the statements of
            // a transaction under way, and /health does not wait for a large write's commit.
            return (try? await connection.sql().raw("SELECT 1 AS one").first()) != nil
        }
        return (try? await withDatabase { try await $0.raw("SELECT 1 AS one").first() != nil }) ?? false
    }

    /// A database error as a ``StoreError``.
    static func storeError(_ error: any Error) -> StoreError {
        if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "23505" {
            return StoreError(
                .conflict, "it exists already: \(error.serverInfo?[.detail] ?? "a unique value is taken")", cause: error
            )
        }
        if let error = error as? SQLiteError,
            error.reason == .constraintUniqueFailed || error.reason == .constraintPrimaryKeyFailed
        {
            return StoreError(.conflict, "it exists already: \(error.message)", cause: error)
        }
        return StoreError(.unavailable, "the database failed: \(String(reflecting: error))", cause: error)
    }
}

/// Reads `postgres://` URLs into PostgresNIO's client configuration.
enum PostgresURL {
    /// The pool's configuration for `url`.
    static func configuration(_ url: String) throws(StoreError) -> PostgresClient.Configuration {
        let parts = try Parts(url)
        let tls: PostgresClient.Configuration.TLS =
            switch parts.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        return PostgresClient.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password,
            database: parts.database, tls: tls)
    }

    /// The configuration of one connection outside the pool for `url`.
    static func connectionConfiguration(_ url: String) throws(StoreError) -> PostgresConnection.Configuration {
        let parts = try Parts(url)
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch parts.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw StoreError(.unavailable, "TLS cannot be set up for the database: \(error)", cause: error)
        }
        return PostgresConnection.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password,
            database: parts.database, tls: tls)
    }

    /// What a `postgres://` URL names.
    private struct Parts {
        enum TLS { case disable, prefer, require }
        var host: String
        var port: Int
        var user: String
        var password: String?
        var database: String
        var tls: TLS

        init(_ url: String) throws(StoreError) {
            guard let components = URLComponents(string: url),
                ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? ""),
                let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
            else {
                throw StoreError(
                    .invalid,
                    "a database URL looks like postgres://user:password@host:5432/database, not \(PostgresURL.redacted(url))"
                )
            }
            let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            let mode =
                components.queryItems?.first { $0.name == "sslmode" }?.value
                ?? (["localhost", "127.0.0.1", "::1"].contains(host) ? "disable" : "prefer")
            switch mode {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer
            case "require", "verify-ca", "verify-full": tls = .require
            default: throw StoreError(.invalid, "sslmode=\(mode) is not one of disable, prefer or require")
            }
            (self.host, port, self.user, password) = (host, components.port ?? 5432, user, components.password)
            self.database = database.isEmpty ? user : database
        }
    }

    /// The URL without its password, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "the database URL"
    }
}

/// A lock for async code: one holder at a time, waiters served in order.
actor AsyncLock {
    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard isHeld else {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            isHeld = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// What ``Store/leasing(within:watching:_:)`` does about work holding its connection for long.
struct HoldWatch: Sendable {
    /// How long after the start the work is looked at.
    var after: Duration
    /// Whether the database still answers (another connection's `SELECT 1`).
    var databaseAnswers: @Sendable () async -> Bool
    /// Reports work still running while the database answers.
    var report: @Sendable (Duration) -> Void
}

/// Whether a request got its connection in time, told across tasks: taken or expired, whichever
/// comes first.
private final class Lease: Sendable {
    private enum State { case waiting, taken, expired }
    private let state = NIOLockedValueBox(State.waiting)

    /// Marks the connection taken; throws when the wait had expired, so the work does not run.
    func take() throws {
        let taken = state.withLockedValue { state in
            if state == .waiting { state = .taken }
            return state == .taken
        }
        if !taken { throw CancellationError() }
    }

    /// Marks the wait expired; false when the connection was taken first.
    func expire() -> Bool {
        state.withLockedValue { state in
            if state == .waiting { state = .expired }
            return state == .expired
        }
    }
}

/// A continuation resumed once, by whichever of the work, the timer or a cancellation comes first.
private final class AnswerOnce<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var cancelled = false
        var cancelWork: (@Sendable () -> Void)?
        var answered = false
        var afterAnswer: (@Sendable () -> Void)?
    }
    private let state = NIOLockedValueBox(State())

    func set(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLockedValue { $0.continuation = continuation }
    }

    func resume(with result: Result<T, any Error>) {
        let (continuation, afterAnswer) = state.withLockedValue { state in
            defer {
                state.continuation = nil
                state.answered = true
                state.afterAnswer = nil
            }
            return (state.continuation, state.afterAnswer)
        }
        continuation?.resume(with: result)
        afterAnswer?()
    }

    /// Runs `afterAnswer` once the answer is given (now, when it was).
    func onAnswer(_ afterAnswer: @escaping @Sendable () -> Void) {
        let now = state.withLockedValue { state in
            if !state.answered { state.afterAnswer = afterAnswer }
            return state.answered
        }
        if now { afterAnswer() }
    }

    /// Runs `cancelWork` now if the caller was cancelled already, else when it is.
    func onCancel(_ cancelWork: @escaping @Sendable () -> Void) {
        let now = state.withLockedValue { state in
            state.cancelWork = cancelWork
            return state.cancelled
        }
        if now { cancelWork() }
    }

    func cancel() {
        let cancelWork = state.withLockedValue { state in
            state.cancelled = true
            return state.cancelWork
        }
        cancelWork?()
    }
}
