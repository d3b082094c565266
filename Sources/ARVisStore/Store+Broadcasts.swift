public import ARVisSupport
import SQLKit

/// Messages between the server instances that share a PostgreSQL store: what is not stored but
/// must reach every instance at once (who is in a room, WebRTC signalling, a device's poses).
/// They ride PostgreSQL's `NOTIFY`, like the event log's sequence numbers; on SQLite there is one
/// instance, and nothing to send.
extension Store {
    /// The PostgreSQL channel broadcasts travel on.
    static let broadcastChannel = "arvis_broadcasts"
    /// The longest broadcast, in UTF-8 bytes (PostgreSQL's `NOTIFY` takes 8 000).
    public static let maximumBroadcastBytes = 7_900

    /// Whether other instances may share this store (PostgreSQL): only then do broadcasts travel.
    public var isShared: Bool { engine == .postgres }

    /// Sends `message` to every instance's ``broadcasts()`` (this one's too); nothing on SQLite.
    /// - Throws: ``StoreError`` `invalid` for a message over ``maximumBroadcastBytes``, `unavailable`
    ///   when PostgreSQL cannot take it.
    public func broadcast(_ message: String) async throws(StoreError) {
        guard isShared else { return }
        guard message.utf8.count <= Self.maximumBroadcastBytes else {
            throw StoreError(.invalid, "a broadcast is at most \(Self.maximumBroadcastBytes) bytes")
        }
        try await withDatabase { database in
            try await database.raw("SELECT pg_notify(\(bind: Store.broadcastChannel), \(bind: message))").run()
        }
    }

    /// Every message broadcast from now on, by any instance, in the order PostgreSQL delivers them.
    /// The stream ends when the store closes; on SQLite, nothing comes.
    public func broadcasts() -> AsyncStream<String> {
        broadcastFeed.subscribe()
    }
}
