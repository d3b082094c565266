import Foundation
public import Logging
import SQLiteKit

/// Where ARVis keeps accounts, sessions, projects, members and every version of every spec.
///
/// One SQLite file (WAL journal, foreign keys on) under the server's data directory. Every operation
/// runs whole on one connection, one at a time, so a transaction never interleaves with another and
/// a write that returned is on disk.
///
/// ```swift
/// let store = try await Store.open(sqliteAt: "arvis-data/arvis.sqlite")
/// let account = try await store.createAccount(username: "ana", passwordHash: hash)
/// ```
public final class Store: Sendable {
    private let connection: SQLiteConnection
    private let lock = AsyncLock()

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    /// - Throws: ``StoreError`` `unavailable` when the file cannot be opened or migrated.
    public static func open(sqliteAt path: String, logger: Logger = Logger(label: "arvis.store")) async throws(StoreError) -> Store {
        do {
            let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            let store = Store(connection: connection)
            try await store.serialized { database in
                try await database.raw("PRAGMA journal_mode = WAL").run()
                try await database.raw("PRAGMA synchronous = FULL").run()
                try await database.raw("PRAGMA foreign_keys = ON").run()
                try await Migrations.run(on: database)
            }
            return store
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "cannot open the database \(path): \(error)", location: path, cause: error)
        }
    }

    /// Closes the database.
    public func close() async {
        try? await connection.close()
    }

    /// Runs `work` alone on the connection; a thrown database error becomes ``StoreError`` `unavailable`.
    func serialized<T: Sendable>(_ work: @Sendable (any SQLDatabase) async throws -> T) async throws(StoreError) -> T {
        await lock.acquire()
        do {
            let result = try await work(connection.sql())
            await lock.release()
            return result
        } catch let error as StoreError {
            await lock.release()
            throw error
        } catch {
            await lock.release()
            throw StoreError(.unavailable, "the database failed: \(error)", cause: error)
        }
    }

    /// Runs `work` in a transaction: all of it is kept, or none.
    func transaction<T: Sendable>(_ work: @Sendable (any SQLDatabase) async throws -> T) async throws(StoreError) -> T {
        try await serialized { database in
            try await database.raw("BEGIN IMMEDIATE").run()
            do {
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
        (try? await serialized { try await $0.raw("SELECT 1 AS one").first() != nil }) ?? false
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
